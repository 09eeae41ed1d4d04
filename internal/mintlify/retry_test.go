package mintlify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// newUncheckedFake is newFake without the contract check, for faults that
// break the answer itself (the checker would rightly report a truncated or
// malformed body).
func newUncheckedFake(t *testing.T, opts ...fakeapi.Option) (*Client, *fakeapi.Server, *clock.Fake) {
	t.Helper()
	clk := clock.NewFake(start, true)
	fake := fakeapi.New(append([]fakeapi.Option{fakeapi.WithClock(clk)}, opts...)...)
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL), WithClock(clk))
	if err != nil {
		t.Fatal(err)
	}
	return c, fake, clk
}

// faultyFake serves a fake whose matching requests get faults, through the
// contract check unless the faults break bodies.
func faultyFake(t *testing.T, match func(*http.Request) bool, faults ...fakeapi.Fault) (*Client, *fakeapi.Server, *clock.Fake) {
	t.Helper()
	opt := fakeapi.WithFaults(fakeapi.FaultRule{Match: match, Count: len(faults), Faults: faults})
	for _, f := range faults {
		if f.Kind == fakeapi.FaultTruncate || f.Kind == fakeapi.FaultMalformed {
			return newUncheckedFake(t, opt)
		}
	}
	return newFake(t, opt)
}

// transientFaults are the failures an idempotent call rides out.
var transientFaults = []struct {
	name  string
	fault fakeapi.Fault
}{
	{"429", fakeapi.TooManyRequests(3 * time.Second)},
	{"429 with an HTTP date", fakeapi.TooManyRequests(3 * time.Second).WithRetryAfterDate()},
	{"500", fakeapi.ServerError(http.StatusInternalServerError)},
	{"502", fakeapi.ServerError(http.StatusBadGateway)},
	{"503", fakeapi.ServerError(http.StatusServiceUnavailable)},
	{"504", fakeapi.ServerError(http.StatusGatewayTimeout)},
	{"dropped connection", fakeapi.DropConnection()},
	{"truncated body", fakeapi.TruncatedBody()},
	{"malformed body", fakeapi.MalformedBody()},
}

func TestIdempotentCallsSurviveTransientFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range transientFaults {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Three in a row on every idempotent operation.
			burst := []fakeapi.Fault{tc.fault, tc.fault, tc.fault}
			c, fake, _ := faultyFake(t, fakeapi.AnyOf(fakeapi.IsStatusRequest, fakeapi.IsBundleRequest, fakeapi.IsAgentJobRequest), burst...)
			fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs"})
			ctx := t.Context()

			job, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.WaitForStaticExport(ctx, job.JobID, nil); err != nil {
				t.Fatalf("wait: %v", err)
			}
			if _, err := c.GenerateBundle(ctx, job.JobID); err != nil {
				t.Fatalf("bundle: %v", err)
			}
			if _, err := c.GetAgentJob(ctx, "proj", "aj_1"); err != nil {
				t.Fatalf("agent job: %v", err)
			}
			if got := fake.FaultsInjected(""); got != 3 {
				t.Errorf("faults injected = %d, want 3", got)
			}
			if got := fake.ExportJobsStarted(); got != 1 {
				t.Errorf("jobs started = %d, want exactly 1", got)
			}
		})
	}
}

func TestStartRetriesOnlyWhenNothingStarted(t *testing.T) {
	t.Parallel()
	t.Run("429 burst", func(t *testing.T) {
		t.Parallel()
		c, fake, clk := faultyFake(t, fakeapi.IsStartRequest,
			fakeapi.TooManyRequests(2*time.Second), fakeapi.TooManyRequests(2*time.Second), fakeapi.TooManyRequests(2*time.Second))
		if _, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"}); err != nil {
			t.Fatal(err)
		}
		if got := fake.Count(http.MethodPost, "/v1/static-export/jobs"); got != 4 {
			t.Errorf("start requests = %d, want 4", got)
		}
		if got := fake.ExportJobsStarted(); got != 1 {
			t.Errorf("jobs started = %d, want 1", got)
		}
		if waited := clk.Now().Sub(start); waited < 6*time.Second {
			t.Errorf("waited %s, want at least the 3×2s the API asked for", waited)
		}
	})
	t.Run("refused connection", func(t *testing.T) {
		t.Parallel()
		c, fake := refusingClient(t, 2)
		if _, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"}); err != nil {
			t.Fatal(err)
		}
		if got := fake.ExportJobsStarted(); got != 1 {
			t.Errorf("jobs started = %d, want 1", got)
		}
	})
	t.Run("refused until the retries run out", func(t *testing.T) {
		t.Parallel()
		c, fake := refusingClient(t, 100)
		_, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
		var se *StartError
		if !errors.As(err, &se) || se.MayHaveStarted || Attempts(err) != DefaultMaxRetries+1 {
			t.Fatalf("err = %v, want a StartError after %d attempts that says nothing started", err, DefaultMaxRetries+1)
		}
		if !strings.Contains(err.Error(), "no static export job was started") || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("error = %q", err)
		}
		if got := fake.ExportJobsStarted(); got != 0 {
			t.Errorf("jobs started = %d, want 0", got)
		}
	})
}

// refusingClient returns a client whose first refusals connections are
// refused by the kernel (they go to a closed port) and whose later ones
// reach a fake.
func refusingClient(t *testing.T, refusals int) (*Client, *fakeapi.Server) {
	t.Helper()
	clk := clock.NewFake(start, true)
	fake := fakeapi.New(fakeapi.WithClock(clk))
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	_ = ln.Close()
	var mu sync.Mutex
	dials := 0
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		mu.Lock()
		dials++
		addr := srv.Listener.Addr().String()
		if dials <= refusals {
			addr = closed
		}
		mu.Unlock()
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL), WithClock(clk), WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	return c, fake
}

func TestStartNeverRetriesWhenAJobMayHaveStarted(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault fakeapi.Fault
		// jobs is how many jobs exist afterwards: faults before the handler
		// leave none, faults that break a good answer leave one.
		jobs int
	}{
		{"500", fakeapi.ServerError(http.StatusInternalServerError), 0},
		{"502", fakeapi.ServerError(http.StatusBadGateway), 0},
		{"503", fakeapi.ServerError(http.StatusServiceUnavailable), 0},
		{"504", fakeapi.ServerError(http.StatusGatewayTimeout), 0},
		{"dropped connection", fakeapi.DropConnection(), 0},
		{"truncated body", fakeapi.TruncatedBody(), 1},
		{"malformed body", fakeapi.MalformedBody(), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, fake, _ := faultyFake(t, fakeapi.IsStartRequest, tc.fault)
			_, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
			var se *StartError
			if !errors.As(err, &se) || !se.MayHaveStarted || !MayHaveStarted(err) {
				t.Fatalf("err = %v, want a StartError that says a job may have started", err)
			}
			if !strings.Contains(err.Error(), "may have started") {
				t.Errorf("error %q does not say a job may have started", err)
			}
			if got := fake.Count(http.MethodPost, "/v1/static-export/jobs"); got != 1 {
				t.Errorf("start requests = %d, want 1: never retried", got)
			}
			if got := fake.ExportJobsStarted(); got != tc.jobs {
				t.Errorf("jobs started = %d, want %d", got, tc.jobs)
			}
		})
	}
}

func TestPermanentErrorsFailFast(t *testing.T) {
	t.Parallel()
	c, fake, _ := newFake(t)
	disabled, disabledFake, _ := newFake(t, fakeapi.WithStaticExportDisabled())
	wrongKey, err := New("mint_wrong", WithBaseURL(c.baseURL.String()), WithClock(c.clock))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	running, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		fake   *fakeapi.Server
		call   func() error
		status int
	}{
		{"400 start", fake, func() error {
			_, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "https://docs.example.com"})
			return err
		}, 400},
		{"401 status", fake, func() error { _, err := wrongKey.GetStaticExportJob(ctx, running.JobID); return err }, 401},
		{"401 start", fake, func() error {
			_, err := wrongKey.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
			return err
		}, 401},
		{"403 start", disabledFake, func() error {
			_, err := disabled.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
			return err
		}, 403},
		{"404 status", fake, func() error { _, err := c.GetStaticExportJob(ctx, "se_missing"); return err }, 404},
		{"404 agent job", fake, func() error { _, err := c.GetAgentJob(ctx, "proj", "aj_missing"); return err }, 404},
		{"409 bundle", fake, func() error { _, err := c.GenerateBundle(ctx, running.JobID); return err }, 409},
	}
	for _, tc := range cases {
		tc.fake.Reset()
		err := tc.call()
		if StatusCode(err) != tc.status || Attempts(err) != 1 {
			t.Errorf("%s: err = %v, want HTTP %d after 1 attempt", tc.name, err, tc.status)
		}
		if n := len(tc.fake.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1", tc.name, n)
		}
		if MayHaveStarted(err) {
			t.Errorf("%s: %v says a job may have started", tc.name, err)
		}
	}
}

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
			if waited := clk.Now().Sub(before); waited != tc.want {
				t.Errorf("waited %s, want %s", waited, tc.want)
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
		clk := clock.NewFake(start, true)
		fake := fakeapi.New(fakeapi.WithClock(clk), always503)
		srv := httptest.NewServer(fake)
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL), WithClock(clk), WithMaxRetries(tc.maxRetries))
		if err != nil {
			t.Fatal(err)
		}
		job := mustStart(t, c)
		_, err = c.GetStaticExportJob(t.Context(), job.JobID)
		srv.Close()
		if StatusCode(err) != 503 || Attempts(err) != tc.maxRetries+1 || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("max retries %d: err = %v, want %q… after %d attempts", tc.maxRetries, err, tc.want, tc.maxRetries+1)
		}
		if n := fake.Count(http.MethodGet, "/v1/"); n != tc.maxRetries+1 {
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
	if w := p.wait(1, 10*time.Second); w != 10*time.Second {
		t.Errorf("Retry-After 10s: waited %s", w)
	}
	if w := p.wait(6, 2*time.Second); w < 15*time.Second {
		t.Errorf("a short Retry-After shortened the backoff to %s", w)
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":     0,
		"7":    7 * time.Second,
		" 7 ":  7 * time.Second,
		"0":    0,
		"-3":   0,
		"soon": 0,
		now.Add(time.Minute).Format(http.TimeFormat):  time.Minute,
		now.Add(-time.Minute).Format(http.TimeFormat): 0,
		"99999999999999": 24 * time.Hour,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestCancelStopsARetryWait parks a call in its retry wait on a clock that
// never moves: only cancellation can end it.
func TestCancelStopsARetryWait(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(start, false)
	fake := fakeapi.New(fakeapi.WithClock(clk), fakeapi.WithFaults(fakeapi.FaultRule{Faults: []fakeapi.Fault{fakeapi.ServerError(503)}}))
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL), WithClock(clk))
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

// TestRequestTimeout hangs the first answer until the client gives up. The
// timeout is a real one (see attemptTimeout), set to a few milliseconds.
func TestRequestTimeout(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	hung := 0
	fake := fakeapi.New(fakeapi.WithClock(clock.NewFake(start, true)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hang := hung == 0 || fakeapi.IsStartRequest(r)
		if hang {
			hung++
		}
		mu.Unlock()
		if hang {
			fake.ServeHTTP(httptest.NewRecorder(), r) // the API acts, the answer is lost
			<-r.Context().Done()
			return
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL), WithClock(clock.NewFake(start, true)), WithRequestTimeout(20*time.Millisecond))
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
}

func TestAuthorizationStaysOnTheAPIHost(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]string{}
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name] = r.Header.Get("Authorization")
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, `{"id":"aj_1","status":"completed","source":{"repository":"https://github.com/acme/docs","ref":null},"model":"sonnet","prLink":null,"createdAt":"2026-01-01T00:00:00Z","archivedAt":null}`)
		}
	}
	other := httptest.NewServer(record("other host"))
	t.Cleanup(other.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/agent/proj/job/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/moved", record("same host"))
	mux.HandleFunc("/v2/agent/proj/job/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/moved", http.StatusTemporaryRedirect)
	})
	api := httptest.NewServer(mux)
	t.Cleanup(api.Close)

	var logs recordingLogger
	c, err := New("mint_secret_key", WithBaseURL(api.URL), WithLogger(&logs))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"same", "away"} {
		if _, err := c.GetAgentJob(t.Context(), "proj", id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	if seen["same host"] != "Bearer mint_secret_key" {
		t.Errorf("same-host redirect: Authorization = %q, want the key", seen["same host"])
	}
	if seen["other host"] != "" {
		t.Errorf("cross-host redirect forwarded Authorization %q", seen["other host"])
	}
	if !logs.contains("redirected to another host") {
		t.Errorf("the stripped header was not logged:\n%s", logs.String())
	}
}

func TestLogsNameRetriesAndHoldNoSecrets(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(start, true)
	fake := fakeapi.New(fakeapi.WithClock(clk), fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsBundleRequest, Count: 2, Faults: []fakeapi.Fault{fakeapi.ServerError(502), fakeapi.DropConnection()},
	}))
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	var logs recordingLogger
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL), WithClock(clk), WithLogger(&logs))
	if err != nil {
		t.Fatal(err)
	}
	job := mustStart(t, c)
	if _, err := c.WaitForStaticExport(t.Context(), job.JobID, nil); err != nil {
		t.Fatal(err)
	}
	b, err := c.GenerateBundle(t.Context(), job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	for _, want := range []string{
		"performing request",            // go-retryablehttp's own log
		"Retrying Mintlify API request", // ours, with the reason
		"502 Bad Gateway",
		"route=POST /v1/static-export/jobs/" + job.JobID + "/bundle",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("logs lack %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{fakeapi.DefaultAPIKey, "Bearer", b.BundleURL, "X-Amz-Signature"} {
		if strings.Contains(out, secret) {
			t.Errorf("logs contain %q:\n%s", secret, out)
		}
	}
}

// recordingLogger keeps every entry as a line of text.
type recordingLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *recordingLogger) log(level, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := level + " " + msg
	for k, v := range fields {
		line += fmt.Sprintf(" %s=%v", k, v)
	}
	l.lines = append(l.lines, line)
}

func (l *recordingLogger) Debug(_ context.Context, msg string, f map[string]any) {
	l.log("DEBUG", msg, f)
}
func (l *recordingLogger) Info(_ context.Context, msg string, f map[string]any) {
	l.log("INFO", msg, f)
}
func (l *recordingLogger) Warn(_ context.Context, msg string, f map[string]any) {
	l.log("WARN", msg, f)
}
func (l *recordingLogger) Error(_ context.Context, msg string, f map[string]any) {
	l.log("ERROR", msg, f)
}

func (l *recordingLogger) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func (l *recordingLogger) contains(s string) bool { return strings.Contains(l.String(), s) }

func TestCheckBaseURL(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{
		"https://api.mintlify.com", "https://proxy.example.com/mintlify/", "http://127.0.0.1:8080",
		"http://127.8.9.10", "http://localhost:3000/api", "http://LOCALHOST", "http://[::1]:9000",
	} {
		if err := CheckBaseURL(ok); err != nil {
			t.Errorf("CheckBaseURL(%q) = %v, want nil", ok, err)
		}
	}
	for in, want := range map[string]string{
		"api.mintlify.com":                      "is not an absolute URL",
		"localhost:8080":                        "is not an absolute URL",
		"ftp://api.mintlify.com":                `uses the scheme "ftp"`,
		"https://":                              "has no host",
		"https://user:hunter2@api.mintlify.com": "holds a user name or password",
		"https://api.mintlify.com/?x=1":         "has a query or fragment",
		"https://api.mintlify.com/#top":         "has a query or fragment",
		"http://api.mintlify.com":               "would send the admin API key unencrypted",
		"http://localhost.example.com":          "would send the admin API key unencrypted",
		"http://10.0.0.1":                       "would send the admin API key unencrypted",
		"://":                                   "is not a valid URL",
	} {
		err := CheckBaseURL(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckBaseURL(%q) = %v, want it to say %q", in, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("CheckBaseURL(%q) repeats the password: %v", in, err)
		}
	}
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
	clk := clock.NewFake(start, true)
	fake := fakeapi.New(fakeapi.WithClock(clk), fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsAgentJobRequest, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(20 * time.Second)},
	}))
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL), WithClock(clk),
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
