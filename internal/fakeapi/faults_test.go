package fakeapi_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// rawDo sends a request and reads the answer, returning transport errors
// instead of failing the test.
func (h *harness) rawDo(method, path string) (response, error) {
	req, err := http.NewRequest(method, h.url+path, nil)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Authorization", "Bearer "+fakeapi.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: body}, err
}

func TestStatusFaultsComeBeforeTheHandler(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithFaults(fakeapi.FaultRule{
		Match:  fakeapi.IsStartRequest,
		Count:  3,
		Faults: []fakeapi.Fault{fakeapi.TooManyRequests(2 * time.Second), fakeapi.ServerError(http.StatusBadGateway), fakeapi.TooManyRequests(90 * time.Second).WithRetryAfterDate()},
	}))
	r := h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, `{"domain":"docs.example.com"}`)
	r.wantError(t, http.StatusTooManyRequests, "Rate limit exceeded")
	if got := r.header.Get("Retry-After"); got != "2" {
		t.Errorf("Retry-After = %q, want 2", got)
	}
	h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, `{"domain":"docs.example.com"}`).
		wantError(t, http.StatusBadGateway, "Bad gateway")
	r = h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, `{"domain":"docs.example.com"}`)
	r.wantStatus(t, http.StatusTooManyRequests)
	if got, want := r.header.Get("Retry-After"), testStart.Add(90*time.Second).Format(http.TimeFormat); got != want {
		t.Errorf("Retry-After = %q, want %q", got, want)
	}
	if n := h.fake.ExportJobsStarted(); n != 0 {
		t.Fatalf("jobs started by faulted requests = %d, want 0", n)
	}
	h.startJob(t, map[string]string{"domain": "docs.example.com"}) // the burst is over
	if n := h.fake.FaultsInjected(fakeapi.FaultStatus); n != 3 {
		t.Errorf("status faults = %d, want 3", n)
	}
}

// TestNotFoundIsTemporary: a 404 fault hides a job only while its rule
// lasts, unlike ForgetJob.
func TestNotFoundIsTemporary(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.NotFound()}}))
	job := h.startJob(t, map[string]string{"domain": "docs.example.com"})
	h.do(t, http.MethodGet, "/v1/static-export/jobs/"+job.JobID, fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusNotFound, "Not found")
	h.do(t, http.MethodGet, "/v1/static-export/jobs/"+job.JobID, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
}

// TestLostAnswerStartsTheJob: the start request takes effect, the client
// gets no answer, and the request is recorded without a status.
func TestLostAnswerStartsTheJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStartRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.LoseAnswer()}}))
	req, _ := http.NewRequest(http.MethodPost, h.url+"/v1/static-export/jobs", strings.NewReader(`{"domain":"docs.example.com"}`))
	req.Header.Set("Authorization", "Bearer "+fakeapi.DefaultAPIKey)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_ = resp.Body.Close()
		t.Fatalf("the lost answer reached the client: HTTP %d", resp.StatusCode)
	}
	if n := h.fake.ExportJobsStarted(); n != 1 {
		t.Fatalf("jobs started = %d, want 1", n)
	}
	reqs := h.fake.Requests()
	if last := reqs[len(reqs)-1]; last.Status != 0 || !last.At.Equal(testStart) {
		t.Errorf("recorded status %d at %s, want 0 at %s", last.Status, last.At, testStart)
	}
	job := h.fake.JobIDs()[0]
	if st, ok := h.fake.JobStatusAt(job, testStart); !ok || st != fakeapi.StatusQueued {
		t.Errorf("JobStatusAt(start) = %q, %v; want queued", st, ok)
	}
	if st, _ := h.fake.JobStatusAt(job, testStart.Add(time.Hour)); st != fakeapi.StatusCompleted {
		t.Errorf("JobStatusAt(+1h) = %q, want completed", st)
	}
	if _, ok := h.fake.JobStatusAt("se_missing", testStart); ok {
		t.Error("JobStatusAt found a job that was never started")
	}
}

func TestRuleSelection(t *testing.T) {
	t.Parallel()
	// A burst of two after the first request, and every third of the rest
	// (counting only what the burst let through).
	h := newHarness(t, fakeapi.WithFaults(
		fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Skip: 1, Count: 2, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusServiceUnavailable)}},
		fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Every: 3, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusInternalServerError), fakeapi.ServerError(http.StatusGatewayTimeout)}},
	))
	job := h.startJob(t, map[string]string{"domain": "docs.example.com"})
	var got []int
	for range 9 {
		got = append(got, h.do(t, http.MethodGet, "/v1/static-export/jobs/"+job.JobID, fakeapi.DefaultAPIKey, nil).status)
	}
	want := []int{200, 503, 503, 200, 500, 200, 200, 504, 200}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("statuses = %v, want %v", got, want)
		}
	}
	// Downloads and other operations are not matched.
	if n := h.fake.FaultsInjected(""); n != 4 {
		t.Errorf("faults injected = %d, want 4", n)
	}
	h.fake.SetFaults()
	h.getJob(t, job.JobID)
}

func TestDropConnection(t *testing.T) {
	t.Parallel()
	for name, newH := range map[string]func(*testing.T, ...fakeapi.Option) *harness{
		"hijacked":            newUncheckedHarness,
		"behind the contract": newHarness, // the recorder cannot be hijacked
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newH(t, fakeapi.WithFaults(fakeapi.FaultRule{Count: 1, Faults: []fakeapi.Fault{fakeapi.DropConnection()}}))
			if _, err := h.rawDo(http.MethodPost, "/v1/static-export/jobs"); err == nil {
				t.Fatal("a dropped connection answered")
			}
			reqs := h.fake.Requests()
			if len(reqs) != 1 || reqs[0].Status != 0 {
				t.Fatalf("recorded %+v, want one request with status 0", reqs)
			}
			if h.fake.ExportJobsStarted() != 0 {
				t.Error("a dropped start request created a job")
			}
			h.startJob(t, map[string]string{"domain": "docs.example.com"})
		})
	}
}

func TestBrokenBodiesComeAfterTheHandler(t *testing.T) {
	t.Parallel()
	h := newUncheckedHarness(t, fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStartRequest, Count: 2, Faults: []fakeapi.Fault{fakeapi.TruncatedBody(), fakeapi.MalformedBody()}}))

	// Truncated: the connection ends before the promised Content-Length.
	req, err := http.NewRequest(http.MethodPost, h.url+"/v1/static-export/jobs", strings.NewReader(`{"domain":"docs.example.com"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+fakeapi.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("truncated: status %d, %d bytes, err = %v; want 202 and an unexpected EOF", resp.StatusCode, len(body), err)
	}
	if cl, _ := strconv.Atoi(resp.Header.Get("Content-Length")); len(body) != cl/2 {
		t.Errorf("truncated: read %d of %d bytes, want half", len(body), cl)
	}

	// Malformed: a complete answer that is half a JSON object.
	r := h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, `{"domain":"docs.example.com"}`).wantStatus(t, http.StatusAccepted)
	if len(r.body) == 0 || r.body[len(r.body)-1] == '\n' {
		t.Errorf("malformed body = %q, want the first half of a JSON object", r.body)
	}
	// Both handlers ran: the jobs exist although their answers were lost.
	if n := h.fake.ExportJobsStarted(); n != 2 {
		t.Errorf("jobs started = %d, want 2", n)
	}
}

func TestSlowResponseMovesTheServerClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.SlowResponse(45 * time.Second)}}))
	// The fake clock does not advance on its own: advance it once the
	// handler sleeps.
	job := h.startJob(t, map[string]string{"domain": "docs.example.com"})
	done := make(chan response, 1)
	go func() {
		r, _ := h.rawDo(http.MethodGet, "/v1/static-export/jobs/"+job.JobID)
		done <- r
	}()
	for h.clock.Sleepers() == 0 {
		select {
		case r := <-done:
			t.Fatalf("answered without waiting: %d %s", r.status, r.body)
		default:
		}
	}
	h.clock.Advance(45 * time.Second)
	r := <-done
	if got := decode[fakeapi.JobJSON](t, r.wantStatus(t, http.StatusOK)); got.Status != fakeapi.StatusQueued {
		// The answer was computed before the wait, when the job was queued.
		t.Errorf("status = %q, want %q", got.Status, fakeapi.StatusQueued)
	}
}

// TestHangNeverAnswers: a hung request moves the server's clock and then
// holds the request, answering nothing, until its client gives up at its
// own deadline on the same clock.
func TestHangNeverAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.Hang(time.Hour)}}))
	job := h.startJob(t, map[string]string{"domain": "docs.example.com"})
	ctx, cancel := h.clock.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url+"/v1/static-export/jobs/"+job.JobID, nil)
		if err != nil {
			done <- err
			return
		}
		req.Header.Set("Authorization", "Bearer "+fakeapi.DefaultAPIKey)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			err = errors.New("answered " + resp.Status)
		}
		done <- err
	}()
	for h.clock.Sleepers() < 2 { // the client's deadline and the hang
		select {
		case err := <-done:
			t.Fatalf("the request ended before the clock moved: %v", err)
		default:
		}
	}
	h.clock.Advance(time.Hour)
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the request ended with %v, want the client's deadline and no answer", err)
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithLimits(fakeapi.LimitOptions{PerSecond: 5}))
	job := h.startJob(t, map[string]string{"domain": "docs.example.com"})
	for range 4 { // the bucket holds one second's worth: 5
		h.getJob(t, job.JobID)
	}
	r := h.do(t, http.MethodGet, "/v1/static-export/jobs/"+job.JobID, fakeapi.DefaultAPIKey, nil)
	r.wantError(t, http.StatusTooManyRequests, "Rate limit exceeded")
	if got := r.header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1 (a token every 200ms, rounded up)", got)
	}
	h.clock.Advance(200 * time.Millisecond) // one token
	h.getJob(t, job.JobID)
	h.do(t, http.MethodGet, "/v1/static-export/jobs/"+job.JobID, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusTooManyRequests)
	h.clock.Advance(time.Hour) // the bucket refills to 5, no more
	for range 5 {
		h.getJob(t, job.JobID)
	}
	h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, `{"domain":"docs.example.com"}`).wantStatus(t, http.StatusTooManyRequests)
	if got := h.fake.RateLimited(); got != 3 {
		t.Errorf("rate limited = %d, want 3", got)
	}
	if got := h.fake.ExportJobsStarted(); got != 1 {
		t.Errorf("jobs started = %d, want 1: a refused start creates nothing", got)
	}
}

func TestRequestMatchers(t *testing.T) {
	t.Parallel()
	matchers := map[string]func(*http.Request) bool{
		"start": fakeapi.IsStartRequest, "status": fakeapi.IsStatusRequest, "bundle": fakeapi.IsBundleRequest,
		"agent job": fakeapi.IsAgentJobRequest, "create agent job": fakeapi.IsCreateAgentJobRequest, "agent message": fakeapi.IsAgentMessageRequest,
	}
	tests := []struct{ method, path, want string }{
		{http.MethodPost, "/v1/static-export/jobs", "start"},
		{http.MethodGet, "/v1/static-export/jobs/se_1", "status"},
		{http.MethodPost, "/v1/static-export/jobs/se_1/bundle", "bundle"},
		{http.MethodGet, "/v2/agent/p/job/aj_1", "agent job"},
		{http.MethodPost, "/v2/agent/p/job", "create agent job"},
		{http.MethodPost, "/v2/agent/p/job/aj_1/message", "agent message"},
		{http.MethodGet, "/v2/agent/p/job", ""},
		{http.MethodPost, "/v2/agent//job", ""},
		{http.MethodGet, "/bundles/se_1/bundle.tar.gz", ""},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(tt.method, "http://fake"+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, m := range matchers {
			if got := m(req); got != (name == tt.want) {
				t.Errorf("%s %s: matcher %q = %v, want %v", tt.method, tt.path, name, got, name == tt.want)
			}
		}
	}
}
