package automation

import (
	"fmt"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// What the diagnostics of "Trigger automation webhook" say: its 404 means
// that the project has no automation of that id with a Webhook trigger,
// which the API does not tell apart from an automation it has with another
// trigger, so the diagnostic names each kind with the setting it needs.

// TriggerAutomationWebhookOp is "Trigger automation webhook" of an
// automation in a project.
func TriggerAutomationWebhookOp(projectID, automationID string) core.APIOperation {
	return core.APIOperation{Call: callTriggerAutomationWebhook, ProjectID: projectID, JobID: automationID,
		Attr:  pathAutomationTrigger,
		Doing: fmt.Sprintf("running automation %s of project %s through its webhook", automationID, projectID)}
}

// notAWebhookAutomation is the advice of a 404 of the webhook call: each
// kind of automation that answers it, with its setting.
var notAWebhookAutomation = "Only a custom automation whose trigger is Webhook runs through its webhook, and the " +
	"API answers 404 for any other automation as for a missing one. Which one is it?\n" +
	"  - A custom automation with a custom schedule: remove `automation_trigger` (or set it to `\"" +
	triggerSchedule + "\"`), which runs it through the Trigger automation call.\n" +
	"  - A predefined automation, or a custom one run by an event such as a push: the API cannot run it on " +
	"demand; let its own trigger run it, or give it a Webhook trigger in the Mintlify dashboard.\n" +
	"  - None of these: check `automation_id` (copy the id from the automation's settings in the Mintlify " +
	"dashboard, where a webhook automation's trigger card shows its webhook URL) and that `project_id` (or the " +
	"provider's `project_id`) is the project the automation belongs to."

var callTriggerAutomationWebhook = core.APICall{OperationID: "triggerAutomationWebhook", Text: core.CallText{
	NotFound: "Mintlify Automation Has No Webhook Trigger",
	Missing: func(op core.APIOperation) string {
		return fmt.Sprintf("it has no automation %q with a Webhook trigger in project %q", op.JobID, op.ProjectID)
	},
	NotFoundAdvice: notAWebhookAutomation,
	Forbidden:      core.WriteRefused,
	BadRequest:     webhookRefused,
	Conflict:       core.CallOfProject.Conflict,
	NotStarted:     runNotQueued,
	MayHaveStarted: runMayHaveBeenQueued("webhook automation %s", "its `run_id`"),
}}

// webhookRefused explains a 400 of the webhook call, which Mintlify does
// not document: an id of a shape the API does not take is the one argument
// the call has, and the provider refuses only what cannot be an id at all.
func webhookRefused(op core.APIOperation, f mintlify.Fault) (summary, detail string) {
	return "Mintlify Refused The Automation Run", fmt.Sprintf("The Mintlify API rejected the request while %s "+
		"(HTTP 400: %s). The call's one argument is the automation's id: copy "+
		"`automation_id` again, exactly, from the automation's settings in the Mintlify dashboard (the trigger card "+
		"of a webhook automation shows its webhook URL, which ends with the id and `/webhook`), and apply again.",
		op.Doing, core.APIMessage(f))
}
