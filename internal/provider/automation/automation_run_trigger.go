package automation

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// How an automation is run: the argument `automation_trigger` names the
// automation's trigger as its settings in the Mintlify dashboard show it,
// and so the call that runs it. (Not `trigger`: beside `triggers`, the
// strings whose change runs the automation again, it would read as one of
// them.)

// The automation's triggers that the API can run on demand.
const (
	// triggerSchedule is a custom automation with a custom schedule, run
	// through "Trigger automation"; the default.
	triggerSchedule = "schedule"
	// triggerWebhook is a custom automation with a Webhook trigger, run
	// through "Trigger automation webhook".
	triggerWebhook = "webhook"
)

var pathAutomationTrigger = path.Root("automation_trigger")

// automationTriggers are the values of `automation_trigger`, each with what
// it says of the automation; its description and validator are built from
// this list.
var automationTriggers = []struct{ value, means string }{
	{triggerSchedule, "a custom schedule"},
	{triggerWebhook, "a Webhook trigger"},
}

// automationTriggerValidators refuse, at plan time, a value that is not in
// automationTriggers.
var automationTriggerValidators = func() []validator.String {
	values := make([]string, len(automationTriggers))
	for i, t := range automationTriggers {
		values[i] = t.value
	}
	return []validator.String{stringvalidator.OneOf(values...)}
}()

// automationTriggerDescription is the description of `automation_trigger`.
func automationTriggerDescription() string {
	kinds := make([]string, len(automationTriggers))
	for i, t := range automationTriggers {
		kinds[i] = fmt.Sprintf("`%s` for %s", t.value, t.means)
	}
	return "The custom automation's trigger: " + strings.Join(kinds, ", ") + ". Defaults to `" + triggerSchedule +
		"`. A predefined or event-run automation cannot be run through the API."
}

// triggerOf is the known value of `automation_trigger`, or its default.
func triggerOf(v types.String) string {
	if v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
		return triggerSchedule
	}
	return v.ValueString()
}

// replaceOnOtherTrigger replaces the resource, that is runs the automation
// again, when `automation_trigger` names another trigger, or one not known
// until apply; leaving it out and setting the default are the same.
var replaceOnOtherTrigger = []planmodifier.String{stringplanmodifier.RequiresReplaceIf(
	func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = req.PlanValue.IsUnknown() || triggerOf(req.StateValue) != triggerOf(req.PlanValue)
	},
	"Changing the trigger to another one runs the automation again, through the other call.",
	"Changing the trigger to another one runs the automation again, through the other call.",
)}

// queuedRun is what one of the two calls answered: an instance and a job
// for "Trigger automation", a run for the webhook; what the other call
// answers is null.
type queuedRun struct {
	InstanceID, JobID, RunID types.String
}

// id is the run's id in state: its job's, or the webhook run's.
func (r queuedRun) id() types.String {
	if !r.RunID.IsNull() {
		return r.RunID
	}
	return r.JobID
}

// logFields are the run's ids, for the log line LogAutomationRunQueued.
func (r queuedRun) logFields(projectID, automationID, trigger string) map[string]any {
	fields := map[string]any{"project_id": projectID, "automation_id": automationID, "automation_trigger": trigger}
	for name, v := range map[string]types.String{"instance_id": r.InstanceID, "job_id": r.JobID, "run_id": r.RunID} {
		if !v.IsNull() {
			fields[name] = v.ValueString()
		}
	}
	return fields
}

// progress is what the action reports of the run.
func (r queuedRun) progress(projectID, automationID string) string {
	ids := fmt.Sprintf("run %s", r.RunID.ValueString())
	if r.RunID.IsNull() {
		ids = fmt.Sprintf("instance %s, job %s", r.InstanceID.ValueString(), r.JobID.ValueString())
	}
	return fmt.Sprintf("Queued a run of automation %s in project %s (%s). The run is queued, not finished: its "+
		"result shows in the automation's run history in the Mintlify dashboard.", automationID, projectID, ids)
}

// runAutomation runs the automation through the call its trigger needs,
// and returns the run, or the operation that failed with its error.
func runAutomation(ctx context.Context, c *mintlify.Client, trigger, projectID, automationID string) (queuedRun, core.APIOperation, error) {
	none := types.StringNull()
	if trigger == triggerWebhook {
		op := TriggerAutomationWebhookOp(projectID, automationID)
		run, err := c.TriggerAutomationWebhook(ctx, projectID, automationID)
		if err != nil {
			return queuedRun{}, op, err
		}
		return queuedRun{InstanceID: none, JobID: none, RunID: types.StringValue(run.RunID)}, op, nil
	}
	op := TriggerAutomationOp(projectID, automationID)
	run, err := c.TriggerAutomation(ctx, projectID, automationID)
	if err != nil {
		return queuedRun{}, op, err
	}
	return queuedRun{InstanceID: types.StringValue(run.InstanceID), JobID: types.StringValue(run.JobID), RunID: none}, op, nil
}
