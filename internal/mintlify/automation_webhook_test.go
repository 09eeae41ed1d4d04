package mintlify

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// The automations of the webhook tests, by what the webhook call meets.
const (
	webhookAutomation    = "0123456789abcdef0123b001"
	scheduledAutomation  = "0123456789abcdef0123b002"
	eventAutomation      = "0123456789abcdef0123b003"
	predefinedAutomation = "0123456789abcdef0123b004"
)

func webhookFakeOptions(more ...fakeapi.Option) []fakeapi.Option {
	return append([]fakeapi.Option{
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj", ID: webhookAutomation, Trigger: fakeapi.TriggerWebhook}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj", ID: scheduledAutomation}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj", ID: eventAutomation, Trigger: fakeapi.TriggerEvent}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj", ID: predefinedAutomation, Predefined: true}),
	}, more...)
}

// TestAutomationWebhookRuns: the webhook call runs a webhook automation,
// sends no body, and answers the run's id.
func TestAutomationWebhookRuns(t *testing.T) {
	t.Parallel()
	c, fake, _ := newFake(t, webhookFakeOptions()...)
	run, err := c.TriggerAutomationWebhook(t.Context(), "proj", webhookAutomation)
	if err != nil || !run.Success || run.RunID == "" {
		t.Fatalf("TriggerAutomationWebhook = %+v, %v", run, err)
	}
	runs := fake.AutomationRuns()
	if len(runs) != 1 || !runs[0].Webhook || runs[0].InstanceID != run.RunID {
		t.Errorf("runs = %+v, want the one webhook run %s", runs, run.RunID)
	}
	reqs := fake.Requests()
	if last := reqs[len(reqs)-1]; last.Method != http.MethodPost || last.Path != "/v2/workflow/proj/"+webhookAutomation+"/webhook" || len(last.Body) != 0 {
		t.Errorf("request = %s %s with body %q, want a POST of the webhook with no body", last.Method, last.Path, last.Body)
	}
}

// TestAutomationWebhookRefusals: each refusal reads as what it means, and
// certainly queued nothing.
func TestAutomationWebhookRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		id   string
		opts []fakeapi.Option
		want WebhookRefusal
	}{
		{"a scheduled automation", scheduledAutomation, nil, WebhookNotAWebhookAutomation},
		{"an automation run by an event", eventAutomation, nil, WebhookNotAWebhookAutomation},
		{"a predefined automation", predefinedAutomation, nil, WebhookNotAWebhookAutomation},
		{"no such automation", "ffffffffffffffffffffffff", nil, WebhookNotAWebhookAutomation},
		{"a read-only key", webhookAutomation, []fakeapi.Option{fakeapi.WithFaults(fakeapi.FaultRule{Faults: []fakeapi.Fault{{Kind: fakeapi.FaultStatus, Status: http.StatusForbidden}}})}, WebhookKeyRefused},
		{"a rejected key", webhookAutomation, []fakeapi.Option{fakeapi.WithFaults(fakeapi.FaultRule{Faults: []fakeapi.Fault{{Kind: fakeapi.FaultStatus, Status: http.StatusUnauthorized}}})}, WebhookKeyRefused},
		{"a rate limit that outlasts the retries", webhookAutomation, []fakeapi.Option{fakeapi.WithFaults(fakeapi.FaultRule{Faults: []fakeapi.Fault{fakeapi.TooManyRequests(time.Second)}})}, WebhookRateLimited},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, fake, _ := newFake(t, webhookFakeOptions(tt.opts...)...)
			_, err := c.TriggerAutomationWebhook(t.Context(), "proj", tt.id)
			var start *StartError
			if !errors.As(err, &start) || start.MayHaveStarted || WebhookRefusalOf(err) != tt.want {
				t.Fatalf("err = %v (refusal %q), want %q that certainly queued nothing", err, WebhookRefusalOf(err), tt.want)
			}
			if !strings.Contains(err.Error(), "no webhook automation run was started") {
				t.Errorf("err = %q does not say that nothing was queued", err)
			}
			if n := len(fake.AutomationRuns()); n != 0 {
				t.Errorf("%d runs queued, want none", n)
			}
		})
	}
	// Another call's 404 is not the webhook's.
	if got := WebhookRefusalOf(&APIError{Route: "POST /v1/workflow/proj/" + scheduledAutomation + "/trigger", StatusCode: 404}); got != "" {
		t.Errorf("WebhookRefusalOf(a 404 of Trigger automation) = %q, want none", got)
	}
}

// TestAutomationWebhookNeverRepeated: an answer that may hide a queued run
// is not retried (a run uses credits); a 429 is, after its Retry-After.
func TestAutomationWebhookNeverRepeated(t *testing.T) {
	t.Parallel()
	for _, f := range []fakeapi.Fault{fakeapi.ServerError(http.StatusBadGateway), fakeapi.LoseAnswer(), fakeapi.DropConnection()} {
		c, fake, _ := newFake(t, webhookFakeOptions(fakeapi.WithFaults(fakeapi.FaultRule{Count: 1, Faults: []fakeapi.Fault{f}}))...)
		_, err := c.TriggerAutomationWebhook(t.Context(), "proj", webhookAutomation)
		var start *StartError
		if !errors.As(err, &start) || !start.MayHaveStarted {
			t.Errorf("%v: err = %v, want a start that may have happened", f.Kind, err)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("%v: %d requests, want 1: no retry", f.Kind, n)
		}
	}
	c, fake, clk := newFake(t, webhookFakeOptions(fakeapi.WithFaults(fakeapi.FaultRule{Count: 1, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(7 * time.Second)}}))...)
	start := clk.Now()
	if _, err := c.TriggerAutomationWebhook(t.Context(), "proj", webhookAutomation); err != nil {
		t.Fatal(err)
	}
	if took := clk.Now().Sub(start); took < 7*time.Second || len(fake.AutomationRuns()) != 1 {
		t.Errorf("retried after %s with %d runs, want one run after the 7 s the API asked for", took, len(fake.AutomationRuns()))
	}
}

// TestAutomationWebhookSharesTheTriggerPace: webhook runs, deployments and
// automation triggers share one paced window of 10 per 10 seconds, so that
// the API refuses none of them.
func TestAutomationWebhookSharesTheTriggerPace(t *testing.T) {
	t.Parallel()
	c, fake, clk := newFake(t, webhookFakeOptions()...)
	start := clk.Now()
	for i := range 21 {
		var err error
		switch i % 3 {
		case 0:
			_, err = c.TriggerAutomationWebhook(t.Context(), "proj", webhookAutomation)
		case 1:
			_, err = c.TriggerDeployment(t.Context(), "proj")
		default:
			_, err = c.TriggerAutomation(t.Context(), "proj", scheduledAutomation)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := fake.TriggersRefused(); n != 0 {
		t.Errorf("the API refused %d triggers, want 0", n)
	}
	if took := clk.Now().Sub(start); took < 20*time.Second || took > 21*time.Second {
		t.Errorf("21 triggers took %s of virtual time, want the 21st 20 s after the first", took)
	}
}

// TestAutomationWebhookAnswerChecked: an answer whose run id is not an id,
// or that says it failed, is an error that may hide a queued run.
func TestAutomationWebhookAnswerChecked(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"success": true, "runId": "\u001b[31mx"}`, `{"success": false, "runId": "run_1"}`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(srv.URL))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.TriggerAutomationWebhook(t.Context(), "proj", webhookAutomation)
		var start *StartError
		var invalid *InvalidValueError
		if !errors.As(err, &start) || !start.MayHaveStarted || !errors.As(err, &invalid) {
			t.Errorf("%s: err = %v, want an invalid value that may hide a run", body, err)
		}
	}
}
