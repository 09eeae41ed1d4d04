package fakeapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// The automations of the webhook tests, one of each kind.
const (
	hookByWebhook  = "0123456789abcdef0123a001"
	hookScheduled  = "0123456789abcdef0123a002"
	hookByEvent    = "0123456789abcdef0123a003"
	hookPredefined = "0123456789abcdef0123a004"
)

func webhookAutomations() []fakeapi.Option {
	return []fakeapi.Option{
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: hookByWebhook, Trigger: fakeapi.TriggerWebhook}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: hookScheduled}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: hookByEvent, Trigger: fakeapi.TriggerEvent}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_1", ID: hookPredefined, Predefined: true, Trigger: fakeapi.TriggerWebhook}),
	}
}

func webhookPath(project, id string) string { return "/v2/workflow/" + project + "/" + id + "/webhook" }

// TestAutomationWebhook: the webhook call runs a webhook automation, body
// or not, and answers the run; every other automation answers 404, and
// "Trigger automation" refuses a webhook automation as one without a
// custom schedule.
func TestAutomationWebhook(t *testing.T) {
	h := newHarness(t, webhookAutomations()...)
	run := decode[struct {
		Success bool
		RunID   string
	}](t, h.do(t, http.MethodPost, webhookPath("proj_1", hookByWebhook), fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted))
	if !run.Success || run.RunID == "" {
		t.Errorf("run = %+v", run)
	}
	// A body is ignored.
	h.do(t, http.MethodPost, webhookPath("proj_1", hookByWebhook), fakeapi.DefaultAPIKey, map[string]string{"prompt": "x"}).
		wantStatus(t, http.StatusAccepted)
	runs := h.fake.AutomationRuns()
	if len(runs) != 2 || !runs[0].Webhook || runs[0].InstanceID != run.RunID || runs[0].JobID != "" || runs[0].AutomationID != hookByWebhook {
		t.Errorf("AutomationRuns = %+v", runs)
	}
	for _, tt := range []struct {
		path string
		text string
	}{
		{webhookPath("proj_1", hookScheduled), "No webhook automation found"},
		{webhookPath("proj_1", hookByEvent), "No webhook automation found"},
		{webhookPath("proj_1", hookPredefined), "No webhook automation found"},
		{webhookPath("proj_2", hookByWebhook), "Automation not found"},
		{webhookPath("proj_1", "ffffffffffffffffffffffff"), "Automation not found"},
	} {
		h.do(t, http.MethodPost, tt.path, fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusNotFound, tt.text)
	}
	h.do(t, http.MethodPost, "/v1/workflow/proj_1/"+hookByWebhook+"/trigger", fakeapi.DefaultAPIKey, nil).
		wantError(t, http.StatusBadRequest, "Only automations with a custom schedule can be triggered")
	h.do(t, http.MethodPost, webhookPath("proj_1", hookByWebhook), "mint_wrong", nil).wantStatus(t, http.StatusUnauthorized)
	if n := len(h.fake.AutomationRuns()); n != 2 {
		t.Errorf("runs = %d after refusals, want 2", n)
	}
}

// TestAutomationWebhookSharesTriggerLimit: webhook runs count in the limit
// of deployments and automation triggers, 10 a 10 seconds.
func TestAutomationWebhookSharesTriggerLimit(t *testing.T) {
	h := newHarness(t, webhookAutomations()...)
	for i := range 10 {
		path := webhookPath("proj_1", hookByWebhook)
		if i%2 == 1 {
			path = "/v1/project/update/proj_1"
		}
		h.do(t, http.MethodPost, path, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
	}
	r := h.do(t, http.MethodPost, webhookPath("proj_1", hookByWebhook), fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusTooManyRequests)
	if got := r.header.Get("Retry-After"); got != "10" {
		t.Errorf("Retry-After = %q, want 10", got)
	}
	h.clock.Advance(10 * time.Second)
	h.do(t, http.MethodPost, webhookPath("proj_1", hookByWebhook), fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
	if n := len(h.fake.AutomationRuns()); n != 6 {
		t.Errorf("runs = %d, want 6", n)
	}
}
