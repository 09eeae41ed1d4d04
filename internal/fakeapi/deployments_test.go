package fakeapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// deploymentJSON is the part of the status object the tests read.
type deploymentJSON struct {
	ID        string   `json:"_id"`
	ProjectID string   `json:"projectId"`
	CreatedAt string   `json:"createdAt"`
	EndedAt   string   `json:"endedAt"`
	Status    string   `json:"status"`
	Summary   string   `json:"summary"`
	Logs      []string `json:"logs"`
	Source    string   `json:"source"`
	Commit    struct {
		SHA, Ref, Message string
	} `json:"commit"`
}

func TestDeploymentLifecycle(t *testing.T) {
	for _, fail := range []bool{false, true} {
		name := map[bool]string{false: "success", true: "failure"}[fail]
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(req fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
				return fakeapi.DeploymentPlan{QueuedFor: 5 * time.Second, RunFor: 10 * time.Second, Fail: fail,
					Logs: []string{"install", "build", "upload", "done"}, CommitSHA: "abc123", CommitMessage: "Fix typo"}
			}}))
			queued := decode[struct{ StatusID string }](t, h.do(t, http.MethodPost, "/v1/project/update/proj_1", fakeapi.DefaultAPIKey, nil).
				wantStatus(t, http.StatusAccepted))
			if queued.StatusID == "" {
				t.Fatal("no statusId")
			}
			path := "/v1/project/update-status/" + queued.StatusID
			get := func() deploymentJSON {
				return decode[deploymentJSON](t, h.do(t, http.MethodGet, path, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK))
			}
			if d := get(); d.Status != "queued" || d.EndedAt != "" || len(d.Logs) != 0 || d.ProjectID != "proj_1" || d.Source != "api" {
				t.Errorf("at first: %+v", d)
			}
			h.clock.Advance(10 * time.Second)
			if d := get(); d.Status != "in_progress" || len(d.Logs) != 2 {
				t.Errorf("half way: %+v, want in_progress with 2 of 4 log lines", d)
			}
			h.clock.Advance(5 * time.Second)
			d := get()
			if d.Status != name || d.EndedAt != ts(15*time.Second) || len(d.Logs) != 4 ||
				d.Commit.SHA != "abc123" || d.Commit.Ref != "main" || d.Commit.Message != "Fix typo" {
				t.Errorf("at the end: %+v", d)
			}
		})
	}
}

func TestDeploymentStatusNotFound(t *testing.T) {
	h := newHarness(t)
	h.do(t, http.MethodGet, "/v1/project/update-status/nope", fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusNotFound, "Deployment status not found")
}

func TestPreviewRedeploysTheSamePreview(t *testing.T) {
	h := newHarness(t)
	type queued struct{ StatusID, PreviewURL string }
	first := decode[queued](t, h.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{"branch": "feature/x"}).
		wantStatus(t, http.StatusAccepted))
	again := decode[queued](t, h.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{"branch": "feature/x"}).
		wantStatus(t, http.StatusAccepted))
	if first.PreviewURL != fakeapi.PreviewURL("proj_1", "feature/x") || again.PreviewURL != first.PreviewURL {
		t.Errorf("preview URLs %q, %q; want both %q", first.PreviewURL, again.PreviewURL, fakeapi.PreviewURL("proj_1", "feature/x"))
	}
	if first.StatusID == again.StatusID {
		t.Error("a redeployment must have a status id of its own")
	}
	d := decode[deploymentJSON](t, h.do(t, http.MethodGet, "/v1/project/update-status/"+again.StatusID, fakeapi.DefaultAPIKey, nil))
	if d.Commit.Ref != "feature/x" {
		t.Errorf("the preview deploys ref %q, want the branch", d.Commit.Ref)
	}
}

func TestPreviewRefusals(t *testing.T) {
	h := newHarness(t)
	h.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{"branch": ""}).
		wantError(t, http.StatusBadRequest, "The branch field is required")
	h.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{}).
		wantError(t, http.StatusBadRequest, "The branch field is required")

	off := newHarness(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{PreviewsDisabled: true}))
	off.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{"branch": "x"}).
		wantError(t, http.StatusForbidden, "Preview deployments are not available on your current plan")
}

func TestAutomationTrigger(t *testing.T) {
	const (
		active   = "0123456789abcdef01234567"
		inactive = "0123456789abcdef01234568"
		byEvent  = "0123456789abcdef01234569"
	)
	h := newHarness(t,
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: active}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: inactive, Inactive: true}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: byEvent, Trigger: fakeapi.TriggerEvent}))
	run := decode[struct{ SchemaID, InstanceID, JobID string }](t,
		h.do(t, http.MethodPost, "/v1/workflow/proj_1/"+active+"/trigger", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted))
	if run.SchemaID != active || run.InstanceID == "" || run.JobID == "" {
		t.Errorf("run = %+v", run)
	}
	if got := h.fake.AutomationRuns(); len(got) != 1 || got[0].InstanceID != run.InstanceID {
		t.Errorf("AutomationRuns = %+v", got)
	}
	for _, tt := range []struct {
		path   string
		status int
		text   string
	}{
		{"/v1/workflow/proj_1/not-an-id/trigger", http.StatusBadRequest, "Invalid automation id"},
		{"/v1/workflow/proj_1/" + inactive + "/trigger", http.StatusBadRequest, "Automation is not active"},
		{"/v1/workflow/proj_1/" + byEvent + "/trigger", http.StatusBadRequest, "Only automations with a custom schedule can be triggered"},
		{"/v1/workflow/proj_2/" + active + "/trigger", http.StatusNotFound, "Automation not found"},
		{"/v1/workflow/proj_1/ffffffffffffffffffffffff/trigger", http.StatusNotFound, "Automation not found"},
	} {
		h.do(t, http.MethodPost, tt.path, fakeapi.DefaultAPIKey, nil).wantError(t, tt.status, tt.text)
	}
}

func TestDocumentedTriggerLimits(t *testing.T) {
	const automation = "0123456789abcdef01234567"
	h := newHarness(t, fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: automation}))
	// Deployments and automations share 10 a 10 seconds.
	for i := range 10 {
		path := "/v1/project/update/proj_1"
		if i%2 == 1 {
			path = "/v1/workflow/proj_1/" + automation + "/trigger"
		}
		h.do(t, http.MethodPost, path, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
		h.clock.Advance(100 * time.Millisecond)
	}
	r := h.do(t, http.MethodPost, "/v1/project/update/proj_1", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusTooManyRequests)
	if got := r.header.Get("Retry-After"); got != "9" {
		t.Errorf("Retry-After = %q, want 9 (the first of the window leaves it in 9 s)", got)
	}
	h.clock.Advance(9 * time.Second)
	h.do(t, http.MethodPost, "/v1/project/update/proj_1", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)

	// Previews: 5 a minute, counted apart.
	for range 5 {
		h.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{"branch": "b"}).wantStatus(t, http.StatusAccepted)
	}
	h.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{"branch": "b"}).wantStatus(t, http.StatusTooManyRequests)
	if got := h.fake.TriggersRefused(); got != 2 {
		t.Errorf("TriggersRefused = %d, want 2", got)
	}
}
