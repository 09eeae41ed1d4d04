package mintlify

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// TestAdaptivePolicyCurves pins what the policy does on each progress curve
// at three lengths, in virtual time with fixed jitter: it notices completion
// within a second, spends at most 25 status requests on a job whose
// progress advances, and never asks twice within a second.
func TestAdaptivePolicyCurves(t *testing.T) {
	t.Parallel()
	curves := []struct {
		name    string
		curve   func(float64) float64
		queue   func(run time.Duration) time.Duration
		budget  int           // most status requests; 0 for no budget
		latency time.Duration // longest time from completion to noticing it
	}{
		{"linear", nil, nil, 25, time.Second},
		{"front-loaded", fakeapi.FrontLoaded, nil, 25, time.Second},
		{"back-loaded", fakeapi.BackLoaded, nil, 25, time.Second},
		{"stalled", fakeapi.Stall(0.3, 0.6), nil, 0, 1500 * time.Millisecond},
		{"long-queued", nil, func(run time.Duration) time.Duration { return run * 3 / 4 }, 0, time.Second},
		// Steep curves are not the policy's target, only its stress test:
		// the last 0.1 % step of ease-out takes 3 % of the run.
		{"ease-in x²", func(x float64) float64 { return x * x }, nil, 30, 3 * time.Second},
		{"ease-out 1-(1-x)²", func(x float64) float64 { return 1 - (1-x)*(1-x) }, nil, 0, 40 * time.Second},
	}
	for _, c := range curves {
		for _, run := range []time.Duration{5 * time.Second, time.Minute, 30 * time.Minute} {
			t.Run(c.name+"/"+run.String(), func(t *testing.T) {
				t.Parallel()
				queue := 2 * time.Second
				if c.queue != nil {
					queue = c.queue(run)
				}
				plan := fakeapi.JobPlan{QueueFor: queue, RunFor: run, Curve: c.curve}
				latency, requests, gaps := waitOut(t, seeded(uint64(run)), plan)
				if latency < 0 || latency > c.latency {
					t.Errorf("completion noticed %s after it happened, want at most %s (%d requests, gaps %v)", latency, c.latency, requests, gaps)
				}
				if c.budget > 0 && requests > c.budget {
					t.Errorf("%d status requests, want at most %d (gaps %v)", requests, c.budget, gaps)
				}
				for _, gap := range gaps {
					if gap < time.Second {
						t.Fatalf("two status requests %s apart, want at least 1s (gaps %v)", gap, gaps)
					}
				}
			})
		}
	}
}

// waitOut starts an export that follows plan and waits for it as the
// resource does, taking the start's answer as the first status. It returns
// how long after completion the wait noticed it, the status requests it
// made and the gaps between them.
func waitOut(t *testing.T, policy poll.Policy, plan fakeapi.JobPlan) (time.Duration, int, []time.Duration) {
	t.Helper()
	client, fake, clk := pollFake(t, policy, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }}))
	job, err := client.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	done, err := client.WaitForStaticExport(t.Context(), job.JobID, Started(job))
	if err != nil || done.Status != StatusCompleted {
		t.Fatalf("wait: %+v, %v", done, err)
	}
	log := statusLog(fake)
	return clk.Now().Sub(start.Add(plan.QueueFor + plan.RunFor)), len(log.times), log.gaps()
}

// rewriteUpdated hands a policy observations whose UpdatedAt it rewrites:
// an API that gives none, or one whose updatedAt means something else.
type rewriteUpdated struct {
	poll.Policy
	updated func(poll.Observation) time.Time
}

func (r rewriteUpdated) Start(now time.Time) poll.Schedule {
	return rewriteSchedule{r.Policy.Start(now), r.updated}
}

type rewriteSchedule struct {
	poll.Schedule
	updated func(poll.Observation) time.Time
}

func (r rewriteSchedule) Next(obs poll.Observation) time.Duration {
	obs.UpdatedAt = r.updated(obs)
	return r.Schedule.Next(obs)
}

// TestAdaptivePolicyUpdatedAt: updatedAt, the instant of the job's last
// change, tells at one look whether a job that slowed abruptly is stalled
// or moving again, which saves the quick second look. On stalled jobs it
// costs fewer requests than the same policy without it, with completion
// still noticed within the stalled curve's bound. An updatedAt that means
// something else (a heartbeat, or frozen at creation) costs requests at
// most, never latency.
func TestAdaptivePolicyUpdatedAt(t *testing.T) {
	t.Parallel()
	variants := []struct {
		name    string
		updated func(poll.Observation) time.Time
	}{
		{"as the API gives it", nil},
		{"none", func(poll.Observation) time.Time { return time.Time{} }},
		{"heartbeat", func(o poll.Observation) time.Time { return o.Now }},
		{"frozen", func(o poll.Observation) time.Time { return o.CreatedAt }},
	}
	curves := []struct {
		name  string
		curve func(float64) float64
	}{{"linear", nil}, {"front-loaded", fakeapi.FrontLoaded}, {"stalled", fakeapi.Stall(0.3, 0.6)}}
	const seeds = 8
	for _, c := range curves {
		for _, run := range []time.Duration{20 * time.Second, time.Minute, 10 * time.Minute} {
			t.Run(c.name+"/"+run.String(), func(t *testing.T) {
				t.Parallel()
				requests := make([]int, len(variants))
				for i, v := range variants {
					for seed := range uint64(seeds) {
						policy := poll.Policy(seeded(seed))
						if v.updated != nil {
							policy = rewriteUpdated{policy, v.updated}
						}
						plan := fakeapi.JobPlan{QueueFor: time.Second + time.Duration(seed)*250*time.Millisecond, RunFor: run, Curve: c.curve}
						latency, n, _ := waitOut(t, policy, plan)
						requests[i] += n
						if latency < 0 || latency > 1500*time.Millisecond {
							t.Errorf("updatedAt %s, seed %d: completion noticed %s after it happened, want at most 1.5s", v.name, seed, latency)
						}
					}
				}
				t.Logf("status requests over %d jobs by updatedAt: as given %d, none %d, heartbeat %d, frozen %d",
					seeds, requests[0], requests[1], requests[2], requests[3])
				if c.name == "stalled" && requests[0] >= requests[1] {
					t.Errorf("stalled jobs: %d status requests with updatedAt, %d without; want fewer with it", requests[0], requests[1])
				}
			})
		}
	}
}

// TestAdaptivePolicyBeatsFixedLoop: on a ten-minute export the policy
// notices completion sooner than a 10-second loop and with a fraction of
// its requests.
func TestAdaptivePolicyBeatsFixedLoop(t *testing.T) {
	t.Parallel()
	plan := fakeapi.JobPlan{QueueFor: 1500 * time.Millisecond, RunFor: 10*time.Minute + 3*time.Second}
	measure := func(p poll.Policy) (time.Duration, int) {
		c, fake, clk := pollFake(t, p, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }}))
		job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitForStaticExport(t.Context(), job.JobID); err != nil {
			t.Fatal(err)
		}
		return clk.Now().Sub(start.Add(plan.QueueFor + plan.RunFor)), len(statusLog(fake).times)
	}
	adaptiveLatency, adaptiveRequests := measure(seeded(3))
	loopLatency, loopRequests := measure(poll.Exponential{Initial: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1})
	if adaptiveLatency >= loopLatency || adaptiveLatency > time.Second || adaptiveRequests*4 > loopRequests {
		t.Errorf("adaptive: %s late with %d requests; 10s loop: %s late with %d requests",
			adaptiveLatency, adaptiveRequests, loopLatency, loopRequests)
	}
}

// TestAdaptivePolicyStuckJob: a job whose progress stops backs off to one
// request per 30 s (plus at most 20 % jitter), reports each change once,
// and the wait ends exactly at the deadline, not a sleep later.
func TestAdaptivePolicyStuckJob(t *testing.T) {
	t.Parallel()
	plan := fakeapi.JobPlan{QueueFor: 2 * time.Second, RunFor: time.Minute, Never: true}
	c, fake, clk := pollFake(t, seeded(7), fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }}))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := clk.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	changes := 0
	last, err := c.WaitForStaticExport(ctx, job.JobID, OnChange(func(StaticExportJob) { changes++ }))
	if !errors.Is(err, context.DeadlineExceeded) || last == nil || last.Progress != 10 {
		t.Fatalf("err = %v, last = %+v", err, last)
	}
	if late := clk.Now().Sub(start.Add(20 * time.Minute)); late != 0 {
		t.Errorf("the wait ended %s after its deadline", late)
	}

	log := statusLog(fake)
	distinct := 0
	var flatSince time.Time
	for i, j := range log.jobs {
		if i == 0 || j.Status != log.jobs[i-1].Status || j.Progress != log.jobs[i-1].Progress || j.PageCount != log.jobs[i-1].PageCount {
			distinct++
			continue
		}
		if flatSince.IsZero() {
			flatSince = log.times[i]
		}
		if gap := log.times[i].Sub(log.times[i-1]); log.times[i-1].Sub(flatSince) >= time.Minute && (gap < 30*time.Second || gap > 36*time.Second) {
			t.Errorf("a minute after the job was seen flat, requests %s apart, want 30s to 36s", gap)
		}
	}
	if changes != distinct {
		t.Errorf("onChange called %d times for %d distinct answers", changes, distinct)
	}
	if n := len(log.times); n > 45 {
		t.Errorf("%d status requests in 20 minutes of a stuck job, want at most 45", n)
	}
}
