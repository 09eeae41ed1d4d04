package fakeapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// The exchange checks themselves live in package contract (and are tested
// there); this file proves the fake honours the in-repo description of the
// API (which package contract keeps equal to Mintlify's specs), and covers
// every status it documents for the operations the fake serves.

// apiGroup is one part of the API and where it is mounted relative to the
// fake's base URL (Mintlify publishes each as its own spec).
type apiGroup struct {
	serverPath string
}

var (
	staticExportSpec = apiGroup{serverPath: "/v1"}
	adminSpec        = apiGroup{serverPath: ""}
)

// operation names one described operation the fake implements.
type operation struct {
	spec         apiGroup
	method, path string
}

// String is the operation's key in contract.Checker.Covered.
func (o operation) String() string {
	return fmt.Sprintf("%s %s%s", o.method, o.spec.serverPath, o.path)
}

// fakeOperations are the operations the fake serves; TestContract proves
// each documented status of each is produced and valid.
var fakeOperations = []operation{
	{staticExportSpec, http.MethodPost, "/static-export/jobs"},
	{staticExportSpec, http.MethodGet, "/static-export/jobs/{jobId}"},
	{staticExportSpec, http.MethodPost, "/static-export/jobs/{jobId}/bundle"},
	{adminSpec, http.MethodPost, "/v2/agent/{projectId}/job"},
	{adminSpec, http.MethodGet, "/v2/agent/{projectId}/job/{id}"},
	{adminSpec, http.MethodPost, "/v2/agent/{projectId}/job/{id}/message"},
}

// missingCoverage lists the documented statuses (plus 401 and 403, which
// the global bearerAuth security implies) of the fake's operations that no
// valid exchange produced.
func missingCoverage(t *testing.T, covered map[string][]int) []string {
	t.Helper()
	doc, err := contract.Description()
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, op := range fakeOperations {
		specOp := doc.Paths.Find(op.spec.serverPath + op.path).GetOperation(op.method)
		if specOp == nil {
			t.Fatalf("%s is not in the in-repo description", op)
		}
		want := []int{http.StatusUnauthorized, http.StatusForbidden}
		for code := range specOp.Responses.Map() {
			n, err := strconv.Atoi(code)
			if err != nil {
				t.Fatalf("%s: unexpected response key %q", op, code)
			}
			want = append(want, n)
		}
		slices.Sort(want)
		for _, status := range slices.Compact(want) {
			if !slices.Contains(covered[op.String()], status) {
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
	c := contract.New(t)
	h := newHarnessWith(t, fakeapitest.Checker(c),
		fakeapitest.Fake(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: planByDomain}), fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: planByPrompt}), fakeapi.WithProjects("proj_demo", "proj_1")))
	h.fake.SeedDemo()
	seedAgentJobs(h.fake)
	// The second fake, with static export disabled, shares the first's clock.
	off := newHarnessWith(t, fakeapitest.Checker(c), fakeapitest.Fake(fakeapi.WithClock(h.clock), fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Disabled: true})))
	off.clock = h.clock

	runContractScenarios(t, h, off)

	for _, v := range c.Violations() {
		t.Errorf("contract violation: %s", v)
	}
	covered := c.Covered()
	t.Logf("statuses produced and validated: %v", covered)
	if missing := missingCoverage(t, covered); len(missing) > 0 {
		t.Errorf("documented statuses never produced:\n%s", joinLines(missing))
	}
}

// planByDomain picks a job plan from the requested domain, so one server
// can run every kind of job.
func planByDomain(req fakeapi.StartRequest) fakeapi.JobPlan {
	switch req.Domain {
	case "fail.example.com":
		return fakeapi.JobPlan{QueueFor: time.Second, RunFor: 10 * time.Second, FailWith: "Page guides/broken could not be rendered"}
	case "never.example.com":
		return fakeapi.JobPlan{Never: true}
	default:
		return fakeapi.DefaultJobPlan(req)
	}
}

func seedAgentJobs(s *fakeapi.Server) {
	s.AddAgentJob("proj_1", fakeapi.AgentJobSeed{ID: "aj_done", Repository: "https://github.com/acme/docs", Ref: ptr("main"), ActiveFor: 5 * time.Second, PRLink: ptr("https://github.com/acme/docs/pull/7")})
	s.AddAgentJob("proj_1", fakeapi.AgentJobSeed{ID: "aj_nochange", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Second})
	s.AddAgentJob("proj_1", fakeapi.AgentJobSeed{ID: "aj_archived", Repository: "https://github.com/acme/docs", Model: "opus", ActiveFor: 5 * time.Second, FinalStatus: "archived", PRLink: ptr("https://github.com/acme/docs/pull/8")})
	s.AddAgentJob("proj_1", fakeapi.AgentJobSeed{ID: "aj_failed", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Second, FinalStatus: "failed"})
}

func runContractScenarios(t *testing.T, h, off *harness) {
	t.Helper()
	const jobs = "/v1/static-export/jobs"
	// Start: 202, 400, 401, 403.
	ok := h.startJob(t, map[string]any{"domain": "docs.example.com", "version": "2024-06-01", "paths": []string{"index", "guides/x"}})
	failing := h.startJob(t, map[string]any{"domain": "fail.example.com"})
	never := h.startJob(t, map[string]any{"domain": "never.example.com"})
	for _, body := range []any{`{"domain":`, `[]`, ``, map[string]any{}, map[string]any{"domain": 7}, map[string]any{"domain": "https://docs.example.com"}, map[string]any{"domain": "docs.example.com", "paths": []string{"/index"}}} {
		h.do(t, http.MethodPost, jobs, fakeapi.DefaultAPIKey, body).wantStatus(t, http.StatusBadRequest)
	}
	off.do(t, http.MethodPost, jobs, fakeapi.DefaultAPIKey, map[string]any{"domain": "docs.example.com"}).wantStatus(t, http.StatusForbidden)
	runKeyLimitScenarios(t, h, ok.JobID)

	// Every operation: 401 without a key and with a wrong one.
	for _, key := range []string{noKey, "mint_wrong"} {
		h.do(t, http.MethodPost, jobs, key, map[string]any{"domain": "docs.example.com"}).wantStatus(t, http.StatusUnauthorized)
		h.do(t, http.MethodGet, jobs+"/"+ok.JobID, key, nil).wantStatus(t, http.StatusUnauthorized)
		h.do(t, http.MethodPost, jobs+"/"+ok.JobID+"/bundle", key, nil).wantStatus(t, http.StatusUnauthorized)
		h.do(t, http.MethodGet, "/v2/agent/proj_demo/job/aj_demo_0001", key, nil).wantStatus(t, http.StatusUnauthorized)
	}

	// Status and bundle through the whole lifecycle: 200, 404, 409.
	for _, id := range []string{"se_0000000000000000", "a%2Fb", "%20"} {
		h.do(t, http.MethodGet, jobs+"/"+id, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)
		h.do(t, http.MethodPost, jobs+"/"+id+"/bundle", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)
	}
	for _, step := range []time.Duration{0, time.Second, 2 * time.Second, 7 * time.Second, 10 * time.Second, 20 * time.Second} {
		h.clock.Advance(step)
		for _, id := range []string{ok.JobID, failing.JobID, never.JobID} {
			h.getJob(t, id)
			h.do(t, http.MethodPost, jobs+"/"+id+"/bundle", fakeapi.DefaultAPIKey, nil)
			getAgentJobs(t, h)
		}
	}
	h.do(t, http.MethodPost, jobs+"/"+failing.JobID+"/bundle", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusConflict)
	h.do(t, http.MethodPost, jobs+"/"+never.JobID+"/bundle", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusConflict)
	link := h.bundle(t, ok.JobID)
	doURL(t, http.MethodGet, link.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)

	// Agent jobs: 404 for an unknown project or id.
	h.do(t, http.MethodGet, "/v2/agent/proj_unknown/job/aj_done", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)
	h.do(t, http.MethodGet, "/v2/agent/proj_1/job/aj_unknown", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusNotFound)

	runAgentPromptScenarios(t, h)
}

// runKeyLimitScenarios covers the 403 of a key's limits on every
// operation: from an address off its allowlist, and on every POST of a
// read-only key.
func runKeyLimitScenarios(t *testing.T, h *harness, jobID string) {
	t.Helper()
	prompt := map[string]any{"prompt": "Also document the CLI"}
	calls := []struct {
		method, path string
		body         any
	}{
		{http.MethodPost, "/v1/static-export/jobs", map[string]any{"domain": "docs.example.com"}},
		{http.MethodGet, "/v1/static-export/jobs/" + jobID, nil},
		{http.MethodPost, "/v1/static-export/jobs/" + jobID + "/bundle", nil},
		{http.MethodPost, "/v2/agent/proj_1/job", prompt},
		{http.MethodGet, "/v2/agent/proj_1/job/aj_done", nil},
		{http.MethodPost, "/v2/agent/proj_1/job/aj_done/message", prompt},
	}
	h.fake.SetKeyLimits(fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.0/24"}})
	for _, c := range calls {
		h.do(t, c.method, c.path, fakeapi.DefaultAPIKey, c.body).wantStatus(t, http.StatusForbidden)
	}
	h.fake.SetKeyLimits(fakeapi.KeyLimits{ReadOnly: true})
	for _, c := range calls {
		if c.method == http.MethodPost {
			h.do(t, c.method, c.path, fakeapi.DefaultAPIKey, c.body).wantStatus(t, http.StatusForbidden)
		}
	}
	h.fake.SetKeyLimits(fakeapi.KeyLimits{})
}

// runAgentPromptScenarios covers creating agent jobs and sending them
// follow-up messages: 200/201, 400, 401, 404 and 429.
func runAgentPromptScenarios(t *testing.T, h *harness) {
	t.Helper()
	const create = "/v2/agent/proj_1/job"
	var jobs []fakeapi.AgentJobJSON
	for _, prompt := range []string{"Document the export API", "There is nothing to change", "Something impossible", "Then archive it"} {
		jobs = append(jobs, h.createAgentJob(t, prompt))
	}
	message := func(id string) string { return create + "/" + id + "/message" }
	for _, body := range []any{``, `[]`, `{"prompt":`, map[string]any{}, map[string]any{"prompt": ""}, map[string]any{"prompt": 7}} {
		h.do(t, http.MethodPost, create, fakeapi.DefaultAPIKey, body).wantStatus(t, http.StatusBadRequest)
		h.do(t, http.MethodPost, message(jobs[0].ID), fakeapi.DefaultAPIKey, body).wantStatus(t, http.StatusBadRequest)
	}
	prompt := map[string]any{"prompt": "Also document the CLI"}
	for _, key := range []string{noKey, "mint_wrong"} {
		h.do(t, http.MethodPost, create, key, prompt).wantStatus(t, http.StatusUnauthorized)
		h.do(t, http.MethodPost, message(jobs[0].ID), key, prompt).wantStatus(t, http.StatusUnauthorized)
	}
	h.do(t, http.MethodPost, "/v2/agent/proj_unknown/job", fakeapi.DefaultAPIKey, prompt).wantStatus(t, http.StatusNotFound)
	h.do(t, http.MethodPost, message("aj_unknown"), fakeapi.DefaultAPIKey, prompt).wantStatus(t, http.StatusNotFound)
	h.do(t, http.MethodPost, "/v2/agent/proj_unknown/job/"+jobs[0].ID+"/message", fakeapi.DefaultAPIKey, prompt).wantStatus(t, http.StatusNotFound)

	h.fake.SetFaults(fakeapi.FaultRule{Match: fakeapi.AnyOf(fakeapi.IsCreateAgentJobRequest, fakeapi.IsAgentMessageRequest), Count: 2, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(time.Second)}})
	h.do(t, http.MethodPost, create, fakeapi.DefaultAPIKey, prompt).wantStatus(t, http.StatusTooManyRequests)
	h.do(t, http.MethodPost, message(jobs[0].ID), fakeapi.DefaultAPIKey, prompt).wantStatus(t, http.StatusTooManyRequests)
	h.fake.SetFaults()

	// Every job through its lifecycle, with a follow-up to each in the middle.
	for _, step := range []time.Duration{0, time.Minute, 5 * time.Minute, 5 * time.Minute} {
		h.clock.Advance(step)
		for _, job := range jobs {
			h.getAgentJob(t, job.ID)
		}
		if step == time.Minute {
			for _, job := range jobs {
				h.sendAgentMessage(t, "proj_1", job.ID, "Also document the CLI")
			}
		}
	}
}

// getAgentJobs fetches every seeded agent job once.
func getAgentJobs(t *testing.T, h *harness) {
	t.Helper()
	for _, path := range []string{"proj_demo/job/aj_demo_0001", "proj_1/job/aj_done", "proj_1/job/aj_nochange", "proj_1/job/aj_archived", "proj_1/job/aj_failed"} {
		h.do(t, http.MethodGet, "/v2/agent/"+path, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
	}
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}
