package automation

import (
	"fmt"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// What the diagnostics of "Trigger automation" say: a 404 is an automation
// the project does not have; a 400 is one of three documented refusals,
// which the answer's text (undocumented) may name.

// TriggerAutomationOp is "Trigger automation" of an automation in a
// project.
func TriggerAutomationOp(projectID, automationID string) core.APIOperation {
	return core.APIOperation{Call: callTriggerAutomation, ProjectID: projectID, JobID: automationID, Attr: pathAutomationID,
		Doing: fmt.Sprintf("running automation %s of project %s", automationID, projectID)}
}

var callTriggerAutomation = core.APICall{OperationID: "triggerAutomation", Text: core.CallText{
	NotFound: "Mintlify Automation Not Found",
	Missing: func(op core.APIOperation) string {
		return fmt.Sprintf("it has no automation %q in project %q", op.JobID, op.ProjectID)
	},
	NotFoundAdvice: "Check `automation_id`: copy the id from the automation's settings in the Mintlify dashboard, " +
		"and check that `project_id` (or the provider's `project_id`) is the project the automation belongs to. " +
		"A custom automation whose trigger is Webhook runs through its webhook instead: set " +
		"`automation_trigger = \"" + triggerWebhook + "\"`.",
	Forbidden:      core.WriteRefused,
	BadRequest:     automationRefused,
	Conflict:       core.CallOfProject.Conflict,
	NotStarted:     runNotQueued,
	MayHaveStarted: runMayHaveBeenQueued("automation %s", "its id"),
}}

// runNotQueued is what a refused run did not do, with either call.
const runNotQueued = "No automation run was queued."

// runMayHaveBeenQueued says what a run without a definite answer may have
// done: subject names the automation (with a %s for its id), ids what is
// unknown of the run.
func runMayHaveBeenQueued(subject, ids string) func(op core.APIOperation) (summary, next string) {
	return func(op core.APIOperation) (summary, next string) {
		return "Automation Run May Have Been Queued", fmt.Sprintf("The request reached the Mintlify API but no "+
			"definite answer came back, so a run of "+subject+" may have been queued; "+ids+" is unknown. The "+
			"provider did not retry, because a retry could run the automation twice (each run uses credits), and "+
			"nothing was saved in state. Check the automation's run history in the Mintlify dashboard before you "+
			"apply again: applying again queues a new run.", op.JobID)
	}
}

// automationRefusal is one documented reason for a 400 of "Trigger
// automation", with its fix.
type automationRefusal struct {
	summary string
	// words are what the answer's text says when it names this reason.
	words []string
	what  string
	fix   string
}

var automationRefusals = []automationRefusal{
	{
		summary: "Mintlify Automation Not Active",
		words:   []string{"not active", "inactive", "disabled", "paused"},
		what:    "the automation is not active",
		fix:     "Turn the automation on in the Mintlify dashboard (Automations), then apply again.",
	},
	{
		summary: "Mintlify Automation Has No Custom Schedule",
		words:   []string{"custom schedule"},
		what: "the automation does not run on a custom schedule (its trigger is a webhook, or an event such as a " +
			"push, or it is a predefined automation), and only an automation with a custom schedule can be run " +
			"through this call",
		fix: "If its trigger is Webhook, set `automation_trigger = \"" + triggerWebhook + "\"` to run it through its " +
			"webhook. Otherwise give the automation a custom schedule in the Mintlify dashboard, or let its event " +
			"run it and remove this run from the configuration.",
	},
	{
		summary: "Malformed Mintlify Automation ID",
		words:   []string{"invalid automation id", "malformed", "invalid id"},
		what:    "the automation id is malformed",
		fix: "Copy `automation_id` again, exactly, from the automation's settings in the Mintlify dashboard " +
			"(Automations), and apply again. The provider refuses only what cannot be an id at all, so any " +
			"other mistyped id reaches the API.",
	},
}

// automationRefused explains a 400 of "Trigger automation": the reason the
// answer's text names, when it names exactly one, or else each documented
// reason with its fix.
func automationRefused(op core.APIOperation, f mintlify.Fault) (summary, detail string) {
	message := core.APIMessage(f)
	if r, ok := namedAutomationRefusal(message); ok {
		return r.summary, fmt.Sprintf("The Mintlify API refused to run automation %s of project %s (HTTP 400: %s): "+
			"%s. %s", op.JobID, op.ProjectID, message, r.what, r.fix)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The Mintlify API refused to run automation %s of project %s (HTTP 400: %s). The API refuses a "+
		"run for one of these reasons:", op.JobID, op.ProjectID, message)
	for _, r := range automationRefusals {
		fmt.Fprintf(&b, "\n  - %s. %s", core.Capitalized(r.what), r.fix)
	}
	return "Mintlify Refused The Automation Run", b.String()
}

// namedAutomationRefusal is the reason that message names, when it names
// exactly one: a text that matches none, or several, names nothing.
func namedAutomationRefusal(message string) (automationRefusal, bool) {
	lower := strings.ToLower(message)
	var named []automationRefusal
	for _, r := range automationRefusals {
		for _, w := range r.words {
			if strings.Contains(lower, w) {
				named = append(named, r)
				break
			}
		}
	}
	if len(named) != 1 {
		return automationRefusal{}, false
	}
	return named[0], true
}

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
