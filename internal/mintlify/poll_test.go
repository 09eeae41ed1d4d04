package mintlify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
)

// seeded returns an AdaptivePolicy whose jitter is repeatable.
func seeded(seed uint64) AdaptivePolicy {
	return AdaptivePolicy{Rand: rand.New(rand.NewPCG(seed, 1)).Float64}
}

// pollLog records, on the virtual clock, every status answer the fake gave.
type pollLog struct {
	mu       sync.Mutex
	times    []time.Time
	jobs     []StaticExportJob
	statuses []int
}

func (l *pollLog) gaps() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var gaps []time.Duration
	for i := 1; i < len(l.times); i++ {
		gaps = append(gaps, l.times[i].Sub(l.times[i-1]))
	}
	return gaps
}

// pollFake serves a fake API on a virtual clock that moves as the client
// sleeps, records its status answers, and returns a client for it.
func pollFake(t *testing.T, policy PollPolicy, opts ...fakeapi.Option) (*Client, *fakeapi.Server, *clock.Fake, *pollLog) {
	t.Helper()
	clk := clock.NewFake(start, true)
	fake := fakeapi.New(append([]fakeapi.Option{fakeapi.WithClock(clk)}, opts...)...)
	log := &pollLog{}
	url := contract.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !fakeapi.IsStatusRequest(r) {
			fake.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		fake.ServeHTTP(rec, r)
		var job StaticExportJob
		_ = json.Unmarshal(rec.Body.Bytes(), &job)
		log.mu.Lock()
		log.times, log.jobs = append(log.times, clk.Now()), append(log.jobs, job)
		log.statuses = append(log.statuses, rec.Code)
		log.mu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(url), WithClock(clk), WithPollPolicy(policy))
	if err != nil {
		t.Fatal(err)
	}
	return c, fake, clk, log
}

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
func waitOut(t *testing.T, policy PollPolicy, plan fakeapi.JobPlan) (time.Duration, int, []time.Duration) {
	t.Helper()
	client, _, clk, log := pollFake(t, policy, fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }))
	job, err := client.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	done, err := client.WaitForStartedExport(t.Context(), job, nil)
	if err != nil || done.Status != StatusCompleted {
		t.Fatalf("wait: %+v, %v", done, err)
	}
	return clk.Now().Sub(start.Add(plan.QueueFor + plan.RunFor)), len(log.times), log.gaps()
}

// TestWaitForStartedExport: the start's answer is the wait's first
// status, so a queued job's first status request waits for the policy's
// backoff (2 s or more) rather than going out at once; a start answer that
// is already final ends the wait without a request.
func TestWaitForStartedExport(t *testing.T) {
	t.Parallel()
	plan := fakeapi.JobPlan{QueueFor: 5 * time.Second, RunFor: 10 * time.Second}
	c, _, _, log := pollFake(t, seeded(1), fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForStartedExport(t.Context(), job, nil); err != nil {
		t.Fatal(err)
	}
	if first := log.times[0].Sub(start); first < 2*time.Second {
		t.Errorf("first status request %s after the start, want at least 2s", first)
	}

	completed := *job
	completed.Status, completed.Progress = StatusCompleted, 100
	before := len(log.times)
	last, err := c.WaitForStartedExport(t.Context(), &completed, nil)
	if err != nil || last.Status != StatusCompleted || len(log.times) != before {
		t.Errorf("completed start answer: %+v, %v, %d status requests, want none", last, err, len(log.times)-before)
	}
}

// rewriteUpdated hands a policy observations whose UpdatedAt it rewrites:
// an API that gives none, or one whose updatedAt means something else.
type rewriteUpdated struct {
	PollPolicy
	updated func(Observation) time.Time
}

func (r rewriteUpdated) Start(now time.Time) PollSchedule {
	return rewriteSchedule{r.PollPolicy.Start(now), r.updated}
}

type rewriteSchedule struct {
	PollSchedule
	updated func(Observation) time.Time
}

func (r rewriteSchedule) Next(obs Observation) time.Duration {
	obs.UpdatedAt = r.updated(obs)
	return r.PollSchedule.Next(obs)
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
		updated func(Observation) time.Time
	}{
		{"as the API gives it", nil},
		{"none", func(Observation) time.Time { return time.Time{} }},
		{"heartbeat", func(o Observation) time.Time { return o.Now }},
		{"frozen", func(o Observation) time.Time { return o.CreatedAt }},
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
						policy := PollPolicy(seeded(seed))
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
	measure := func(p PollPolicy) (time.Duration, int) {
		c, _, clk, log := pollFake(t, p, fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }))
		job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitForStaticExport(t.Context(), job.JobID, nil); err != nil {
			t.Fatal(err)
		}
		return clk.Now().Sub(start.Add(plan.QueueFor + plan.RunFor)), len(log.gaps()) + 1
	}
	adaptiveLatency, adaptiveRequests := measure(seeded(3))
	loopLatency, loopRequests := measure(ExponentialPolicy{Initial: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1})
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
	c, _, clk, log := pollFake(t, seeded(7), fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := clk.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	changes := 0
	last, err := c.WaitForStaticExport(ctx, job.JobID, func(StaticExportJob) { changes++ })
	if !errors.Is(err, context.DeadlineExceeded) || last == nil || last.Progress != 10 {
		t.Fatalf("err = %v, last = %+v", err, last)
	}
	if late := clk.Now().Sub(start.Add(20 * time.Minute)); late != 0 {
		t.Errorf("the wait ended %s after its deadline", late)
	}

	log.mu.Lock()
	defer log.mu.Unlock()
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

// TestAdaptivePolicyWithoutProgress: with nothing to estimate from (a queued
// job, an agent job), the policy backs off exponentially from 2 s to 30 s;
// jitter only lengthens a wait, by up to 20 %.
func TestAdaptivePolicyWithoutProgress(t *testing.T) {
	t.Parallel()
	for _, jitter := range []float64{0, 0.999} {
		s := AdaptivePolicy{Rand: func() float64 { return jitter }}.Start(start)
		now := start
		var got []time.Duration
		for range 8 {
			d := s.Next(Observation{Now: now, Status: AgentStatusActive})
			got = append(got, d)
			now = now.Add(d)
		}
		want := []int{2, 4, 8, 16, 30, 30, 30, 30}
		for i := range want {
			base := time.Duration(want[i]) * time.Second
			if got[i] < base || float64(got[i]) > float64(base)*(1+backoffJitter*jitter)+1 {
				t.Fatalf("jitter %v: waits %v, want %v seconds lengthened by at most %.0f%%", jitter, got, want, 100*backoffJitter*jitter)
			}
		}
	}
}

// scripted feeds a schedule observations of a running job, one per entry,
// each the previous wait later, and returns the waits.
func scripted(s PollSchedule, progress []float64) []time.Duration {
	now := start
	var waits []time.Duration
	for _, p := range progress {
		d := s.Next(Observation{Now: now, Status: StatusRunning, Progress: p, HasProgress: true, CreatedAt: start})
		waits = append(waits, d)
		now = now.Add(d)
	}
	return waits
}

// TestAdaptivePolicyErratic: progress that goes back, or falls abruptly,
// earns a quick second look rather than a long sleep.
func TestAdaptivePolicyErratic(t *testing.T) {
	t.Parallel()
	p := AdaptivePolicy{Rand: func() float64 { return 0 }}
	waits := scripted(p.Start(start), []float64{10, 20, 30, 40, 5})
	if last := waits[len(waits)-1]; last != time.Second {
		t.Errorf("after progress went back, waited %s, want a 1s probe (waits %v)", last, waits)
	}
	// A job moving 10 %/s that then gains one step in a long interval.
	s := p.Start(start)
	for _, obs := range []struct {
		at time.Duration
		p  float64
	}{{0, 10}, {time.Second, 20}, {2 * time.Second, 30}, {3 * time.Second, 40}, {20 * time.Second, 40.1}} {
		now := start.Add(obs.at)
		if d := s.Next(Observation{Now: now, Status: StatusRunning, Progress: obs.p, HasProgress: true}); obs.at == 20*time.Second && d != time.Second {
			t.Errorf("after an abrupt slowdown, waited %s, want a 1s probe", d)
		}
	}
}

// TestAdaptivePolicyJitterIsSeeded: the same seed gives the same waits.
func TestAdaptivePolicyJitterIsSeeded(t *testing.T) {
	t.Parallel()
	progress := []float64{0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 64, 64, 64, 64, 64}
	a, b := scripted(seeded(42).Start(start), progress), scripted(seeded(42).Start(start), progress)
	c := scripted(seeded(43).Start(start), progress)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different waits: %v and %v", a, b)
		}
	}
	same := true
	for i := range a {
		same = same && a[i] == c[i]
	}
	if same {
		t.Errorf("different seeds, same waits: %v", a)
	}
}

// TestWaitWakesAtDeadline: a sleep that would outlast the deadline is cut
// short, so the caller's timeout fires on time.
func TestWaitWakesAtDeadline(t *testing.T) {
	t.Parallel()
	hour := ExponentialPolicy{Initial: time.Hour, Max: time.Hour, Multiplier: 1}
	c, fake, clk, _ := pollFake(t, hour)
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := clk.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	last, err := c.WaitForStaticExport(ctx, job.JobID, nil)
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
	c, fake, clk, log := pollFake(t, seeded(1),
		fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }),
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
	done, err := c.WaitForStaticExport(t.Context(), job.JobID, nil)
	if err != nil || done.Status != StatusCompleted {
		t.Fatalf("wait: %+v, %v", done, err)
	}
	if n := fake.FaultsInjected(fakeapi.FaultStatus); n != 1 {
		t.Fatalf("%d 429s injected, want 1", n)
	}
	// The request after the refused one waited for the Retry-After.
	log.mu.Lock()
	for i, code := range log.statuses {
		if code == http.StatusTooManyRequests && (i+1 == len(log.times) || log.times[i+1].Sub(log.times[i]) < 7*time.Second) {
			t.Errorf("status requests at %v with codes %v: want 7s or more after the 429", log.times, log.statuses)
		}
	}
	log.mu.Unlock()
	if late := clk.Now().Sub(start.Add(plan.RunFor)); late > time.Second {
		t.Errorf("completion noticed %s late", late)
	}
}

// TestWaitStopsOnOtherErrors: any failure but a rate limit ends the wait.
func TestWaitStopsOnOtherErrors(t *testing.T) {
	t.Parallel()
	c, _, _, _ := pollFake(t, seeded(1), fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusBadGateway)},
	}))
	if err := WithMaxRetries(0)(c); err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForStaticExport(t.Context(), job.JobID, nil); StatusCode(err) != http.StatusBadGateway {
		t.Errorf("err = %v, want the 502", err)
	}
}

// TestRateLimited classifies the errors a wait rides out.
func TestRateLimited(t *testing.T) {
	t.Parallel()
	limited := &APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: 3 * time.Second}
	cases := []struct {
		name string
		err  error
		want time.Duration
		ok   bool
	}{
		{"429 with Retry-After", limited, 3 * time.Second, true},
		{"429 without", &APIError{StatusCode: http.StatusTooManyRequests}, rateLimitPause, true},
		{"429 asking for less than a second", &APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: time.Millisecond}, time.Second, true},
		{"retries ran out", &RetryError{Attempts: 6, Err: limited}, 3 * time.Second, true},
		{"retrying stopped by the deadline", &RetryError{Attempts: 2, Err: limited, Stop: context.DeadlineExceeded}, 0, false},
		{"503", &APIError{StatusCode: http.StatusServiceUnavailable, RetryAfter: time.Second}, 0, false},
		{"transport", &TransportError{Err: errors.New("reset")}, 0, false},
	}
	for _, c := range cases {
		got, ok := rateLimited(c.err)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: rateLimited = %s, %v; want %s, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestWaitForAgentJobBacksOff: an agent job reports no progress, so its
// wait backs off, and notices completion within one capped backoff.
func TestWaitForAgentJobBacksOff(t *testing.T) {
	t.Parallel()
	c, fake, clk, _ := pollFake(t, seeded(5))
	fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Minute})
	job, err := c.WaitForAgentJob(t.Context(), "proj", "aj_1", nil)
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
	c, _, _, log := pollFake(t, seeded(9), fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []StaticExportJob
	if _, err := c.WaitForStaticExport(t.Context(), job.JobID, func(j StaticExportJob) { seen = append(seen, j) }); err != nil {
		t.Fatal(err)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
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

// TestPacer: no spacing until the API pushes back; then request times at
// least 1/rate apart, the rate halved by each pushback (once per hold) and
// growing back after a calm spell.
func TestPacer(t *testing.T) {
	t.Parallel()
	p := &pacer{}
	// Twenty requests a second for ten seconds, unpaced.
	for i := range 200 {
		at := start.Add(time.Duration(i) * 50 * time.Millisecond)
		if got := p.slot(at, at); !got.Equal(at) {
			t.Fatalf("before any pushback: slot %s for %s", got, at)
		}
	}
	now := start.Add(10 * time.Second)
	p.pushback(now)
	if p.rate != 10 {
		t.Fatalf("rate after the first pushback = %v, want half of 20", p.rate)
	}
	p.pushback(now.Add(time.Second)) // the same congestion
	if p.rate != 10 {
		t.Fatalf("a second pushback within the hold cut the rate to %v", p.rate)
	}
	var got []time.Duration
	for _, want := range []time.Duration{0, 0, 50 * time.Millisecond, time.Second, 950 * time.Millisecond} {
		got = append(got, p.slot(now, now.Add(want)).Sub(now))
	}
	// The last unpaced request was 50 ms before now.
	wantSlots := []time.Duration{50 * time.Millisecond, 150 * time.Millisecond, 250 * time.Millisecond, time.Second, 1100 * time.Millisecond}
	for i := range wantSlots {
		if got[i] != wantSlots[i] {
			t.Fatalf("slots %v, want %v", got, wantSlots)
		}
	}
	if r := p.rateAt(now.Add(paceCalm + 4*time.Second)); r != 12 {
		t.Errorf("rate 4s after the calm spell = %v, want 12", r)
	}
	if r := p.rateAt(now.Add(paceCalm + time.Minute)); r != 0 {
		t.Errorf("rate long after = %v, want no limit", r)
	}
	quiet := &pacer{}
	quiet.pushback(start)
	if quiet.rate != minPaceRate {
		t.Errorf("pushback with no recent requests: rate %v, want the %v floor", quiet.rate, minPaceRate)
	}
	var none *pacer
	none.pushback(start) // a nil pacer paces nothing
}

// TestWaitsShareThePacer: waits started from the default policy of one
// client space their requests together once the API pushed back.
func TestWaitsShareThePacer(t *testing.T) {
	t.Parallel()
	policy, ok := DefaultPollPolicy().(AdaptivePolicy)
	if !ok {
		t.Fatalf("DefaultPollPolicy() is a %T", DefaultPollPolicy())
	}
	policy.pace.rate, policy.pace.cut = 5, start // 200 ms apart
	c, _, _, log := pollFake(t, policy, fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Second}
	}))
	var ids []string
	for range 3 {
		job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, job.JobID)
	}
	// One wait after the other on the same virtual clock: each one's first
	// request is paced against the requests the earlier ones booked.
	for _, id := range ids {
		if _, err := c.WaitForStaticExport(t.Context(), id, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, gap := range log.gaps() {
		if gap < 200*time.Millisecond {
			t.Fatalf("status requests %v apart, want 200ms or more (gaps %v)", gap, log.gaps())
		}
	}
}
