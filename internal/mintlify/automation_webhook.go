package mintlify

import (
	"context"
	"errors"
	"net/http"
	"strings"
)

// What StartError names for the webhook run of an automation.
const webhookRunWhat = "webhook automation run"

// WebhookRun is what running a webhook automation answers: the run is
// queued, and the API has no call to follow it.
type WebhookRun struct {
	Success bool   `json:"success"`
	RunID   string `json:"runId"`
}

// TriggerAutomationWebhook queues a run of a custom automation whose
// trigger is Webhook (POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook,
// no body). It shares the paced limit of TriggerDeployment and
// TriggerAutomation, and like them is never repeated when the API may have
// taken it: a run uses credits. Every error is a *StartError; read a
// refusal with WebhookRefusalOf.
func (c *Client) TriggerAutomationWebhook(ctx context.Context, projectID, automationID string) (*WebhookRun, error) {
	var out WebhookRun
	segments := []string{"v2", "workflow", projectID, automationID, "webhook"}
	if err := c.trigger(ctx, c.limits.triggers, segments, nil, &out); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: webhookRunWhat}
	}
	route := callRoute(http.MethodPost, segments)
	if err := checkID(route, "runId", out.RunID); err != nil {
		return nil, &StartError{MayHaveStarted: true, Err: err, What: webhookRunWhat}
	}
	if !out.Success {
		// A success status that says it failed: whether a run was queued
		// is unknown, so it is not retried.
		err := &InvalidValueError{Route: route, Field: "success", Shown: "false", Rule: "a queued run answers `true`"}
		return nil, &StartError{MayHaveStarted: true, Err: err, What: webhookRunWhat}
	}
	return &out, nil
}

// WebhookRefusal is what a refusal of TriggerAutomationWebhook means.
type WebhookRefusal string

const (
	// WebhookNotAWebhookAutomation is a 404: the project has no webhook
	// automation of that id. Either it has no automation of that id at
	// all, or the automation is predefined (no call runs it), or it is
	// custom with another trigger: a custom schedule (TriggerAutomation
	// runs it) or an event such as a push (no call runs it). The API's
	// answer does not tell which.
	WebhookNotAWebhookAutomation WebhookRefusal = "not a webhook automation"
	// WebhookKeyRefused is a 401 or 403: the key is invalid or expired,
	// lacks the write scope, or is used off its IP allowlist
	// (RefusalsNamed reads which).
	WebhookKeyRefused WebhookRefusal = "key refused"
	// WebhookRateLimited is a 429 that outlasted the retries: the
	// organization's 10 triggers per 10 seconds, shared with deployments
	// and automation triggers, are used by others.
	WebhookRateLimited WebhookRefusal = "rate limited"
)

// WebhookRefusalOf returns what err, an error of TriggerAutomationWebhook,
// says of the refusal, and "" for any other error (another call's
// included), which left the run unqueued or unknown (StartError says).
func WebhookRefusalOf(err error) WebhookRefusal {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !isWebhookRoute(apiErr.Route) {
		return ""
	}
	switch apiErr.StatusCode {
	case http.StatusNotFound:
		return WebhookNotAWebhookAutomation
	case http.StatusUnauthorized, http.StatusForbidden:
		return WebhookKeyRefused
	case http.StatusTooManyRequests:
		return WebhookRateLimited
	}
	return ""
}

// isWebhookRoute reports whether route is the webhook call of an
// automation, "POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook".
func isWebhookRoute(route string) bool {
	rest, ok := strings.CutPrefix(route, http.MethodPost+" /v2/workflow/")
	return ok && strings.Count(rest, "/") == 2 && strings.HasSuffix(rest, "/webhook")
}
