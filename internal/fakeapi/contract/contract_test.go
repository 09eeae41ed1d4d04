package contract_test

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
)

const (
	validJob        = `{"jobId":"se_1","status":"running","progress":1.5,"pageCount":1,"createdAt":"2024-06-01T12:00:00.000Z","updatedAt":"2024-06-01T12:00:00.000Z"}`
	validProjectJob = `{"jobId":"6520f3a1c9b1a20012ab34cd","status":"completed","createdAt":"2024-06-01T12:00:00.000Z","updatedAt":"2024-06-01T12:00:20.000Z","error":null,"bundleUrl":"https://s3.example.com/j/export.zip?X-Amz-Signature=1","sizeBytes":1024,"expiresAt":"2024-06-01T13:00:00.000Z"}`
	validAgentJob   = `{"id":"j","status":"active","source":{"repository":"https://github.com/acme/docs","ref":null},"model":"sonnet","prLink":null,"createdAt":"2024-06-01T12:00:00Z","archivedAt":null}`
)

// stub answers every request with the same status, content type and body.
func stub(status int, contentType, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
}

type response struct {
	status int
	header http.Header
	body   string
}

// do sends a request with a bearer key (the check leaves auth to the
// handler, so any key will do) and reads the whole response. It reports
// failures with t.Errorf so it may run on any goroutine.
func do(t testing.TB, method, url, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Errorf("new request %s %s: %v", method, url, err)
		return response{}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer mint_test_key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, url, err)
		return response{}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Errorf("read %s %s: %v", method, url, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(data)}
}

// TestCatchesViolations proves the check itself: a handler that breaks the
// spec in each way is caught, and a faithful one is not.
func TestCatchesViolations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, method, path, body string
		status                   int
		contentType, response    string
		wantViolation            bool
	}{
		{"valid job", "GET", "/v1/static-export/jobs/se_1", "", 200, "application/json", validJob, false},
		{"valid agent 404", "GET", "/v2/agent/p/job/j", "", 404, "application/json", `{"error":"Job not found"}`, false},
		{"valid 401", "GET", "/v2/agent/p/job/j", "", 401, "application/json", `{"error":"Invalid or missing API key"}`, false},
		{"valid 429", "GET", "/v2/agent/p/job/j", "", 429, "application/json", `{"error":"Slow down"}`, false},
		{"valid 403 of a key's limits", "GET", "/v1/static-export/jobs/se_1", "", 403, "application/json", `{"error":"Forbidden"}`, false},
		{"valid 403 of a read-only key", "POST", "/v2/agent/p/job/j/message", `{"prompt":"Also the API"}`, 403, "application/json", `{"error":"Forbidden"}`, false},
		{"plain-text 403", "GET", "/v2/agent/p/job/j", "", 403, "text/plain", "Forbidden", true},
		{"403 without a message", "POST", "/v1/static-export/jobs/se_1/bundle", "", 403, "application/json", `{"error":""}`, true},
		{"valid 503", "GET", "/v1/static-export/jobs/se_1", "", 503, "application/json", `{"error":"Try again"}`, false},
		{"missing required field", "GET", "/v1/static-export/jobs/se_1", "", 200, "application/json", `{"jobId":"se_1","status":"running","progress":1,"createdAt":"2024-06-01T12:00:00Z","updatedAt":"2024-06-01T12:00:00Z"}`, true},
		{"unknown status", "GET", "/v1/static-export/jobs/se_1", "", 200, "application/json", strings.Replace(validJob, "running", "done", 1), true},
		{"progress above 100", "GET", "/v1/static-export/jobs/se_1", "", 200, "application/json", strings.Replace(validJob, "1.5", "101", 1), true},
		{"bad date-time", "GET", "/v1/static-export/jobs/se_1", "", 200, "application/json", strings.Replace(validJob, "2024-06-01T12:00:00.000Z", "June 1st", 1), true},
		{"relative bundle URL", "POST", "/v1/static-export/jobs/se_1/bundle", "", 200, "application/json", `{"jobId":"se_1","bundleUrl":"/bundles/se_1","sizeBytes":1,"expiresAt":"2024-06-01T13:00:00Z"}`, true},
		{"wrong content type", "GET", "/v1/static-export/jobs/se_1", "", 200, "text/plain", validJob, true},
		{"undocumented status", "GET", "/v1/static-export/jobs/se_1", "", 418, "application/json", `{"error":"teapot"}`, true},
		{"plain-text 401", "GET", "/v2/agent/p/job/j", "", 401, "text/plain", "unauthorized", true},
		{"401 without a message", "GET", "/v2/agent/p/job/j", "", 401, "application/json", `{}`, true},
		{"503 not matching Error", "GET", "/v1/static-export/jobs/se_1", "", 503, "application/json", `{"error":7}`, true},
		{"invalid request accepted", "POST", "/v1/static-export/jobs", `{"version":"x"}`, 202, "application/json", validJob, true},
		{"invalid request rejected", "POST", "/v1/static-export/jobs", `{"version":"x"}`, 400, "application/json", `{"error":"domain is required"}`, false},
		{"unchecked download", "GET", "/bundles/se_1", "", 418, "application/zip", "PK", false},
		{"valid agent job created", "POST", "/v2/agent/p/job", `{"prompt":"Document the CLI"}`, 201, "application/json", validAgentJob, false},
		{"empty prompt accepted", "POST", "/v2/agent/p/job", `{"prompt":""}`, 201, "application/json", validAgentJob, true},
		{"empty prompt rejected", "POST", "/v2/agent/p/job", `{"prompt":""}`, 400, "application/json", `{"error":"prompt must not be empty"}`, false},
		{"valid follow-up", "POST", "/v2/agent/p/job/j/message", `{"prompt":"Also the API"}`, 200, "application/json", validAgentJob, false},
		{"unknown project", "POST", "/v2/agent/p/job", `{"prompt":"Document the CLI"}`, 404, "application/json", `{"error":"Project not found"}`, false},
		{"404 without a path parameter", "POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`, 404, "application/json", `{"error":"Not found"}`, true},
		{"unknown project, plain text", "POST", "/v2/agent/p/job", `{"prompt":"Document the CLI"}`, 404, "text/plain", "not found", true},
		{"follow-up rate limited", "POST", "/v2/agent/p/job/j/message", `{"prompt":"Also the API"}`, 429, "application/json", `{"error":"Rate limit exceeded"}`, false},
		{"next: valid job", "GET", "/v1/static-export/p1/jobs/6520f3a1c9b1a20012ab34cd", "", 200, "application/json", validProjectJob, false},
		{"next: progress is not the next contract's", "GET", "/v1/static-export/p1/jobs/j", "", 200, "application/json", strings.Replace(validProjectJob, `"error":null`, `"error":null,"progress":"x"`, 1), false},
		{"next: relative link", "GET", "/v1/static-export/p1/jobs/j", "", 200, "application/json", strings.Replace(validProjectJob, "https://s3.example.com/j/export.zip?X-Amz-Signature=1", "/exports/j", 1), true},
		{"next: 409 of an active job", "POST", "/v1/static-export/p1/jobs", `{"basePath":"/docs"}`, 409, "application/json", `{"error":"A job is in progress","code":"export_in_progress"}`, false},
		{"next: 400 of a later revision", "POST", "/v1/static-export/p1/jobs", `{"basePath":"/x"}`, 400, "application/json", `{"error":"Unsupported basePath"}`, false},
		{"next: 400 as plain text", "POST", "/v1/static-export/p1/jobs", `{"basePath":"/x"}`, 400, "text/plain", "bad", true},
		{"next: plain-text 429", "POST", "/v1/static-export/p1/jobs", "", 429, "text/plain; charset=utf-8", "Too Many Requests\n", false},
		{"next: empty plain-text 429", "POST", "/v1/static-export/p1/jobs", "", 429, "text/plain", "", true},
		{"next: 410 is not documented", "GET", "/v1/static-export/p1/jobs/j", "", 410, "application/json", `{"error":"Gone"}`, true},
		{"unknown agent status", "GET", "/v2/agent/p/job/j", "", 200, "application/json", strings.Replace(validAgentJob, "active", "running", 1), true},
		{"relative PR link", "GET", "/v2/agent/p/job/j", "", 200, "application/json", strings.Replace(validAgentJob, `"prLink":null`, `"prLink":"/pull/1"`, 1), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := contract.New(t)
			url := c.Serve(t, stub(tt.status, tt.contentType, tt.response))
			resp := do(t, tt.method, url+tt.path, tt.body)
			if resp.status != tt.status || resp.body != tt.response || resp.header.Get("Content-Type") != tt.contentType {
				t.Errorf("response = %d %q %q, want the handler's %d %q %q", resp.status, resp.header.Get("Content-Type"), resp.body, tt.status, tt.contentType, tt.response)
			}
			got := c.Violations()
			if tt.wantViolation != (len(got) > 0) {
				t.Errorf("violations = %q, want some: %v", got, tt.wantViolation)
			}
		})
	}
}

// TestCovered proves only valid exchanges with API routes count as
// coverage, keyed by operation with sorted statuses.
func TestCovered(t *testing.T) {
	t.Parallel()
	c := contract.New(t)
	ok := c.Serve(t, stub(200, "application/json", validJob))
	missing := c.Serve(t, stub(404, "application/json", `{"error":"Job not found"}`))
	broken := c.Serve(t, stub(200, "application/json", `{}`))
	do(t, "GET", missing+"/v1/static-export/jobs/se_1", "")
	do(t, "GET", ok+"/v1/static-export/jobs/se_1", "")
	do(t, "GET", ok+"/v1/static-export/jobs/se_2", "")
	do(t, "GET", missing+"/v2/agent/p/job/j", "")
	do(t, "GET", broken+"/v1/static-export/jobs/se_1/bundle", "") // wrong method: not an API route
	do(t, "POST", broken+"/v1/static-export/jobs/se_1/bundle", "")
	do(t, "GET", ok+"/bundles/se_1", "")

	want := map[string][]int{
		"GET /v1/static-export/jobs/{jobId}": {200, 404},
		"GET /v2/agent/{projectId}/job/{id}": {404},
	}
	got := c.Covered()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Covered() = %v, want %v", got, want)
	}
	if v := c.Violations(); len(v) != 1 || !strings.HasPrefix(v[0], "POST /v1/static-export/jobs/{jobId}/bundle ") {
		t.Errorf("Violations() = %q, want one for the bundle", v)
	}
}

// TestHandlerSeesRequest proves the check hands the handler the request
// unchanged, body included, and the client the handler's response.
func TestHandlerSeesRequest(t *testing.T) {
	t.Parallel()
	const body = `{"domain":"docs.example.com","paths":["index"]}`
	var got string
	url := contract.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		got = r.Method + " " + r.URL.Path + " " + r.Header.Get("Authorization") + " " + string(data)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req_1")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, strings.Replace(validJob, "running", "queued", 1))
	}))
	resp := do(t, "POST", url+"/v1/static-export/jobs", body)
	if want := "POST /v1/static-export/jobs Bearer mint_test_key " + body; got != want {
		t.Errorf("handler saw %q, want %q", got, want)
	}
	if resp.status != http.StatusAccepted || resp.header.Get("X-Request-Id") != "req_1" || !strings.Contains(resp.body, `"queued"`) {
		t.Errorf("client got %d %v %s", resp.status, resp.header, resp.body)
	}
	if strings.HasSuffix(url, "/") {
		t.Errorf("Serve returned %q, with a trailing slash", url)
	}
}

// TestConcurrent drives many parallel exchanges through one checker and
// several servers; run with -race.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	c := contract.New(t)
	good := c.Serve(t, stub(200, "application/json", validJob))
	bad := c.Serve(t, stub(418, "application/json", `{"error":"teapot"}`))
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			do(t, "GET", fmt.Sprintf("%s/v1/static-export/jobs/se_%d", good, i), "")
			if i%4 == 0 {
				do(t, "GET", fmt.Sprintf("%s/v2/agent/p/job/j%d", bad, i), "")
			}
			_ = c.Covered()
			_ = c.Violations()
		})
	}
	wg.Wait()
	if got := c.Covered()["GET /v1/static-export/jobs/{jobId}"]; !slices.Equal(got, []int{200}) {
		t.Errorf("covered = %v, want [200]", got)
	}
	if got := len(c.Violations()); got != n/4 {
		t.Errorf("%d violations, want %d", got, n/4)
	}
}

// fakeTB records what the contract package does to a test: cleanups,
// errors and fatal failures. Everything else goes to the real test.
type fakeTB struct {
	testing.TB
	mu       sync.Mutex
	cleanups []func()
	errors   []string
	fatal    string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.fatal = fmt.Sprintf(format, args...)
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeTB) recorded() (errors []string, fatal string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.errors), f.fatal
}

// runCleanups runs the cleanups last registered first, as testing does.
func (f *fakeTB) runCleanups() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

// run calls fn(f) on its own goroutine, as a test body, so Fatalf can end it.
func (f *fakeTB) run(fn func(testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
}

// TestServeFailsAtCleanup proves Serve reports violations through the test,
// only once the test's cleanups run, after the server has closed.
func TestServeFailsAtCleanup(t *testing.T) {
	t.Parallel()
	ft := &fakeTB{TB: t}
	var url string
	ft.run(func(tb testing.TB) {
		url = contract.Serve(tb, stub(418, "application/json", `{"error":"teapot"}`))
		do(t, "GET", url+"/v1/static-export/jobs/se_1", "")
		do(t, "GET", url+"/bundles/se_1", "")
	})
	if errs, fatal := ft.recorded(); len(errs) > 0 || fatal != "" {
		t.Fatalf("before cleanup: errors %q, fatal %q; want none", errs, fatal)
	}
	ft.runCleanups()
	errs, _ := ft.recorded()
	if len(errs) != 1 || !strings.Contains(errs[0], "contract violation: GET /v1/static-export/jobs/{jobId}") || !strings.Contains(errs[0], "status 418 is not documented") {
		t.Errorf("after cleanup: errors %q, want one violation for the undocumented 418", errs)
	}
	if resp, err := http.Get(url + "/bundles/se_1"); err == nil {
		resp.Body.Close()
		t.Errorf("server still answers after cleanup")
	}
}

// TestServeQuietWhenFaithful proves Serve does not fail a test whose
// exchanges all honour the spec.
func TestServeQuietWhenFaithful(t *testing.T) {
	t.Parallel()
	ft := &fakeTB{TB: t}
	ft.run(func(tb testing.TB) {
		url := contract.Serve(tb, stub(200, "application/json", validJob))
		do(t, "GET", url+"/v1/static-export/jobs/se_1", "")
	})
	ft.runCleanups()
	if errs, fatal := ft.recorded(); len(errs) > 0 || fatal != "" {
		t.Errorf("errors %q, fatal %q; want none", errs, fatal)
	}
}

// TestDescription proves the embedded description parses, describes the
// operations the provider uses, and is handed out as a fresh copy each time.
func TestDescription(t *testing.T) {
	t.Parallel()
	doc, err := contract.Description()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			got = append(got, method+" "+path)
		}
	}
	slices.Sort(got)
	want := []string{
		"GET /v1/project/update-status/{statusId}",
		"GET /v1/static-export/jobs/{jobId}",
		"GET /v1/static-export/{projectId}/jobs/{jobId}",
		"GET /v2/agent/{projectId}/job/{id}",
		"POST /v1/project/preview/{projectId}",
		"POST /v1/project/update/{projectId}",
		"POST /v1/static-export/jobs",
		"POST /v1/static-export/jobs/{jobId}/bundle",
		"POST /v1/static-export/{projectId}/jobs",
		"POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger",
		"POST /v2/agent/{projectId}/job",
		"POST /v2/agent/{projectId}/job/{id}/message",
	}
	if !slices.Equal(got, want) {
		t.Errorf("operations = %q, want %q", got, want)
	}
	doc.Paths.Delete("/v1/static-export/jobs")
	again, err := contract.Description()
	if err != nil {
		t.Fatal(err)
	}
	if again.Paths.Find("/v1/static-export/jobs") == nil {
		t.Error("a change to one copy reached the next")
	}
}
