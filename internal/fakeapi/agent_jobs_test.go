package fakeapi_test

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

func TestAgentJobLifecycle(t *testing.T) {
	const repo = "https://github.com/acme/docs"
	tests := []struct {
		name   string
		seed   fakeapi.AgentJobSeed
		active fakeapi.AgentJobJSON // at creation
		final  fakeapi.AgentJobJSON // after ActiveFor
	}{
		{
			name:   "completed with a pull request",
			seed:   fakeapi.AgentJobSeed{ID: "aj_1", Repository: repo, Ref: ptr("main"), ActiveFor: 5 * time.Second, PRLink: ptr(repo + "/pull/7")},
			active: fakeapi.AgentJobJSON{ID: "aj_1", Status: "active", Source: fakeapi.AgentSourceJSON{repo, ptr("main")}, Model: "sonnet", CreatedAt: ts(0)},
			final:  fakeapi.AgentJobJSON{ID: "aj_1", Status: "completed", Source: fakeapi.AgentSourceJSON{repo, ptr("main")}, Model: "sonnet", PRLink: ptr(repo + "/pull/7"), CreatedAt: ts(0)},
		},
		{
			name:   "completed without changes keeps a null prLink",
			seed:   fakeapi.AgentJobSeed{ID: "aj_2", Repository: repo, ActiveFor: 5 * time.Second},
			active: fakeapi.AgentJobJSON{ID: "aj_2", Status: "active", Source: fakeapi.AgentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
			final:  fakeapi.AgentJobJSON{ID: "aj_2", Status: "completed", Source: fakeapi.AgentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
		},
		{
			name:   "archived",
			seed:   fakeapi.AgentJobSeed{ID: "aj_3", Repository: repo, Model: "opus", ActiveFor: 5 * time.Second, FinalStatus: "archived", PRLink: ptr(repo + "/pull/8")},
			active: fakeapi.AgentJobJSON{ID: "aj_3", Status: "active", Source: fakeapi.AgentSourceJSON{repo, nil}, Model: "opus", CreatedAt: ts(0)},
			final:  fakeapi.AgentJobJSON{ID: "aj_3", Status: "archived", Source: fakeapi.AgentSourceJSON{repo, nil}, Model: "opus", PRLink: ptr(repo + "/pull/8"), CreatedAt: ts(0), ArchivedAt: ptr(ts(5 * time.Second))},
		},
		{
			name:   "failed",
			seed:   fakeapi.AgentJobSeed{ID: "aj_4", Repository: repo, ActiveFor: 5 * time.Second, FinalStatus: "failed"},
			active: fakeapi.AgentJobJSON{ID: "aj_4", Status: "active", Source: fakeapi.AgentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
			final:  fakeapi.AgentJobJSON{ID: "aj_4", Status: "failed", Source: fakeapi.AgentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.fake.AddAgentJob("proj_1", tt.seed)
			path := "/v2/agent/proj_1/job/" + tt.seed.ID

			r := h.do(t, http.MethodGet, path, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
			if !strings.Contains(string(r.body), `"prLink":null`) || !strings.Contains(string(r.body), `"archivedAt":null`) {
				t.Errorf("an active job must show prLink and archivedAt as null: %s", r.body)
			}
			wantAgentJob(t, decode[fakeapi.AgentJobJSON](t, r), tt.active)

			h.clock.Advance(tt.seed.ActiveFor - time.Millisecond)
			wantAgentJob(t, decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodGet, path, fakeapi.DefaultAPIKey, nil)), tt.active)

			h.clock.Advance(time.Millisecond)
			wantAgentJob(t, decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodGet, path, fakeapi.DefaultAPIKey, nil)), tt.final)
			h.clock.Advance(time.Hour)
			wantAgentJob(t, decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodGet, path, fakeapi.DefaultAPIKey, nil)), tt.final)
		})
	}
}

func TestAgentJobNotFound(t *testing.T) {
	h := newHarness(t)
	h.fake.SeedDemo()
	for _, path := range []string{"proj_other/job/aj_demo_0001", "proj_demo/job/aj_other", "proj_demo/job/aj%2Fdemo"} {
		t.Run(path, func(t *testing.T) {
			h.do(t, http.MethodGet, "/v2/agent/"+path, fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusNotFound, "Job not found")
		})
	}
}

func TestSeedDemo(t *testing.T) {
	h := newHarness(t)
	h.fake.SeedDemo()
	const path = "/v2/agent/proj_demo/job/aj_demo_0001"
	source := fakeapi.AgentSourceJSON{Repository: "https://github.com/acme/docs", Ref: ptr("main")}

	wantAgentJob(t, decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodGet, path, fakeapi.DefaultAPIKey, nil)),
		fakeapi.AgentJobJSON{ID: "aj_demo_0001", Status: "active", Source: source, Model: "sonnet", CreatedAt: ts(0)})
	h.clock.Advance(3 * time.Second)
	wantAgentJob(t, decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodGet, path, fakeapi.DefaultAPIKey, nil)),
		fakeapi.AgentJobJSON{ID: "aj_demo_0001", Status: "completed", Source: source, Model: "sonnet", PRLink: ptr("https://github.com/acme/docs/pull/42"), CreatedAt: ts(0)})
}

func TestAddAgentJobCopiesSeed(t *testing.T) {
	h := newHarness(t)
	ref := "main"
	h.fake.AddAgentJob("p", fakeapi.AgentJobSeed{ID: "aj", Repository: "https://github.com/acme/docs", Ref: &ref})
	ref = "changed"
	got := decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodGet, "/v2/agent/p/job/aj", fakeapi.DefaultAPIKey, nil))
	if got.Source.Ref == nil || *got.Source.Ref != "main" {
		t.Errorf("ref = %v, want main: the seed must be copied", got.Source.Ref)
	}
}

func TestAddAgentJobRejectsBadSeeds(t *testing.T) {
	tests := []struct {
		name string
		seed fakeapi.AgentJobSeed
	}{
		{"no id", fakeapi.AgentJobSeed{Repository: "https://github.com/acme/docs"}},
		{"unknown final status", fakeapi.AgentJobSeed{ID: "aj", FinalStatus: "active"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("AddAgentJob did not panic")
				}
			}()
			fakeapi.New().AddAgentJob("p", tt.seed)
		})
	}
}

func wantAgentJob(t *testing.T, got, want fakeapi.AgentJobJSON) {
	t.Helper()
	if got.ID != want.ID || got.Status != want.Status || got.Model != want.Model || got.CreatedAt != want.CreatedAt ||
		got.Source.Repository != want.Source.Repository || !equalPtr(got.Source.Ref, want.Source.Ref) ||
		!equalPtr(got.PRLink, want.PRLink) || !equalPtr(got.ArchivedAt, want.ArchivedAt) {
		t.Errorf("agent job:\n got %s\nwant %s", describeAgentJob(got), describeAgentJob(want))
	}
}

func equalPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func describeAgentJob(j fakeapi.AgentJobJSON) string {
	deref := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	return strings.Join([]string{j.ID, j.Status, j.Source.Repository, deref(j.Source.Ref), j.Model,
		"prLink=" + deref(j.PRLink), "created=" + j.CreatedAt, "archived=" + deref(j.ArchivedAt)}, " ")
}

// createAgentJob creates an agent job in proj_1 and returns it.
func (h *harness) createAgentJob(t *testing.T, prompt string) fakeapi.AgentJobJSON {
	t.Helper()
	r := h.do(t, http.MethodPost, "/v2/agent/proj_1/job", fakeapi.DefaultAPIKey, map[string]any{"prompt": prompt})
	return decode[fakeapi.AgentJobJSON](t, r.wantStatus(t, http.StatusCreated))
}

// getAgentJob returns an agent job of proj_1 as it stands.
func (h *harness) getAgentJob(t *testing.T, id string) fakeapi.AgentJobJSON {
	t.Helper()
	r := h.do(t, http.MethodGet, "/v2/agent/proj_1/job/"+id, fakeapi.DefaultAPIKey, nil)
	return decode[fakeapi.AgentJobJSON](t, r.wantStatus(t, http.StatusOK))
}

// sendAgentMessage sends a follow-up prompt to an agent job.
func (h *harness) sendAgentMessage(t *testing.T, projectID, id, prompt string) fakeapi.AgentJobJSON {
	t.Helper()
	r := h.do(t, http.MethodPost, "/v2/agent/"+projectID+"/job/"+id+"/message", fakeapi.DefaultAPIKey, map[string]any{"prompt": prompt})
	return decode[fakeapi.AgentJobJSON](t, r.wantStatus(t, http.StatusOK))
}

// planByPrompt picks an agent job plan from the prompt, so one server can
// run every kind of agent job.
func planByPrompt(req fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
	plan := fakeapi.AgentJobPlan{ActiveFor: 5 * time.Minute}
	switch {
	case strings.Contains(req.Prompt, "nothing to change"):
		plan.NoChanges = true
	case strings.Contains(req.Prompt, "impossible"):
		plan.FinalStatus = "failed"
	case strings.Contains(req.Prompt, "archive"):
		plan.FinalStatus = "archived"
	}
	return plan
}

func TestCreateAgentJobLifecycle(t *testing.T) {
	const repo = fakeapi.AgentRepository
	tests := []struct {
		prompt   string
		status   string
		pr       bool
		archived bool
	}{
		{prompt: "Document the export API", status: "completed", pr: true},
		{prompt: "There is nothing to change", status: "completed"},
		{prompt: "Something impossible", status: "failed"},
		{prompt: "Then archive it", status: "archived", pr: true, archived: true},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			h := newHarness(t, fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: planByPrompt}))
			created := h.createAgentJob(t, tt.prompt)
			if !regexp.MustCompile(`^aj_[0-9a-f]{16}$`).MatchString(created.ID) {
				t.Errorf("id = %q, want aj_ and 16 hex digits", created.ID)
			}
			ref := "mintlify/docs-agent-" + created.ID[len(created.ID)-8:]
			active := fakeapi.AgentJobJSON{ID: created.ID, Status: "active", Source: fakeapi.AgentSourceJSON{repo, &ref}, Model: "sonnet", CreatedAt: ts(0)}
			wantAgentJob(t, created, active)
			wantAgentJob(t, h.getAgentJob(t, created.ID), active)

			h.clock.Advance(5*time.Minute - time.Millisecond)
			wantAgentJob(t, h.getAgentJob(t, created.ID), active)

			h.clock.Advance(time.Millisecond)
			final := active
			final.Status = tt.status
			if tt.pr {
				final.PRLink = ptr(repo + "/pull/101")
			}
			if tt.archived {
				final.ArchivedAt = ptr(ts(5 * time.Minute))
			}
			wantAgentJob(t, h.getAgentJob(t, created.ID), final)
			if got := h.fake.AgentJobIDs(); !slices.Equal(got, []string{created.ID}) || h.fake.AgentJobsCreated() != 1 {
				t.Errorf("AgentJobIDs() = %v, AgentJobsCreated() = %d; want [%s], 1", got, h.fake.AgentJobsCreated(), created.ID)
			}
		})
	}
}

func TestAgentJobPlanSeesRequest(t *testing.T) {
	var seen []fakeapi.AgentJobRequest
	h := newHarness(t, fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(req fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		seen = append(seen, req)
		return fakeapi.AgentJobPlan{}
	}}))
	job := h.createAgentJob(t, "Document v2")
	h.sendAgentMessage(t, "proj_1", job.ID, "Also the changelog")
	want := []fakeapi.AgentJobRequest{{ProjectID: "proj_1", Prompt: "Document v2"}, {ProjectID: "proj_1", JobID: job.ID, Prompt: "Also the changelog"}}
	if !slices.Equal(seen, want) {
		t.Errorf("plans asked for %+v, want %+v", seen, want)
	}
	if got := h.getAgentJob(t, job.ID).Status; got != "completed" {
		t.Errorf("a zero plan: status = %s, want completed at once", got)
	}
}

func TestAgentJobFollowUp(t *testing.T) {
	h := newHarness(t, fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: planByPrompt}))
	withPR := h.createAgentJob(t, "Document the export API")
	unchanged := h.createAgentJob(t, "There is nothing to change")
	h.clock.Advance(10 * time.Minute)

	// A follow-up runs the job again; its pull request is kept.
	got := h.sendAgentMessage(t, "proj_1", withPR.ID, "There is nothing to change after all")
	if got.Status != "active" || got.PRLink != nil {
		t.Errorf("right after a follow-up: status %s, prLink %v; want active, null", got.Status, got.PRLink)
	}
	// A job without a pull request opens one when the follow-up changes files.
	h.sendAgentMessage(t, "proj_1", unchanged.ID, "Document the export API")
	h.clock.Advance(5 * time.Minute)
	if got := h.getAgentJob(t, withPR.ID); got.Status != "completed" || got.PRLink == nil || *got.PRLink != fakeapi.AgentRepository+"/pull/101" {
		t.Errorf("after the follow-up: %s, want completed with the first pull request", describeAgentJob(got))
	}
	if got := h.getAgentJob(t, unchanged.ID); got.PRLink == nil || *got.PRLink != fakeapi.AgentRepository+"/pull/102" {
		t.Errorf("after the follow-up: %s, want a new pull request", describeAgentJob(got))
	}
	// Seeded jobs take follow-ups too.
	h.fake.SeedDemo()
	if got := h.sendAgentMessage(t, "proj_demo", "aj_demo_0001", "Once more"); got.Status != "active" {
		t.Errorf("a seeded job after a follow-up: status %s, want active", got.Status)
	}
	if n := h.fake.AgentMessagesSent(); n != 3 {
		t.Errorf("AgentMessagesSent() = %d, want 3", n)
	}
}

func TestAgentPromptValidation(t *testing.T) {
	h := newUncheckedHarness(t, fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: planByPrompt}))
	job := h.createAgentJob(t, "Document v2")
	tests := []struct {
		name    string
		body    any
		message string
	}{
		{"no body", nil, `request body is required: send a JSON object such as {"prompt": "Document the new export API"}`},
		{"array", `[]`, "request body must be a JSON object"},
		{"broken JSON", `{"prompt":`, "request body is not valid JSON: unexpected EOF"},
		{"two objects", `{"prompt":"a"}{}`, "request body must contain a single JSON object"},
		{"no prompt", map[string]any{}, "prompt is required and must not be empty"},
		{"null prompt", map[string]any{"prompt": nil}, "prompt is required and must not be empty"},
		{"empty prompt", map[string]any{"prompt": ""}, "prompt is required and must not be empty"},
		{"number prompt", map[string]any{"prompt": 7}, "prompt must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.do(t, http.MethodPost, "/v2/agent/proj_1/job", fakeapi.DefaultAPIKey, tt.body).wantError(t, http.StatusBadRequest, tt.message)
			h.do(t, http.MethodPost, "/v2/agent/proj_1/job/"+job.ID+"/message", fakeapi.DefaultAPIKey, tt.body).wantError(t, http.StatusBadRequest, tt.message)
		})
	}
	if h.fake.AgentJobsCreated() != 1 || h.fake.AgentMessagesSent() != 0 {
		t.Errorf("refused prompts were taken: %d jobs, %d messages", h.fake.AgentJobsCreated(), h.fake.AgentMessagesSent())
	}
}

func TestAgentJobUnknownProjectOrJob(t *testing.T) {
	h := newHarness(t, fakeapi.WithProjects("proj_1"))
	h.do(t, http.MethodPost, "/v2/agent/proj_other/job", fakeapi.DefaultAPIKey, map[string]any{"prompt": "x"}).
		wantError(t, http.StatusNotFound, `Project "proj_other" not found`)
	job := h.createAgentJob(t, "Document v2")
	for _, path := range []string{"proj_other/job/" + job.ID, "proj_1/job/aj_unknown"} {
		h.do(t, http.MethodPost, "/v2/agent/"+path+"/message", fakeapi.DefaultAPIKey, map[string]any{"prompt": "x"}).
			wantError(t, http.StatusNotFound, "Job not found")
	}
	h.fake.ForgetAgentJob("proj_1", job.ID)
	h.do(t, http.MethodGet, "/v2/agent/proj_1/job/"+job.ID, fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusNotFound, "Job not found")
	if h.fake.AgentJobsCreated() != 1 {
		t.Errorf("AgentJobsCreated() = %d, want 1 (a forgotten job still counts)", h.fake.AgentJobsCreated())
	}
}
