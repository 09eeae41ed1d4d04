package mintlify

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// start is the virtual moment every test's clock begins at.
var start = fakeapitest.Start

// newFake serves a fake API (fakeapitest), checked against the
// contract of Mintlify's API, and a client for it on a virtual clock that advances as the
// client waits.
func newFake(t *testing.T, opts ...fakeapi.Option) (*Client, *fakeapi.Server, *clock.Fake) {
	t.Helper()
	env := fakeapitest.New(t, fakeapitest.Fake(opts...))
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithUserAgent("test-agent/1.0"))
	if err != nil {
		t.Fatal(err)
	}
	return c, env.Fake, env.Clock
}

func TestEndpoint(t *testing.T) {
	t.Parallel()
	cases := []struct {
		base     string
		segments []string
		want     string
	}{
		{"https://api.mintlify.com", []string{"v1", "static-export", "jobs"}, "https://api.mintlify.com/v1/static-export/jobs"},
		{"https://api.mintlify.com/", []string{"v1", "static-export", "jobs"}, "https://api.mintlify.com/v1/static-export/jobs"},
		{"https://proxy.example.com/mintlify", []string{"v1", "x"}, "https://proxy.example.com/mintlify/v1/x"},
		{"https://proxy.example.com/mintlify/", []string{"v1", "x"}, "https://proxy.example.com/mintlify/v1/x"},
		{"https://proxy.example.com/a%2Fb/", []string{"v1"}, "https://proxy.example.com/a%2Fb/v1"},
		{"https://h", []string{"jobs", "a/b"}, "https://h/jobs/a%2Fb"},
		{"https://h", []string{"jobs", "a?b#c"}, "https://h/jobs/a%3Fb%23c"},
		{"https://h", []string{"jobs", ".."}, "https://h/jobs/%2E%2E"},
		{"https://h", []string{"jobs", "."}, "https://h/jobs/%2E"},
		{"https://h", []string{"jobs", "a b"}, "https://h/jobs/a%20b"},
	}
	for _, c := range cases {
		client, err := New("mint_x", WithBaseURL(c.base))
		if err != nil {
			t.Fatalf("New(%q): %v", c.base, err)
		}
		if got := client.endpoint(c.segments...); got != c.want {
			t.Errorf("endpoint(%q, %q) = %q, want %q", c.base, c.segments, got, c.want)
		}
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	t.Parallel()
	if _, err := New(""); err == nil {
		t.Error("New with an empty key: want an error")
	}
	for _, base := range []string{"api.mintlify.com", "ftp://api.mintlify.com", "https://", "https://h/?x=1", "://"} {
		if _, err := New("mint_x", WithBaseURL(base)); err == nil {
			t.Errorf("WithBaseURL(%q): want an error", base)
		}
	}
}

func TestStaticExportLifecycle(t *testing.T) {
	t.Parallel()
	c, fake, clk := newFake(t)
	ctx := t.Context()

	job, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com", Paths: []string{"index", "guides/x"}})
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != StatusQueued || !strings.HasPrefix(job.JobID, "se_") || !job.CreatedAt.Equal(start) {
		t.Fatalf("started job = %+v", job)
	}
	if _, err := c.GenerateBundle(ctx, job.JobID); !IsConflict(err) {
		t.Fatalf("bundle before completion: err = %v, want a 409", err)
	}

	var seen []StaticExportJob
	done, err := c.WaitForStaticExport(ctx, job.JobID, OnChange(func(j StaticExportJob) { seen = append(seen, j) }))
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != StatusCompleted || done.Progress != 100 || done.PageCount != 2 {
		t.Fatalf("finished job = %+v", done)
	}
	if len(seen) < 2 || seen[0].Status != StatusQueued || seen[len(seen)-1].Status != StatusCompleted {
		t.Errorf("onChange saw %d updates: %+v", len(seen), seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] == seen[i-1] {
			t.Errorf("onChange called twice with the same job: %+v", seen[i])
		}
	}

	b, err := c.GenerateBundle(ctx, job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if b.JobID != job.JobID || b.SizeBytes <= 0 || !b.ExpiresAt.Equal(clk.Now().Truncate(time.Second).Add(time.Hour)) {
		t.Errorf("bundle = %+v (now %s)", b, clk.Now())
	}

	for _, r := range fake.Requests() {
		if !r.Authorized || r.UserAgent != "test-agent/1.0" {
			t.Errorf("%s %s: authorized=%v user agent %q", r.Method, r.Path, r.Authorized, r.UserAgent)
		}
	}
}

func TestBaseURLWithPathPrefix(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.Unchecked(), fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler {
		return http.StripPrefix("/mintlify", fake)
	}))
	for _, base := range []string{env.URL + "/mintlify", env.URL + "/mintlify/"} {
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(base))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"}); err != nil {
			t.Errorf("base %q: %v", base, err)
		}
	}
	if got := env.Fake.ExportJobsStarted(); got != 2 {
		t.Errorf("jobs started = %d, want 2", got)
	}
}

func TestAPIErrors(t *testing.T) {
	t.Parallel()
	c, _, _ := newFake(t)
	ctx := t.Context()
	wrongKey, err := New("mint_wrong", WithBaseURL(c.baseURL.String()))
	if err != nil {
		t.Fatal(err)
	}
	disabledClient, _, _ := newFake(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Disabled: true}))

	_, unauthorized := wrongKey.GetStaticExportJob(ctx, "se_1")
	_, forbidden := disabledClient.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
	_, badRequest := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "https://docs.example.com"})
	_, notFound := c.GetStaticExportJob(ctx, "se_missing")
	_, agentNotFound := c.GetAgentJob(ctx, "proj", "aj_missing")

	cases := []struct {
		name   string
		err    error
		is     func(error) bool
		status int
		route  string
	}{
		{"401", unauthorized, IsUnauthorized, 401, "GET /v1/static-export/jobs/se_1"},
		{"403", forbidden, IsForbidden, 403, "POST /v1/static-export/jobs"},
		{"400", badRequest, IsBadRequest, 400, "POST /v1/static-export/jobs"},
		{"404", notFound, IsNotFound, 404, "GET /v1/static-export/jobs/se_missing"},
		{"404 agent", agentNotFound, IsNotFound, 404, "GET /v2/agent/proj/job/aj_missing"},
	}
	for _, tc := range cases {
		var apiErr *APIError
		if !errors.As(tc.err, &apiErr) || !tc.is(tc.err) || apiErr.StatusCode != tc.status || apiErr.Route != tc.route || apiErr.Message == "" {
			t.Errorf("%s: err = %#v", tc.name, tc.err)
		}
		if strings.Contains(tc.err.Error(), "mint_") {
			t.Errorf("%s: the error leaks an API key: %v", tc.name, tc.err)
		}
	}
}

func TestUndocumentedBodies(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/html") {
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<html>bad gateway</html>"))
			return
		}
		_, _ = w.Write([]byte(`{"jobId": "se_1", "status": `))
	}))
	t.Cleanup(srv.Close)
	// Both answers are retried (see retry_test.go); the virtual clock makes
	// the waits free.
	c, err := New("mint_x", WithBaseURL(srv.URL), WithClock(clock.NewFake(start, true)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetStaticExportJob(t.Context(), "html")
	if StatusCode(err) != http.StatusBadGateway || !strings.Contains(err.Error(), "no error message") || Attempts(err) != DefaultMaxRetries+1 {
		t.Errorf("HTML 502: err = %v", err)
	}
	_, err = c.GetStaticExportJob(t.Context(), "se_1")
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "malformed response body") || Attempts(err) != DefaultMaxRetries+1 {
		t.Errorf("truncated body: err = %v", err)
	}
}

func TestWaitForFailedJob(t *testing.T) {
	t.Parallel()
	c, _, _ := newFake(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Minute, FailWith: "render error", FailAtProgress: 40}
	}}))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	last, err := c.WaitForStaticExport(t.Context(), job.JobID)
	var failed *JobFailedError[StaticExportJob]
	if !errors.As(err, &failed) || last == nil || last.Status != StatusFailed {
		t.Fatalf("err = %v, last = %+v", err, last)
	}
	want := "static export job " + job.JobID + " failed at 40% (16 pages exported): render error"
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

// TestWaitForFailedAgentJob: a failed agent job ends its wait as a failed
// static export does, with a *JobFailedError that carries the job, and the
// job returned beside it.
func TestWaitForFailedAgentJob(t *testing.T) {
	t.Parallel()
	c, _, _ := newFake(t, fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		return fakeapi.AgentJobPlan{ActiveFor: time.Minute, FinalStatus: AgentStatusFailed}
	}}))
	job, err := c.CreateAgentJob(t.Context(), "proj", "Something impossible")
	if err != nil {
		t.Fatal(err)
	}
	last, err := c.WaitForAgentJob(t.Context(), "proj", job.ID)
	var failed *JobFailedError[AgentJob]
	if !errors.As(err, &failed) || failed.Job.Status != AgentStatusFailed || last == nil || last.Status != AgentStatusFailed {
		t.Fatalf("err = %v, last = %+v", err, last)
	}
}

func TestWaitTimesOutInVirtualTime(t *testing.T) {
	t.Parallel()
	c, _, clk := newFake(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{Never: true}
	}}))
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := clk.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	last, err := c.WaitForStaticExport(ctx, job.JobID)
	if !errors.Is(err, context.DeadlineExceeded) || last == nil || last.Status != StatusRunning {
		t.Fatalf("err = %v, last = %+v", err, last)
	}
	if elapsed := clk.Now().Sub(start); elapsed < 10*time.Minute || elapsed > 11*time.Minute {
		t.Errorf("virtual time spent = %s, want about 10m", elapsed)
	}
}

// TestWaitStopsOnCancel parks the poller in a sleep on a clock that never
// moves: only cancellation can end the wait.
func TestWaitStopsOnCancel(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.ManualClock())
	fake, clk := env.Fake, env.Clock
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(clk))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	result := make(chan error, 1)
	go func() {
		_, err := c.WaitForStaticExport(ctx, job.JobID)
		result <- err
	}()
	for clk.Sleepers() == 0 {
		select {
		case err := <-result:
			t.Fatalf("wait ended before sleeping: %v", err)
		default:
		}
	}
	cancel()
	if err := <-result; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := fake.Count(http.MethodGet, "/v1/static-export/jobs/"); n != 1 {
		t.Errorf("status requests = %d, want 1: polling must stop at once", n)
	}
}

func TestWaitForAgentJob(t *testing.T) {
	t.Parallel()
	c, fake, _ := newFake(t)
	pr := "https://github.com/acme/docs/pull/9"
	fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Minute, PRLink: &pr})

	job, err := c.GetAgentJob(t.Context(), "proj", "aj_1")
	if err != nil || job.Status != AgentStatusActive || job.PRLink != nil || job.Source.Ref != nil {
		t.Fatalf("active job = %+v, err = %v", job, err)
	}
	var statuses []string
	job, err = c.WaitForAgentJob(t.Context(), "proj", "aj_1", OnChange(func(j AgentJob) { statuses = append(statuses, j.Status) }))
	if err != nil || job.Status != AgentStatusCompleted || job.PRLink == nil || *job.PRLink != pr {
		t.Fatalf("finished job = %+v, err = %v", job, err)
	}
	if strings.Join(statuses, ",") != "active,completed" {
		t.Errorf("onChange saw %v", statuses)
	}
}
