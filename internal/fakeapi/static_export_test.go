package fakeapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// jobAt is the expected job state at an offset from the job's creation.
type jobAt struct {
	at        time.Duration
	status    string
	progress  float64
	pageCount int
	updatedAt time.Duration
	err       string
}

func TestJobLifecycle(t *testing.T) {
	tests := []struct {
		name  string
		plan  fakeapi.JobPlan
		body  map[string]any
		steps []jobAt
	}{
		{
			name: "default plan completes",
			plan: fakeapi.DefaultJobPlan(fakeapi.StartRequest{}),
			body: map[string]any{"domain": "docs.example.com"},
			steps: []jobAt{
				{at: 0, status: "queued"},
				{at: 1999 * time.Millisecond, status: "queued"},
				{at: 2 * time.Second, status: "running", updatedAt: 2 * time.Second},
				{at: 7 * time.Second, status: "running", progress: 25, pageCount: 10, updatedAt: 7 * time.Second},
				// 50.05% rounds down to the 50.0% step, reached at 12s.
				{at: 12*time.Second + 10*time.Millisecond, status: "running", progress: 50, pageCount: 21, updatedAt: 12 * time.Second},
				{at: 12*time.Second + 20*time.Millisecond, status: "running", progress: 50.1, pageCount: 21, updatedAt: 12*time.Second + 20*time.Millisecond},
				{at: 22 * time.Second, status: "completed", progress: 100, pageCount: 42, updatedAt: 22 * time.Second},
				{at: time.Hour, status: "completed", progress: 100, pageCount: 42, updatedAt: 22 * time.Second},
			},
		},
		{
			name: "pages default to the requested paths",
			plan: fakeapi.JobPlan{RunFor: 10 * time.Second},
			body: map[string]any{"domain": "docs.example.com", "paths": []string{"index", "a", "b", "c"}},
			steps: []jobAt{
				{at: 0, status: "running"},
				{at: 5 * time.Second, status: "running", progress: 50, pageCount: 2, updatedAt: 5 * time.Second},
				{at: 10 * time.Second, status: "completed", progress: 100, pageCount: 4, updatedAt: 10 * time.Second},
			},
		},
		{
			name: "failure stops at 60 percent",
			plan: fakeapi.JobPlan{QueueFor: time.Second, RunFor: 10 * time.Second, Pages: 10, FailWith: "Page guides/broken could not be rendered"},
			body: map[string]any{"domain": "docs.example.com"},
			steps: []jobAt{
				{at: 0, status: "queued"},
				{at: 6 * time.Second, status: "running", progress: 30, pageCount: 3, updatedAt: 6 * time.Second},
				{at: 11 * time.Second, status: "failed", progress: 60, pageCount: 6, updatedAt: 11 * time.Second, err: "Page guides/broken could not be rendered"},
				{at: 24 * time.Hour, status: "failed", progress: 60, pageCount: 6, updatedAt: 11 * time.Second, err: "Page guides/broken could not be rendered"},
			},
		},
		{
			name: "failure at a chosen progress",
			plan: fakeapi.JobPlan{RunFor: 4 * time.Second, Pages: 200, FailWith: "boom", FailAtProgress: 25.5},
			body: map[string]any{"domain": "docs.example.com"},
			steps: []jobAt{
				{at: 4 * time.Second, status: "failed", progress: 25.5, pageCount: 51, updatedAt: 4 * time.Second, err: "boom"},
			},
		},
		{
			name: "never finishes",
			plan: fakeapi.JobPlan{Never: true},
			body: map[string]any{"domain": "docs.example.com"},
			steps: []jobAt{
				{at: 0, status: "running", progress: 10, pageCount: 4},
				{at: 24 * time.Hour, status: "running", progress: 10, pageCount: 4},
			},
		},
		{
			name: "never finishes after rising to 10 percent",
			plan: fakeapi.JobPlan{QueueFor: time.Second, RunFor: 10 * time.Second, Never: true},
			body: map[string]any{"domain": "docs.example.com"},
			steps: []jobAt{
				{at: 6 * time.Second, status: "running", progress: 5, pageCount: 2, updatedAt: 6 * time.Second},
				{at: time.Hour, status: "running", progress: 10, pageCount: 4, updatedAt: 11 * time.Second},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return tt.plan }}))
			started := h.startJob(t, tt.body)
			if started.CreatedAt != ts(0) {
				t.Errorf("createdAt = %s, want %s", started.CreatedAt, ts(0))
			}
			for _, step := range tt.steps {
				h.clock.Set(testStart.Add(step.at))
				got := h.getJob(t, started.JobID)
				want := fakeapi.JobJSON{
					JobID:     started.JobID,
					Status:    step.status,
					Progress:  step.progress,
					PageCount: step.pageCount,
					CreatedAt: ts(0),
					UpdatedAt: ts(step.updatedAt),
					Error:     step.err,
				}
				if got != want {
					t.Errorf("at +%v:\n got %+v\nwant %+v", step.at, got, want)
				}
			}
		})
	}
}

func TestStartJobResponse(t *testing.T) {
	h := newHarness(t)
	r := h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, map[string]any{"domain": "docs.example.com"})
	r.wantStatus(t, http.StatusAccepted)
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if strings.Contains(string(r.body), `"error"`) {
		t.Errorf("a job that has not failed must omit error: %s", r.body)
	}
	job := decode[fakeapi.JobJSON](t, r)
	if !regexp.MustCompile(`^se_[0-9a-f]{16}$`).MatchString(job.JobID) {
		t.Errorf("jobId = %q, want se_ and 16 hex digits", job.JobID)
	}
	if second := h.startJob(t, map[string]any{"domain": "docs.example.com"}); second.JobID == job.JobID {
		t.Errorf("two jobs share the id %s", job.JobID)
	}
}

func TestJobPlanSeesRequest(t *testing.T) {
	var got []fakeapi.StartRequest
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(req fakeapi.StartRequest) fakeapi.JobPlan {
		got = append(got, req) // requests are sequential here
		return fakeapi.JobPlan{}
	}}))
	h.startJob(t, map[string]any{"domain": "docs.example.com", "version": "2024-06-01", "paths": []string{"index", "guides/x"}})
	want := fakeapi.StartRequest{Domain: "docs.example.com", Version: "2024-06-01", Paths: []string{"index", "guides/x"}}
	if len(got) != 1 || got[0].Domain != want.Domain || got[0].Version != want.Version || strings.Join(got[0].Paths, ",") != "index,guides/x" {
		t.Errorf("plan saw %+v, want %+v", got, want)
	}
}

func TestStartJobValidation(t *testing.T) {
	const hint = "domain must be a bare hostname such as docs.example.com: "
	tests := []struct {
		name    string
		body    any
		message string
	}{
		{"empty body", "", `request body is required: send a JSON object such as {"domain": "docs.example.com"}`},
		{"not JSON", `{"domain":`, "request body is not valid JSON: unexpected EOF"},
		{"array", `["docs.example.com"]`, "request body must be a JSON object"},
		{"two objects", `{"domain":"docs.example.com"} {}`, "request body must contain a single JSON object"},
		{"missing domain", map[string]any{}, "domain is required: provide the hostname of the deployment, such as docs.example.com"},
		{"null domain", `{"domain":null}`, "domain is required: provide the hostname of the deployment, such as docs.example.com"},
		{"domain not a string", map[string]any{"domain": 7}, "domain must be a string"},
		{"version not a string", map[string]any{"domain": "docs.example.com", "version": 1}, "version must be a string"},
		{"paths not strings", map[string]any{"domain": "docs.example.com", "paths": []int{1}}, "paths must be an array of strings"},
		{"scheme", map[string]any{"domain": "https://docs.example.com"}, hint + `remove the scheme "https://"`},
		{"trailing slash", map[string]any{"domain": "docs.example.com/"}, hint + "remove the trailing slash"},
		{"path", map[string]any{"domain": "example.com/docs"}, hint + `remove the path "/docs"`},
		{"port", map[string]any{"domain": "docs.example.com:8443"}, hint + `remove the port ":8443"`},
		{"spaces", map[string]any{"domain": "docs example.com"}, hint + `remove the spaces from "docs example.com"`},
		{"uppercase", map[string]any{"domain": "Docs.Example.com"}, hint + `use lowercase letters ("docs.example.com")`},
		{"underscore", map[string]any{"domain": "my_docs.example.com"}, hint + `it contains the invalid character '_'`},
		{"empty label", map[string]any{"domain": "docs..example.com"}, hint + "it must not start or end with a dot or contain two dots in a row"},
		{"hyphen label", map[string]any{"domain": "-docs.example.com"}, hint + `the label "-docs" must not start or end with a hyphen`},
		{"long label", map[string]any{"domain": strings.Repeat("a", 64) + ".com"}, hint + `the label "` + strings.Repeat("a", 64) + `" is longer than 63 characters`},
		{"empty path", map[string]any{"domain": "docs.example.com", "paths": []string{"index", ""}}, "paths[1] must not be empty"},
		{"leading slash", map[string]any{"domain": "docs.example.com", "paths": []string{"/guides/x"}}, `paths[0] must be a page path without a leading slash: use "guides/x" instead of "/guides/x"`},
		{"dot segment", map[string]any{"domain": "docs.example.com", "paths": []string{"guides/../x"}}, `paths[0] must not contain "." or ".." segments: "guides/../x"`},
	}
	h := newHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, tt.body).wantError(t, http.StatusBadRequest, tt.message)
		})
	}
	if n := h.fake.ExportJobsStarted(); n != 0 {
		t.Errorf("ExportJobsStarted = %d after only bad requests", n)
	}
}

func TestStartJobAcceptsValidBodies(t *testing.T) {
	tests := []struct {
		name string
		body any
	}{
		{"subdomain", map[string]any{"domain": "acme.mintlify.app"}},
		{"single label", map[string]any{"domain": "localhost"}},
		{"hyphens and digits", map[string]any{"domain": "docs-2.example-1.com"}},
		{"empty paths", map[string]any{"domain": "docs.example.com", "paths": []string{}}},
		{"unknown fields ignored", map[string]any{"domain": "docs.example.com", "extra": true}},
	}
	h := newHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.startJob(t, tt.body)
		})
	}
}

func TestJobNotFound(t *testing.T) {
	tests := []struct {
		name, path, message string
	}{
		{"unknown id", "se_0000000000000000", `No static export job with ID "se_0000000000000000"`},
		{"escaped slash stays one segment", "a%2Fb", `No static export job with ID "a/b"`},
		{"escaped space", "a%20b", `No static export job with ID "a b"`},
	}
	h := newHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.do(t, http.MethodGet, "/v1/static-export/jobs/"+tt.path, fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusNotFound, tt.message)
			h.do(t, http.MethodPost, "/v1/static-export/jobs/"+tt.path+"/bundle", fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusNotFound, tt.message)
		})
	}
}

func TestStaticExportDisabled(t *testing.T) {
	// The feature switch applies to every static export operation (the
	// vendor documents its 403 for the start only; a 403 on any call passes
	// the contract check, as the key's limits may send one).
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Disabled: true}))
	h.fake.SeedDemo()
	tests := []struct{ method, path string }{
		{http.MethodPost, "/v1/static-export/jobs"},
		{http.MethodGet, "/v1/static-export/jobs/se_0000000000000000"},
		{http.MethodPost, "/v1/static-export/jobs/se_0000000000000000/bundle"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			h.do(t, tt.method, tt.path, fakeapi.DefaultAPIKey, map[string]any{"domain": "docs.example.com"}).wantError(t, http.StatusForbidden, fakeapi.DisabledMessage)
			h.do(t, tt.method, tt.path, noKey, nil).wantError(t, http.StatusUnauthorized, "Invalid or missing API key")
		})
	}
	h.do(t, http.MethodGet, "/v2/agent/proj_demo/job/aj_demo_0001", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
	if n := h.fake.ExportJobsStarted(); n != 0 {
		t.Errorf("ExportJobsStarted = %d with static export disabled", n)
	}
}

func TestBundleConflicts(t *testing.T) {
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: planByDomain}))
	done := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	failed := h.startJob(t, map[string]any{"domain": "fail.example.com"})
	tests := []struct {
		name    string
		at      time.Duration
		id      string
		message string
	}{
		{"queued", 0, done.JobID, `Static export job "` + done.JobID + `" is queued (0.0% done); wait until its status is completed before generating a bundle.`},
		{"running", 7 * time.Second, done.JobID, `Static export job "` + done.JobID + `" is running (25.0% done); wait until its status is completed before generating a bundle.`},
		{"failed", 11 * time.Second, failed.JobID, `Static export job "` + failed.JobID + `" failed, so it has no bundle: Page guides/broken could not be rendered. Start a new export job.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.clock.Set(testStart.Add(tt.at))
			h.do(t, http.MethodPost, "/v1/static-export/jobs/"+tt.id+"/bundle", fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusConflict, tt.message)
		})
	}
	if n := h.fake.BundlesGenerated(); n != 0 {
		t.Errorf("BundlesGenerated = %d after only conflicts", n)
	}
	h.clock.Set(testStart.Add(22 * time.Second))
	h.bundle(t, done.JobID)
	if n := h.fake.BundlesGenerated(); n != 1 {
		t.Errorf("BundlesGenerated = %d, want 1", n)
	}
}
