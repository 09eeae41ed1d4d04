package automation

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ action.Action               = (*automationRunAction)(nil)
	_ action.ActionWithConfigure  = (*automationRunAction)(nil)
	_ action.ActionWithModifyPlan = (*automationRunAction)(nil)
)

// NewAutomationRunAction returns the mintlify_automation_run action.
func NewAutomationRunAction() action.Action {
	return &automationRunAction{core.ProjectAction{Doing: "Running an automation"}}
}

type automationRunAction struct {
	core.ProjectAction
}

type automationRunActionModel struct {
	AutomationID      types.String `tfsdk:"automation_id"`
	AutomationTrigger types.String `tfsdk:"automation_trigger"`
	ProjectID         types.String `tfsdk:"project_id"`
	Timeout           types.String `tfsdk:"timeout"`
}

func (m *automationRunActionModel) ProjectInputs() (projectID, timeout types.String) {
	return m.ProjectID, m.Timeout
}

func (a *automationRunAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_automation_run"
}

func (a *automationRunAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a Mintlify automation with a custom schedule or a Webhook trigger now, once each " +
			"time the action is invoked or triggered, and reports the run's ids. " + automationRunQueued,
		Attributes: map[string]schema.Attribute{
			"automation_id": schema.StringAttribute{
				MarkdownDescription: "The id of the automation to run, from its settings in the dashboard.",
				Required:            true,
				Validators:          []validator.String{automationIDValidator},
			},
			"automation_trigger": schema.StringAttribute{
				MarkdownDescription: automationTriggerDescription(),
				Optional:            true,
				Validators:          automationTriggerValidators,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project of the automation. Defaults to the provider's `project_id`.",
				Optional:            true,
				Validators:          core.ProjectIDValidators,
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "How long queueing the run may take, turns within the rate limit included. " +
					"Defaults to `" +
					core.FormatDuration(defaultTriggerTimeout) + "`.",
				Optional:   true,
				Validators: []validator.String{core.Durations.Operation},
			},
		},
	}
}

func (a *automationRunAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	call, ok := core.BeginInvoke[automationRunActionModel](ctx, &a.ProjectAction, defaultTriggerTimeout, req, resp)
	defer call.Cancel()
	if !ok {
		return
	}
	m, projectID := call.Plan, call.ProjectID
	ctx, _ = core.WithProgress(call.Ctx, resp)
	automationID, trigger := m.AutomationID.ValueString(), triggerOf(m.AutomationTrigger)
	run, op, err := runAutomation(ctx, a.Provider.Client, trigger, projectID, automationID)
	if err != nil {
		resp.Diagnostics.Append(op.Within(call.Budget).Diagnostic(err))
		return
	}
	tflog.Info(ctx, LogAutomationRunQueued, run.logFields(projectID, automationID, trigger))
	resp.SendProgress(action.InvokeProgressEvent{Message: run.progress(projectID, automationID)})
}
