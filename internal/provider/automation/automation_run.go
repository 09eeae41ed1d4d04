package automation

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ resource.Resource                = (*automationRunResource)(nil)
	_ resource.ResourceWithConfigure   = (*automationRunResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*automationRunResource)(nil)
	_ resource.ResourceWithImportState = (*automationRunResource)(nil)
)

var pathAutomationID = path.Root("automation_id")

// NewAutomationRunResource returns the mintlify_automation_run resource.
func NewAutomationRunResource() resource.Resource {
	return &automationRunResource{}
}

// automationRunResource runs an automation when it is created, and again
// whenever `triggers` change, by replacing itself: each run is a new run,
// with its own ids, and the API has nothing to update or delete.
type automationRunResource struct {
	core.ConfiguredResource
}

type automationRunResourceModel struct {
	AutomationID      types.String   `tfsdk:"automation_id"`
	AutomationTrigger types.String   `tfsdk:"automation_trigger"`
	ProjectID         types.String   `tfsdk:"project_id"`
	Triggers          types.Map      `tfsdk:"triggers"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`

	ID         types.String `tfsdk:"id"`
	InstanceID types.String `tfsdk:"instance_id"`
	JobID      types.String `tfsdk:"job_id"`
	RunID      types.String `tfsdk:"run_id"`
}

func (m *automationRunResourceModel) ProjectInputs() (*types.String, timeouts.Value) {
	return &m.ProjectID, m.Timeouts
}

func (r *automationRunResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_automation_run"
}

// automationIDValidator refuses, at plan time, what cannot be an automation
// id in the URL path; the API judges the rest (its 400 and 404 say what to
// do), since Mintlify documents no shape for its ids.
var automationIDValidator = core.PathSegmentID("Invalid Automation ID", "automation id", "the automation's settings in the Mintlify dashboard")

// automationRunQueued says what an apply that ran an automation has done.
const automationRunQueued = "The run is queued, not finished, when the apply returns; its result shows in the " +
	"dashboard's run history. Each run uses credits."

func (r *automationRunResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a Mintlify automation with a custom schedule or a Webhook trigger now. Changing " +
			"`triggers`, `automation_id`, `automation_trigger` or a configured `project_id` runs it again. " +
			automationRunQueued + " The API cannot read, stop or delete a run: destroy only removes it from state.",
		Attributes: map[string]schema.Attribute{
			"automation_id": schema.StringAttribute{
				MarkdownDescription: "The id of the automation to run, from its settings in the dashboard.",
				Required:            true,
				Validators:          []validator.String{automationIDValidator},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"automation_trigger": schema.StringAttribute{
				MarkdownDescription: automationTriggerDescription() + " Changing it to the other trigger runs the " +
					"automation again.",
				Optional:      true,
				Validators:    automationTriggerValidators,
				PlanModifiers: replaceOnOtherTrigger,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project of the automation. Defaults to the provider's " +
					"`project_id` when the automation runs.",
				Optional:      true,
				Computed:      true,
				Validators:    core.ProjectIDValidators,
				PlanModifiers: core.KeepString, // replacement is decided in ModifyPlan, which knows the provider's project
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary strings whose change runs the automation again (by replacing this " +
					"resource), such as `triggers = { release = var.app_version }`.",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"timeouts": core.Timeouts.Resource(ctx, timeouts.Opts{
				Create: true,
				CreateDescription: "How long queueing the run may take, turns within the rate limit included. " +
					"Defaults to `" + core.FormatDuration(defaultTriggerTimeout) + "`.",
			}),
			"id": schema.StringAttribute{
				MarkdownDescription: "The id of the run: `job_id` for an automation with a custom schedule, " +
					"`run_id` for a webhook automation.",
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
			"instance_id": schema.StringAttribute{
				MarkdownDescription: "The id of the run (the automation's instance); null for a webhook automation.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The id of the job that carries out the run; null for a webhook automation.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"run_id": schema.StringAttribute{
				MarkdownDescription: "The id of the run of a webhook automation; null for a scheduled one.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
		},
	}
}

// ModifyPlan settles the project: the configured one or the provider's,
// and a replacement, that is a new run, when a configured one changes.
func (r *automationRunResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer core.CheckKeyOnCreate(ctx, r.Provider, req, resp)
	core.PlanProjectID(ctx, r.Provider, "Running an automation", req, resp)
}

func (r *automationRunResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	call, ok := core.BeginCreate[automationRunResourceModel](ctx, r.Provider, "Running an automation", defaultTriggerTimeout, req, resp)
	defer call.Cancel()
	if !ok {
		return
	}
	ctx, plan, projectID := call.Ctx, call.Plan, call.ProjectID
	automationID, trigger := plan.AutomationID.ValueString(), triggerOf(plan.AutomationTrigger)
	run, op, err := runAutomation(ctx, r.Provider.Client, trigger, projectID, automationID)
	if err != nil {
		resp.Diagnostics.Append(op.Within(call.Budget).Diagnostic(err))
		return
	}
	tflog.Info(ctx, LogAutomationRunQueued, run.logFields(projectID, automationID, trigger))
	plan.ID, plan.InstanceID, plan.JobID, plan.RunID = run.id(), run.InstanceID, run.JobID, run.RunID
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read keeps the state: the API has no call to read a run.
func (r *automationRunResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// Update records a new timeout, the only argument that changes without
// a new run.
func (r *automationRunResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan automationRunResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

// Delete forgets the run: the API can neither stop nor delete one.
func (r *automationRunResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var id types.String
	if diags := req.State.GetAttribute(ctx, path.Root("id"), &id); !diags.HasError() {
		tflog.Info(ctx, "Forgetting automation run; the Mintlify API cannot stop or delete a run", map[string]any{"id": id.ValueString()})
	}
}

// ImportState refuses: the resource is the record of a run it queued, and
// the API has no call that reads a run, so there is nothing to adopt.
func (r *automationRunResource) ImportState(_ context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.AddError("Automation Run Cannot Be Imported",
		fmt.Sprintf("A mintlify_automation_run records a run that it queued itself, and the Mintlify API has no "+
			"call that reads a run, so %s cannot be adopted. Remove the `import` block (or skip `terraform "+
			"import`), and declare the resource with the automation's `automation_id`: the next apply queues a new "+
			"run. The runs so far are in the automation's run history in the Mintlify dashboard.", importedAs(req)))
}

// importedAs names what an import asked for: its id, or its identity.
func importedAs(req resource.ImportStateRequest) string {
	if req.ID == "" {
		return "a run"
	}
	return fmt.Sprintf("the run %q", req.ID)
}
