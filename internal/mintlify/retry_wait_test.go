package mintlify

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

func TestRetryAfterIsHonouredAndCapped(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault fakeapi.Fault
		want  time.Duration
	}{
		{"seconds", fakeapi.TooManyRequests(20 * time.Second), 20 * time.Second},
		{"HTTP date", fakeapi.TooManyRequests(40 * time.Second).WithRetryAfterDate(), 40 * time.Second},
		{"capped", fakeapi.TooManyRequests(10 * time.Minute), time.Minute},
		{"503 with Retry-After", fakeapi.Fault{Kind: fakeapi.FaultStatus, Status: 503, RetryAfter: 15 * time.Second}, 15 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _, clk := faultyFake(t, fakeapi.IsStatusRequest, tc.fault)
			job := mustStart(t, c)
			before := clk.Now()
			if _, err := c.GetStaticExportJob(t.Context(), job.JobID); err != nil {
				t.Fatal(err)
			}
			// The first retry's jitter (up to half its 1 s backoff) goes on
			// top of what the API asked for.
			if waited := clk.Now().Sub(before); waited < tc.want || waited > tc.want+500*time.Millisecond {
				t.Errorf("waited %s, want %s plus at most 500ms of jitter", waited, tc.want)
			}
		})
	}
}

func mustStart(t *testing.T, c *Client) *StaticExportJob {
	t.Helper()
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return job
}

func TestNoWaitRunsPastTheDeadline(t *testing.T) {
	t.Parallel()
	c, fake, clk := faultyFake(t, fakeapi.IsStatusRequest, fakeapi.TooManyRequests(45*time.Second))
	job := mustStart(t, c)
	ctx, cancel := clk.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	before := clk.Now()
	_, err := c.GetStaticExportJob(ctx, job.JobID)
	var re *RetryError
	if !errors.As(err, &re) || !errors.Is(err, context.DeadlineExceeded) || !IsRateLimited(err) {
		t.Fatalf("err = %v, want a RetryError stopped by the deadline", err)
	}
	want := "stopped after 1 attempt: the next attempt was due in 45s, but the deadline was 10s away"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error = %q, want it to contain %q", err, want)
	}
	if waited := clk.Now().Sub(before); waited != 0 {
		t.Errorf("waited %s before giving up, want 0", waited)
	}
	if n := fake.Count(http.MethodGet, "/v1/static-export/jobs/"); n != 1 {
		t.Errorf("status requests = %d, want 1", n)
	}
}

func TestRetriesRunOut(t *testing.T) {
	t.Parallel()
	always503 := fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.ServerError(503)}})
	for _, tc := range []struct {
		maxRetries int
		want       string
	}{
		{DefaultMaxRetries, "gave up after 6 attempts: GET /v1/static-export/jobs/"},
		{2, "gave up after 3 attempts: GET /v1/static-export/jobs/"},
		{0, "GET /v1/static-export/jobs/"},
	} {
		env := fakeapitest.New(t, fakeapitest.Unchecked(), fakeapitest.Fake(always503))
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithMaxRetries(tc.maxRetries))
		if err != nil {
			t.Fatal(err)
		}
		job := mustStart(t, c)
		_, err = c.GetStaticExportJob(t.Context(), job.JobID)
		if StatusCode(err) != 503 || Attempts(err) != tc.maxRetries+1 || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("max retries %d: err = %v, want %q… after %d attempts", tc.maxRetries, err, tc.want, tc.maxRetries+1)
		}
		if n := env.Fake.Count(http.MethodGet, "/v1/"); n != tc.maxRetries+1 {
			t.Errorf("max retries %d: %d requests", tc.maxRetries, n)
		}
	}
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	t.Parallel()
	p := DefaultRetryPolicy()
	for retry, base := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 5: 16 * time.Second, 6: 30 * time.Second, 40: 30 * time.Second} {
		seen := map[time.Duration]bool{}
		for range 50 {
			w := p.wait(retry, 0)
			if w < base/2 || w > base {
				t.Fatalf("retry %d waited %s, want between %s and %s", retry, w, base/2, base)
			}
			seen[w] = true
		}
		if len(seen) < 2 {
			t.Errorf("retry %d: no jitter in 50 waits", retry)
		}
	}
	seen := map[time.Duration]bool{}
	for range 50 {
		w := p.wait(1, 10*time.Second)
		if w < 10*time.Second || w > 10*time.Second+500*time.Millisecond {
			t.Fatalf("Retry-After 10s: waited %s, want 10s plus at most 500ms of jitter", w)
		}
		seen[w] = true
	}
	if len(seen) < 2 {
		t.Error("Retry-After 10s: no jitter on top of it in 50 waits: callers refused together would come back together")
	}
	if w := p.wait(6, 2*time.Second); w < 15*time.Second {
		t.Errorf("a short Retry-After shortened the backoff to %s", w)
	}
}

// TestCancelStopsARetryWait parks a call in its retry wait on a clock that
// never moves: only cancellation can end it.
func TestCancelStopsARetryWait(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.ManualClock(), fakeapitest.Unchecked(),
		fakeapitest.Fake(fakeapi.WithFaults(fakeapi.FaultRule{Faults: []fakeapi.Fault{fakeapi.ServerError(503)}})))
	fake, clk := env.Fake, env.Clock
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(clk))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	result := make(chan error, 1)
	go func() {
		_, err := c.GetStaticExportJob(ctx, "se_1")
		result <- err
	}()
	for clk.Sleepers() == 0 {
		select {
		case err := <-result:
			t.Fatalf("the call ended before waiting: %v", err)
		default:
		}
	}
	cancel()
	err = <-result
	if !errors.Is(err, context.Canceled) || StatusCode(err) != 503 {
		t.Fatalf("err = %v, want context.Canceled after a 503", err)
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

// TestRequestTimeout hangs the first answer until the client gives up.
// The attempts' timers are the test's: one fires only when its answer
// hangs, so an attempt that answers never runs into the timeout, however
// loaded the machine.
func TestRequestTimeout(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	hung := 0
	var fake *fakeapi.Server
	timers := &heldTimers{}
	hanging := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hang := hung == 0 || fakeapi.IsStartRequest(r)
		if hang {
			hung++
		}
		mu.Unlock()
		if hang {
			fake.ServeHTTP(httptest.NewRecorder(), r) // the API acts, the answer is lost
			timers.expire()
			<-r.Context().Done()
			return
		}
		fake.ServeHTTP(w, r)
	})
	env := fakeapitest.New(t, fakeapitest.Unchecked(), fakeapitest.Handler(func(*fakeapi.Server) http.Handler { return hanging }))
	fake = env.Fake
	// The client waits on a clock of its own.
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(clock.NewFake(start, true)),
		WithRequestTimeout(20*time.Millisecond), timers.option())
	if err != nil {
		t.Fatal(err)
	}
	// A read is retried.
	if _, err := c.GetAgentJob(t.Context(), "proj", "aj_missing"); !IsNotFound(err) {
		t.Errorf("read after a hung attempt: err = %v, want the 404 of the second attempt", err)
	}
	// A start is not: the job was created, the answer never came.
	_, err = c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	var rte *RequestTimeoutError
	if !errors.As(err, &rte) || !MayHaveStarted(err) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("start: err = %v, want a request timeout after which a job may have started", err)
	}
	if !strings.Contains(err.Error(), "no complete answer within the request timeout of 20ms") {
		t.Errorf("start: error = %q", err)
	}
	if got := fake.ExportJobsStarted(); got != 1 {
		t.Errorf("jobs started = %d, want 1", got)
	}
	if got := timers.started(); got != 3 {
		t.Errorf("attempt timers started = %d, want 3 (two reads, one start)", got)
	}
}

// heldTimers stand in for the request timeout's real timers: none fires by
// itself; expire fires the newest, the timer of the attempt in flight.
type heldTimers struct {
	mu     sync.Mutex
	timers []*heldTimer
}

type heldTimer struct {
	mu      sync.Mutex
	f       func()
	stopped bool
}

func (h *heldTimers) option() Option {
	return func(c *Client) error {
		c.timers = func(_ time.Duration, f func()) attemptTimer {
			h.mu.Lock()
			defer h.mu.Unlock()
			timer := &heldTimer{f: f}
			h.timers = append(h.timers, timer)
			return timer
		}
		return nil
	}
}

func (h *heldTimers) started() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.timers)
}

// expire fires the newest timer, unless it was stopped.
func (h *heldTimers) expire() {
	h.mu.Lock()
	timer := h.timers[len(h.timers)-1]
	h.mu.Unlock()
	timer.mu.Lock()
	fire := !timer.stopped
	timer.stopped = true
	timer.mu.Unlock()
	if fire {
		timer.f()
	}
}

func (t *heldTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

func (t *heldTimer) Reset(time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := !t.stopped
	t.stopped = false
	return was
}

func TestWithRetryPolicy(t *testing.T) {
	t.Parallel()
	for _, bad := range []RetryPolicy{
		{MaxRetries: -1},
		{MinWait: -time.Second},
		{MinWait: 2 * time.Second, MaxWait: time.Second},
		{MaxRetryAfter: -time.Second},
	} {
		if _, err := New("mint_x", WithRetryPolicy(bad)); err == nil {
			t.Errorf("WithRetryPolicy(%+v): want an error", bad)
		}
	}
	// A policy with no backoff and a 5s cap: the wait is what the API asked,
	// capped.
	env := fakeapitest.New(t, fakeapitest.Unchecked(), fakeapitest.Fake(fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsAgentJobRequest, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(20 * time.Second)},
	})))
	clk := env.Clock
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(clk),
		WithRetryPolicy(RetryPolicy{MaxRetries: 2, MaxRetryAfter: 5 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetAgentJob(t.Context(), "proj", "aj_1")
	if !IsRateLimited(err) || Attempts(err) != 3 {
		t.Fatalf("err = %v, want a 429 after 3 attempts", err)
	}
	if waited := clk.Now().Sub(start); waited != 10*time.Second {
		t.Errorf("waited %s, want 2 × the 5s cap", waited)
	}
}
