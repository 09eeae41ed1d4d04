package mintlify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// seeded returns a poll.Adaptive policy whose jitter is repeatable.
func seeded(seed uint64) poll.Adaptive {
	return poll.Adaptive{Rand: rand.New(rand.NewPCG(seed, 1)).Float64}
}

// pollFake serves a fake API on a virtual clock that moves as the client
// sleeps, and returns a client for it.
func pollFake(t *testing.T, policy poll.Policy, opts ...fakeapi.Option) (*Client, *fakeapi.Server, *clock.Fake) {
	t.Helper()
	env := fakeapitest.New(t, fakeapitest.Fake(opts...))
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithPollPolicy(policy))
	if err != nil {
		t.Fatal(err)
	}
	return c, env.Fake, env.Clock
}

// pollLog is the status requests the fake answered so far: when each
// arrived on the virtual clock, its HTTP status and the job it returned.
type pollLog struct {
	times    []time.Time
	statuses []int
	jobs     []StaticExportJob
}

func statusLog(fake *fakeapi.Server) pollLog {
	var l pollLog
	for _, r := range fake.Requests() {
		id, ok := strings.CutPrefix(r.Path, "/v1/static-export/jobs/")
		if r.Method != http.MethodGet || !ok || id == "" || strings.Contains(id, "/") {
			continue
		}
		var job StaticExportJob
		_ = json.Unmarshal(r.Response, &job)
		l.times, l.statuses, l.jobs = append(l.times, r.At), append(l.statuses, r.Status), append(l.jobs, job)
	}
	return l
}

func (l pollLog) gaps() []time.Duration {
	var gaps []time.Duration
	for i := 1; i < len(l.times); i++ {
		gaps = append(gaps, l.times[i].Sub(l.times[i-1]))
	}
	return gaps
}

// TestWaitForStaticExportStarted: the start's answer is the wait's first
// status, so a queued job's first status request waits for the policy's
// backoff (2 s or more) rather than going out at once; a start answer that
// is already final ends the wait without a request.
func TestWaitForStaticExportStarted(t *testing.T) {
	t.Parallel()
	plan := fakeapi.JobPlan{QueueFor: 5 * time.Second, RunFor: 10 * time.Second}
	c, fake, _ := pollFake(t, seeded(1), fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }}))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForStaticExport(t.Context(), job.JobID, Started(job)); err != nil {
		t.Fatal(err)
	}
	log := statusLog(fake)
	if first := log.times[0].Sub(start); first < 2*time.Second {
		t.Errorf("first status request %s after the start, want at least 2s", first)
	}

	completed := *job
	completed.Status, completed.Progress = StatusCompleted, 100
	before := len(log.times)
	last, err := c.WaitForStaticExport(t.Context(), completed.JobID, Started(&completed))
	if after := len(statusLog(fake).times); err != nil || last.Status != StatusCompleted || after != before {
		t.Errorf("completed start answer: %+v, %v, %d status requests, want none", last, err, after-before)
	}
}

// TestWaitWakesAtDeadline: a sleep that would outlast the deadline is cut
// short, so the caller's timeout fires on time.
func TestWaitWakesAtDeadline(t *testing.T) {
	t.Parallel()
	hour := poll.Exponential{Initial: time.Hour, Max: time.Hour, Multiplier: 1}
	c, fake, clk := pollFake(t, hour)
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := clk.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	last, err := c.WaitForStaticExport(ctx, job.JobID)
	if !errors.Is(err, context.DeadlineExceeded) || last == nil || last.Status != StatusQueued {
		t.Fatalf("err = %v, last = %+v", err, last)
	}
	if elapsed := clk.Now().Sub(start); elapsed != 90*time.Second {
		t.Errorf("the wait ended after %s, want exactly the 90s deadline", elapsed)
	}
	if n := fake.Count(http.MethodGet, "/v1/static-export/jobs/"); n != 1 {
		t.Errorf("%d status requests, want 1", n)
	}
}

// TestWaitRidesOutRateLimit: a status request still refused with 429 after
// its retries pauses the wait for the API's Retry-After; the wait goes on.
func TestWaitRidesOutRateLimit(t *testing.T) {
	t.Parallel()
	plan := fakeapi.JobPlan{RunFor: 30 * time.Second}
	c, fake, clk := pollFake(t, seeded(1),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }}),
		fakeapi.WithFaults(fakeapi.FaultRule{
			Match: fakeapi.IsStatusRequest, Skip: 2, Count: 1,
			Faults: []fakeapi.Fault{fakeapi.TooManyRequests(7 * time.Second)},
		}))
	if err := WithMaxRetries(0)(c); err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	done, err := c.WaitForStaticExport(t.Context(), job.JobID)
	if err != nil || done.Status != StatusCompleted {
		t.Fatalf("wait: %+v, %v", done, err)
	}
	if n := fake.FaultsInjected(fakeapi.FaultStatus); n != 1 {
		t.Fatalf("%d 429s injected, want 1", n)
	}
	// The request after the refused one waited for the Retry-After.
	log := statusLog(fake)
	for i, code := range log.statuses {
		if code == http.StatusTooManyRequests && (i+1 == len(log.times) || log.times[i+1].Sub(log.times[i]) < 7*time.Second) {
			t.Errorf("status requests at %v with codes %v: want 7s or more after the 429", log.times, log.statuses)
		}
	}
	if late := clk.Now().Sub(start.Add(plan.RunFor)); late > time.Second {
		t.Errorf("completion noticed %s late", late)
	}
}

// TestWaitStopsOnOtherErrors: any failure but a rate limit ends the wait.
func TestWaitStopsOnOtherErrors(t *testing.T) {
	t.Parallel()
	c, _, _ := pollFake(t, seeded(1), fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusBadGateway)},
	}))
	if err := WithMaxRetries(0)(c); err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForStaticExport(t.Context(), job.JobID); StatusCode(err) != http.StatusBadGateway {
		t.Errorf("err = %v, want the 502", err)
	}
}

// TestWaitForAgentJobBacksOff: an agent job reports no progress, so its
// wait backs off, and notices completion within one capped backoff.
func TestWaitForAgentJobBacksOff(t *testing.T) {
	t.Parallel()
	c, fake, clk := pollFake(t, seeded(5))
	fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Minute})
	job, err := c.WaitForAgentJob(t.Context(), "proj", "aj_1")
	if err != nil || job.Status != AgentStatusCompleted {
		t.Fatalf("job = %+v, err = %v", job, err)
	}
	if late := clk.Now().Sub(start.Add(5 * time.Minute)); late > 36*time.Second {
		t.Errorf("completion noticed %s late, want at most one capped backoff (36s)", late)
	}
	if n := fake.Count(http.MethodGet, "/v2/agent/"); n > 16 {
		t.Errorf("%d requests for a 5-minute agent job, want at most 16", n)
	}
}

// TestOnChangeFiresOnlyOnChange: onChange sees every answer that differs
// from the one before, and no other.
func TestOnChangeFiresOnlyOnChange(t *testing.T) {
	t.Parallel()
	plan := fakeapi.JobPlan{QueueFor: 3 * time.Second, RunFor: 2 * time.Minute, Curve: fakeapi.Stall(0.2, 0.7)}
	c, fake, _ := pollFake(t, seeded(9), fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }}))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []StaticExportJob
	if _, err := c.WaitForStaticExport(t.Context(), job.JobID, OnChange(func(j StaticExportJob) { seen = append(seen, j) })); err != nil {
		t.Fatal(err)
	}
	log := statusLog(fake)
	var want []StaticExportJob
	for i, j := range log.jobs {
		if i == 0 || j.Status != log.jobs[i-1].Status || j.Progress != log.jobs[i-1].Progress || j.PageCount != log.jobs[i-1].PageCount {
			want = append(want, j)
		}
	}
	if len(want) == len(log.jobs) {
		t.Fatalf("every one of %d answers changed something: the test needs a flat stretch", len(log.jobs))
	}
	got, _ := json.Marshal(seen)
	exp, _ := json.Marshal(want)
	if !bytes.Equal(got, exp) {
		t.Errorf("onChange saw\n%s\nwant\n%s", got, exp)
	}
}

// TestEveryPolicyIsPaced: whatever the policy, the waits of one client
// space their requests together once the API pushed back.
func TestEveryPolicyIsPaced(t *testing.T) {
	t.Parallel()
	policies := []struct {
		name   string
		policy poll.Policy
	}{
		{"default", DefaultPollPolicy()},
		{"adaptive, 2s minimum", poll.Adaptive{MinInterval: 2 * time.Second}},
		{"exponential, every 100ms", poll.Exponential{Initial: 100 * time.Millisecond, Max: 100 * time.Millisecond, Multiplier: 1}},
	}
	for _, p := range policies {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			c, fake, _ := pollFake(t, p.policy, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
				return fakeapi.JobPlan{RunFor: time.Second}
			}}))
			// A hundred requests over the last ten seconds, then a
			// pushback: their rate of 10 a second is halved to 5, 200 ms
			// apart.
			for i := range 100 {
				c.pacer.Slot(start, start.Add(-time.Duration(i)*100*time.Millisecond))
			}
			c.pacer.Pushback(start)
			var ids []string
			for range 3 {
				job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, job.JobID)
			}
			// One wait after the other on the same virtual clock: each
			// one's first request is paced against the requests the
			// earlier ones booked.
			for _, id := range ids {
				if _, err := c.WaitForStaticExport(t.Context(), id); err != nil {
					t.Fatal(err)
				}
			}
			gaps := statusLog(fake).gaps()
			for _, gap := range gaps {
				if gap < 200*time.Millisecond {
					t.Fatalf("status requests %v apart, want 200ms or more (gaps %v)", gap, gaps)
				}
			}
		})
	}
}
