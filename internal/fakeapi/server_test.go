package fakeapi_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

func TestAuthentication(t *testing.T) {
	const secret = "mint_custom_secret_key"
	h := newHarness(t, fakeapi.WithKeys(fakeapi.KeyOptions{APIKey: secret}))
	h.fake.SeedDemo()
	routes := []struct{ method, path string }{
		{http.MethodPost, "/v1/static-export/jobs"},
		{http.MethodGet, "/v1/static-export/jobs/se_0000000000000000"},
		{http.MethodPost, "/v1/static-export/jobs/se_0000000000000000/bundle"},
		{http.MethodGet, "/v2/agent/proj_demo/job/aj_demo_0001"},
		{http.MethodPost, "/v2/agent/proj_demo/job"},
		{http.MethodPost, "/v2/agent/proj_demo/job/aj_demo_0001/message"},
	}
	headers := []struct{ name, value string }{
		{"missing", ""},
		{"wrong key", "Bearer mint_wrong_key_that_must_not_echo"},
		{"default key", "Bearer " + fakeapi.DefaultAPIKey},
		{"basic scheme", "Basic " + secret},
		{"empty bearer", "Bearer "},
		{"key without scheme", secret},
	}
	for _, rt := range routes {
		for _, hd := range headers {
			t.Run(rt.method+" "+rt.path+" "+hd.name, func(t *testing.T) {
				r := sendWithAuthorization(t, h.url, rt.method, rt.path, hd.value)
				r.wantError(t, http.StatusUnauthorized, "Invalid or missing API key")
				if key := strings.TrimPrefix(hd.value, "Bearer "); key != "" && strings.Contains(string(r.body), key) {
					t.Errorf("the body echoes the key: %s", r.body)
				}
			})
		}
		t.Run(rt.method+" "+rt.path+" lowercase scheme accepted", func(t *testing.T) {
			r := sendWithAuthorization(t, h.url, rt.method, rt.path, "bearer "+secret)
			if r.status == http.StatusUnauthorized {
				t.Errorf("status = 401 with a valid key")
			}
		})
	}
	for _, req := range h.fake.Requests() {
		if req.Authorized != (req.Status != http.StatusUnauthorized) {
			t.Errorf("%s %s: Authorized = %v with status %d", req.Method, req.Path, req.Authorized, req.Status)
		}
	}
}

func sendWithAuthorization(t *testing.T, base, method, path, authorization string) response {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(`{"domain":"docs.example.com"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	return send(t, req)
}

func TestRouting(t *testing.T) {
	tests := []struct {
		name, method, path string
		status             int
		message            string
		allow              string
	}{
		{"unknown route", http.MethodGet, "/v1/nope", http.StatusNotFound, "No route for GET /v1/nope", ""},
		{"root", http.MethodGet, "/", http.StatusNotFound, "No route for GET /", ""},
		{"trailing slash", http.MethodGet, "/v1/static-export/jobs/", http.StatusNotFound, "No route for GET /v1/static-export/jobs/", ""},
		{"agent job list is not served", http.MethodGet, "/v2/agent/proj_demo/job", http.StatusMethodNotAllowed, "Method GET is not allowed on /v2/agent/proj_demo/job; use POST", "POST"},
		{"get agent message", http.MethodGet, "/v2/agent/p/job/aj/message", http.StatusMethodNotAllowed, "Method GET is not allowed on /v2/agent/p/job/aj/message; use POST", "POST"},
		{"list jobs", http.MethodGet, "/v1/static-export/jobs", http.StatusMethodNotAllowed, "Method GET is not allowed on /v1/static-export/jobs; use POST", "POST"},
		{"delete job", http.MethodDelete, "/v1/static-export/jobs/se_1", http.StatusMethodNotAllowed, "Method DELETE is not allowed on /v1/static-export/jobs/se_1; use GET, HEAD", "GET, HEAD"},
		{"get bundle", http.MethodGet, "/v1/static-export/jobs/se_1/bundle", http.StatusMethodNotAllowed, "Method GET is not allowed on /v1/static-export/jobs/se_1/bundle; use POST", "POST"},
		{"post agent job", http.MethodPost, "/v2/agent/p/job/aj", http.StatusMethodNotAllowed, "Method POST is not allowed on /v2/agent/p/job/aj; use GET, HEAD", "GET, HEAD"},
	}
	h := newHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // the same answer every time
				r := h.do(t, tt.method, tt.path, fakeapi.DefaultAPIKey, nil)
				r.wantError(t, tt.status, tt.message)
				if got := r.header.Get("Allow"); got != tt.allow {
					t.Errorf("Allow = %q, want %q", got, tt.allow)
				}
			}
		})
	}
	t.Run("download with a wrong method", func(t *testing.T) {
		r := h.do(t, http.MethodPut, "/bundles/se_1/bundle.tar.gz", noKey, nil)
		wantS3Error(t, r, http.StatusMethodNotAllowed, "MethodNotAllowed", "Method PUT is not allowed on /bundles/se_1/bundle.tar.gz; use GET, HEAD")
	})
}

func TestServeHTTPDirectly(t *testing.T) {
	s := fakeapi.New(fakeapi.WithClock(clock.NewFake(testStart, false)))
	s.SeedDemo()
	req := httptest.NewRequest(http.MethodGet, "/v2/agent/proj_demo/job/aj_demo_0001", nil)
	req.Body = nil
	req.Header.Set("Authorization", "Bearer "+fakeapi.DefaultAPIKey)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("status = %d, want 200; body: %s", rec.Code, rec.Body)
	}
}

func TestRequestBodyLimit(t *testing.T) {
	h := newUncheckedHarness(t)
	big := `{"domain":"docs.example.com","version":"` + strings.Repeat("x", fakeapi.MaxBodyBytes) + `"}`
	h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, big).wantError(t, http.StatusRequestEntityTooLarge, "Request body exceeds 1048576 bytes")
}

func TestInspection(t *testing.T) {
	h := newHarness(t)
	first := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	h.do(t, http.MethodGet, "/v1/static-export/jobs/"+first.JobID, noKey, nil)
	h.clock.Advance(time.Minute)
	h.bundle(t, first.JobID)
	second := h.startJob(t, map[string]any{"domain": "docs.example.com"})

	reqs := h.fake.Requests()
	want := []fakeapi.Request{
		{Method: "POST", Path: "/v1/static-export/jobs", Authorized: true, UserAgent: "fakeapi-test/1.0", Body: []byte(`{"domain":"docs.example.com"}`), Status: 202},
		{Method: "GET", Path: "/v1/static-export/jobs/" + first.JobID, UserAgent: "fakeapi-test/1.0", Body: []byte{}, Status: 401},
		{Method: "POST", Path: "/v1/static-export/jobs/" + first.JobID + "/bundle", Authorized: true, UserAgent: "fakeapi-test/1.0", Body: []byte{}, Status: 200},
		{Method: "POST", Path: "/v1/static-export/jobs", Authorized: true, UserAgent: "fakeapi-test/1.0", Body: []byte(`{"domain":"docs.example.com"}`), Status: 202},
	}
	if !slices.EqualFunc(reqs, want, equalRequest) {
		t.Errorf("Requests() =\n%+v\nwant\n%+v", reqs, want)
	}
	// Each request records when it arrived, on the server's clock, and
	// the JSON answer it got.
	for i, at := range []time.Time{testStart, testStart, testStart.Add(time.Minute), testStart.Add(time.Minute)} {
		if !reqs[i].At.Equal(at) {
			t.Errorf("request %d: At = %s, want %s", i, reqs[i].At, at)
		}
	}
	for i, want := range []string{`"jobId":"` + first.JobID + `"`, `"error":"Invalid or missing API key"`, `"bundleUrl":`, `"jobId":"` + second.JobID + `"`} {
		if !strings.Contains(string(reqs[i].Response), want) {
			t.Errorf("request %d: Response = %s, want it to hold %s", i, reqs[i].Response, want)
		}
	}
	reqs[0].Body[0], reqs[0].Response[0] = 'X', 'X'
	if again := h.fake.Requests()[0]; again.Body[0] != '{' || again.Response[0] != '{' {
		t.Error("Requests() returned the recorded bodies themselves, not copies")
	}

	counts := []struct {
		method, prefix string
		want           int
	}{
		{http.MethodPost, "/v1/static-export/jobs", 3},
		{http.MethodGet, "/v1/static-export/jobs/", 1},
		{"", "/v1/", 4},
		{http.MethodDelete, "/", 0},
	}
	for _, c := range counts {
		if got := h.fake.Count(c.method, c.prefix); got != c.want {
			t.Errorf("Count(%q, %q) = %d, want %d", c.method, c.prefix, got, c.want)
		}
	}
	if got := h.fake.JobIDs(); !slices.Equal(got, []string{first.JobID, second.JobID}) {
		t.Errorf("JobIDs() = %v, want [%s %s]", got, first.JobID, second.JobID)
	}
	if h.fake.ExportJobsStarted() != 2 || h.fake.BundlesGenerated() != 1 {
		t.Errorf("ExportJobsStarted, BundlesGenerated = %d, %d; want 2, 1", h.fake.ExportJobsStarted(), h.fake.BundlesGenerated())
	}

	h.fake.Reset()
	if n := len(h.fake.Requests()); n != 0 {
		t.Errorf("%d requests after Reset", n)
	}
	if h.fake.ExportJobsStarted() != 2 || h.fake.BundlesGenerated() != 1 || len(h.fake.JobIDs()) != 2 {
		t.Error("Reset forgot jobs or counts")
	}
	h.getJob(t, second.JobID) // jobs survive Reset
}

func equalRequest(a, b fakeapi.Request) bool {
	return a.Method == b.Method && a.Path == b.Path && a.Authorized == b.Authorized &&
		a.UserAgent == b.UserAgent && string(a.Body) == string(b.Body) && a.Status == b.Status
}

func TestConcurrentUse(t *testing.T) {
	const workers = 32
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{RunFor: time.Second} }}))
	h.fake.SeedDemo()

	ids := make([]string, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			ids[i] = h.startJob(t, map[string]any{"domain": "docs.example.com"}).JobID
			h.getJob(t, ids[i])
			h.do(t, http.MethodGet, "/v2/agent/proj_demo/job/aj_demo_0001", fakeapi.DefaultAPIKey, nil)
		})
	}
	wg.Wait()
	h.clock.Advance(time.Second)
	for i := range workers {
		wg.Go(func() {
			b := h.bundle(t, ids[i])
			doURL(t, http.MethodGet, b.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
			_ = h.fake.Requests()
		})
	}
	wg.Wait()

	if got := h.fake.ExportJobsStarted(); got != workers {
		t.Errorf("ExportJobsStarted = %d, want %d", got, workers)
	}
	if got := h.fake.BundlesGenerated(); got != workers {
		t.Errorf("BundlesGenerated = %d, want %d", got, workers)
	}
	started := h.fake.JobIDs()
	slices.Sort(started)
	slices.Sort(ids)
	if !slices.Equal(started, ids) || len(slices.Compact(started)) != workers {
		t.Errorf("JobIDs() = %v, want the %d distinct ids returned", started, workers)
	}
	// Per worker: start, status, agent job, bundle, download.
	if got := h.fake.Count("", "/"); got != 5*workers {
		t.Errorf("recorded %d requests, want %d", got, 5*workers)
	}
}
