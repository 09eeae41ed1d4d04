package fakeapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// The vendor specs live beside the checkout, in ../shared/api; this package
// is two levels below the module root.
var specDir = filepath.Join("..", "..", "..", "shared", "api")

// specFile is one vendor spec and where its server is mounted relative to
// the fake's base URL.
type specFile struct {
	name       string
	serverPath string
}

var (
	staticExportSpec = specFile{name: "static-export-openapi.json", serverPath: "/v1"}
	adminSpec        = specFile{name: "admin-openapi.json", serverPath: ""}
	specFiles        = []specFile{staticExportSpec, adminSpec}
)

// operation names one spec operation the fake implements.
type operation struct {
	spec         specFile
	method, path string
}

func (o operation) String() string {
	return fmt.Sprintf("%s %s%s", o.method, o.spec.serverPath, o.path)
}

// fakeOperations are the operations the fake serves; TestContract proves
// each documented status of each is produced and valid.
var fakeOperations = []operation{
	{staticExportSpec, http.MethodPost, "/static-export/jobs"},
	{staticExportSpec, http.MethodGet, "/static-export/jobs/{jobId}"},
	{staticExportSpec, http.MethodPost, "/static-export/jobs/{jobId}/bundle"},
	{adminSpec, http.MethodGet, "/v2/agent/{projectId}/job/{id}"},
}

// loadSpec loads and validates one vendor spec, with its servers replaced
// by the fake's base URL. A missing spec fails the test: the contract is
// the point of these tests, so they never skip.
func loadSpec(t *testing.T, f specFile, baseURL string) *openapi3.T {
	t.Helper()
	path := filepath.Join(specDir, f.name)
	if _, err := os.Stat(path); err != nil {
		abs, _ := filepath.Abs(path)
		t.Fatalf("vendor OpenAPI spec %s is missing (looked at %s): %v; the contract tests need ../shared/api beside the checkout", f.name, abs, err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		t.Fatalf("load OpenAPI spec %s: %v", path, err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("OpenAPI spec %s is invalid: %v", path, err)
	}
	doc.Servers = openapi3.Servers{{URL: baseURL + f.serverPath}}
	doc.SetStringFormatValidator("uri", openapi3.NewCallbackValidator(validateAbsoluteURI))
	return doc
}

func validateAbsoluteURI(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URI", s)
	}
	return nil
}

// contract checks every exchange with the fake against the vendor specs.
// Handlers only record; the test goroutine asserts.
type contract struct {
	mu         sync.Mutex
	violations []string
	covered    map[string]map[int]bool // operation -> statuses seen and valid
}

func newContract() *contract {
	return &contract{covered: make(map[string]map[int]bool)}
}

// serve starts an HTTP server for h behind the contract check and returns
// its base URL. The server is closed at cleanup.
func (c *contract) serve(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	baseURL := "http://" + srv.Listener.Addr().String()
	var rts []routers.Router
	for _, f := range specFiles {
		rt, err := gorillamux.NewRouter(loadSpec(t, f, baseURL))
		if err != nil {
			t.Fatalf("route OpenAPI spec %s: %v", f.name, err)
		}
		rts = append(rts, rt)
	}
	srv.Config.Handler = c.middleware(rts, h)
	srv.Start()
	t.Cleanup(srv.Close)
	return baseURL
}

// middleware validates each request to a spec route and the fake's
// response to it. Other requests (downloads, unknown routes) pass through.
func (c *contract) middleware(rts []routers.Router, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params := findRoute(rts, r)
		if route == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			c.violate("%s %s: read request body: %v", r.Method, r.URL, err)
		}
		in := requestInput(r, body, route, params)
		reqErr := openapi3filter.ValidateRequest(r.Context(), in)

		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		c.check(in, reqErr, rec)

		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

func findRoute(rts []routers.Router, r *http.Request) (*routers.Route, map[string]string) {
	for _, rt := range rts {
		if route, params, err := rt.FindRoute(r); err == nil {
			return route, params
		}
	}
	return nil, nil
}

// requestInput builds the validation input for r, on a copy of the request
// so the fake still gets the body.
func requestInput(r *http.Request, body []byte, route *routers.Route, params map[string]string) *openapi3filter.RequestValidationInput {
	req := r.Clone(context.WithoutCancel(r.Context()))
	req.Body = io.NopCloser(bytes.NewReader(body))
	return &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options:    validationOptions(route.Spec),
	}
}

func validationOptions(doc *openapi3.T) *openapi3filter.Options {
	return &openapi3filter.Options{
		// Auth is the fake's own job; the spec only says a bearer key exists.
		AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
		IncludeResponseStatus:   true,
		MultiError:              true,
		SchemaValidationOptions: doc.GetSchemaValidationOptions(),
	}
}

// check records whether one exchange honours the spec.
func (c *contract) check(in *openapi3filter.RequestValidationInput, reqErr error, rec *httptest.ResponseRecorder) {
	route, status := in.Route, rec.Code
	op := operationKey(route)
	var problem error
	switch {
	case reqErr != nil && status < 400:
		problem = fmt.Errorf("the spec rejects the request (%v) but the fake accepted it", reqErr)
	case route.Operation.Responses.Status(status) != nil:
		problem = openapi3filter.ValidateResponse(in.Request.Context(), &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 status,
			Header:                 rec.Header(),
			Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
			Options:                in.Options,
		})
	case status == http.StatusUnauthorized || status == http.StatusTooManyRequests || status >= 500:
		problem = checkErrorBody(route.Spec, rec)
	default:
		problem = fmt.Errorf("status %d is not documented for this operation", status)
	}
	if problem != nil {
		c.violate("%s (%s %s) answered %d %s: %v", op, in.Request.Method, in.Request.URL.Path, status, rec.Body.Bytes(), problem)
		return
	}
	c.cover(op, status)
}

// checkErrorBody checks a response whose status the operation does not
// list (but the API may send anyway): a JSON body matching the spec's Error
// schema, with a non-empty message.
func checkErrorBody(doc *openapi3.T, rec *httptest.ResponseRecorder) error {
	mediaType, _, err := mime.ParseMediaType(rec.Header().Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return fmt.Errorf("content type %q is not application/json", rec.Header().Get("Content-Type"))
	}
	var body any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		return fmt.Errorf("body is not JSON: %w", err)
	}
	schema := doc.Components.Schemas["Error"]
	if schema == nil || schema.Value == nil {
		return errors.New("the spec has no Error schema")
	}
	if err := schema.Value.VisitJSON(body, doc.GetSchemaValidationOptions()...); err != nil {
		return fmt.Errorf("body does not match the Error schema: %w", err)
	}
	if obj, _ := body.(map[string]any); obj["error"] == nil || obj["error"] == "" {
		return errors.New(`body has no "error" message`)
	}
	return nil
}

func operationKey(route *routers.Route) string {
	base := ""
	if len(route.Spec.Servers) > 0 {
		if u, err := url.Parse(route.Spec.Servers[0].URL); err == nil {
			base = u.Path
		}
	}
	return route.Method + " " + base + route.Path
}

func (c *contract) violate(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.violations = append(c.violations, fmt.Sprintf(format, args...))
}

func (c *contract) cover(op string, status int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.covered[op] == nil {
		c.covered[op] = make(map[int]bool)
	}
	c.covered[op][status] = true
}

// assertNoViolations fails t with every recorded violation.
func (c *contract) assertNoViolations(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, v := range c.violations {
		t.Errorf("contract violation: %s", v)
	}
}

// missingCoverage lists the documented statuses (plus 401, which the
// global bearerAuth security implies) of the fake's operations that no
// exchange produced.
func (c *contract) missingCoverage(t *testing.T) []string {
	t.Helper()
	docs := make(map[string]*openapi3.T)
	for _, f := range specFiles {
		docs[f.name] = loadSpec(t, f, "http://fake.invalid")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var missing []string
	for _, op := range fakeOperations {
		specOp := docs[op.spec.name].Paths.Find(op.path).GetOperation(op.method)
		if specOp == nil {
			t.Fatalf("%s is not in %s", op, op.spec.name)
		}
		want := []int{http.StatusUnauthorized}
		for code := range specOp.Responses.Map() {
			n, err := strconv.Atoi(code)
			if err != nil {
				t.Fatalf("%s: unexpected response key %q", op, code)
			}
			want = append(want, n)
		}
		slices.Sort(want)
		for _, status := range slices.Compact(want) {
			if !c.covered[op.String()][status] {
				missing = append(missing, fmt.Sprintf("%s → %d", op, status))
			}
		}
	}
	return missing
}

// TestContract drives every scenario of the fake through the spec check
// and proves each documented status of each operation was produced and
// valid.
func TestContract(t *testing.T) {
	c := newContract()
	fc := clock.NewFake(testStart, false)
	enabled := New(WithClock(fc), WithJobPlan(planByDomain))
	enabled.SeedDemo()
	seedAgentJobs(enabled)
	disabled := New(WithClock(fc), WithStaticExportDisabled())
	h := &harness{fake: enabled, clock: fc, url: c.serve(t, enabled)}
	off := &harness{fake: disabled, clock: fc, url: c.serve(t, disabled)}

	runContractScenarios(t, h, off)

	c.assertNoViolations(t)
	c.mu.Lock()
	t.Logf("statuses produced and validated: %v", c.covered)
	c.mu.Unlock()
	if missing := c.missingCoverage(t); len(missing) > 0 {
		t.Errorf("documented statuses never produced:\n%s", joinLines(missing))
	}
}

// planByDomain picks a job plan from the requested domain, so one server
// can run every kind of job.
func planByDomain(req StartRequest) JobPlan {
	switch req.Domain {
	case "fail.example.com":
		return JobPlan{QueueFor: time.Second, RunFor: 10 * time.Second, FailWith: "Page guides/broken could not be rendered"}
	case "never.example.com":
		return JobPlan{Never: true}
	default:
		return DefaultJobPlan(req)
	}
}

func seedAgentJobs(s *Server) {
	s.AddAgentJob("proj_1", AgentJobSeed{ID: "aj_done", Repository: "https://github.com/acme/docs", Ref: ptr("main"), ActiveFor: 5 * time.Second, PRLink: ptr("https://github.com/acme/docs/pull/7")})
	s.AddAgentJob("proj_1", AgentJobSeed{ID: "aj_nochange", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Second})
	s.AddAgentJob("proj_1", AgentJobSeed{ID: "aj_archived", Repository: "https://github.com/acme/docs", Model: "opus", ActiveFor: 5 * time.Second, FinalStatus: "archived", PRLink: ptr("https://github.com/acme/docs/pull/8")})
	s.AddAgentJob("proj_1", AgentJobSeed{ID: "aj_failed", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Second, FinalStatus: "failed"})
}

func runContractScenarios(t *testing.T, h, off *harness) {
	t.Helper()
	const jobs = "/v1/static-export/jobs"
	// Start: 202, 400, 401, 403.
	ok := h.startJob(t, map[string]any{"domain": "docs.example.com", "version": "2024-06-01", "paths": []string{"index", "guides/x"}})
	failing := h.startJob(t, map[string]any{"domain": "fail.example.com"})
	never := h.startJob(t, map[string]any{"domain": "never.example.com"})
	for _, body := range []any{`{"domain":`, `[]`, ``, map[string]any{}, map[string]any{"domain": 7}, map[string]any{"domain": "https://docs.example.com"}, map[string]any{"domain": "docs.example.com", "paths": []string{"/index"}}} {
		h.do(t, http.MethodPost, jobs, DefaultAPIKey, body).wantStatus(t, http.StatusBadRequest)
	}
	off.do(t, http.MethodPost, jobs, DefaultAPIKey, map[string]any{"domain": "docs.example.com"}).wantStatus(t, http.StatusForbidden)
	// The spec documents 403 only for start, so off's other operations are
	// exercised by the unchecked tests in static_export_test.go.

	// Every operation: 401 without a key and with a wrong one.
	for _, key := range []string{noKey, "mint_wrong"} {
		h.do(t, http.MethodPost, jobs, key, map[string]any{"domain": "docs.example.com"}).wantStatus(t, http.StatusUnauthorized)
		h.do(t, http.MethodGet, jobs+"/"+ok.JobID, key, nil).wantStatus(t, http.StatusUnauthorized)
		h.do(t, http.MethodPost, jobs+"/"+ok.JobID+"/bundle", key, nil).wantStatus(t, http.StatusUnauthorized)
		h.do(t, http.MethodGet, "/v2/agent/proj_demo/job/aj_demo_0001", key, nil).wantStatus(t, http.StatusUnauthorized)
	}

	// Status and bundle through the whole lifecycle: 200, 404, 409.
	for _, id := range []string{"se_0000000000000000", "a%2Fb", "%20"} {
		h.do(t, http.MethodGet, jobs+"/"+id, DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)
		h.do(t, http.MethodPost, jobs+"/"+id+"/bundle", DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)
	}
	for _, step := range []time.Duration{0, time.Second, 2 * time.Second, 7 * time.Second, 10 * time.Second, 20 * time.Second} {
		h.clock.Advance(step)
		for _, id := range []string{ok.JobID, failing.JobID, never.JobID} {
			h.getJob(t, id)
			h.do(t, http.MethodPost, jobs+"/"+id+"/bundle", DefaultAPIKey, nil)
			getAgentJobs(t, h)
		}
	}
	h.do(t, http.MethodPost, jobs+"/"+failing.JobID+"/bundle", DefaultAPIKey, nil).wantStatus(t, http.StatusConflict)
	h.do(t, http.MethodPost, jobs+"/"+never.JobID+"/bundle", DefaultAPIKey, nil).wantStatus(t, http.StatusConflict)
	link := h.bundle(t, ok.JobID)
	doURL(t, http.MethodGet, link.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)

	// Agent jobs: 404 for an unknown project or id.
	h.do(t, http.MethodGet, "/v2/agent/proj_unknown/job/aj_done", DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)
	h.do(t, http.MethodGet, "/v2/agent/proj_1/job/aj_unknown", DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)
}

// getAgentJobs fetches every seeded agent job once.
func getAgentJobs(t *testing.T, h *harness) {
	t.Helper()
	for _, path := range []string{"proj_demo/job/aj_demo_0001", "proj_1/job/aj_done", "proj_1/job/aj_nochange", "proj_1/job/aj_archived", "proj_1/job/aj_failed"} {
		h.do(t, http.MethodGet, "/v2/agent/"+path, DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
	}
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// TestContractCatchesViolations proves the check itself: a handler that
// breaks the spec in each way is caught, and a faithful one is not.
func TestContractCatchesViolations(t *testing.T) {
	const validJob = `{"jobId":"se_1","status":"running","progress":1.5,"pageCount":1,"createdAt":"2024-06-01T12:00:00.000Z","updatedAt":"2024-06-01T12:00:00.000Z"}`
	tests := []struct {
		name, method, path, body string
		status                   int
		contentType, response    string
		wantViolation            bool
	}{
		{"valid job", "GET", "/v1/static-export/jobs/se_1", "", 200, "application/json", validJob, false},
		{"valid agent 404", "GET", "/v2/agent/p/job/j", "", 404, "application/json", `{"error":"Job not found"}`, false},
		{"valid 401", "GET", "/v2/agent/p/job/j", "", 401, "application/json", `{"error":"Invalid or missing API key"}`, false},
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
		{"invalid request accepted", "POST", "/v1/static-export/jobs", `{"version":"x"}`, 202, "application/json", validJob, true},
		{"invalid request rejected", "POST", "/v1/static-export/jobs", `{"version":"x"}`, 400, "application/json", `{"error":"domain is required"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newContract()
			url := c.serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.response)
			}))
			doURL(t, tt.method, url+tt.path, DefaultAPIKey, tt.body)
			c.mu.Lock()
			got := slices.Clone(c.violations)
			c.mu.Unlock()
			if tt.wantViolation != (len(got) > 0) {
				t.Errorf("violations = %q, want some: %v", got, tt.wantViolation)
			}
		})
	}
}
