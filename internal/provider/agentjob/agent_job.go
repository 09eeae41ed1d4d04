package agentjob

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ resource.Resource                = (*agentJobResource)(nil)
	_ resource.ResourceWithConfigure   = (*agentJobResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*agentJobResource)(nil)
	_ resource.ResourceWithImportState = (*agentJobResource)(nil)
	_ resource.ResourceWithIdentity    = (*agentJobResource)(nil)
)

// NewAgentJobResource returns the mintlify_agent_job resource.
func NewAgentJobResource() resource.Resource {
	return &agentJobResource{}
}

type agentJobResource struct {
	core.ConfiguredResource
}

type agentJobResourceModel struct {
	Prompt types.String `tfsdk:"prompt"`
	core.TrackedJob
	agentJobFields
}

// agentJobIdentityModel is the resource's identity: the job, in its project.
type agentJobIdentityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	JobID     types.String `tfsdk:"job_id"`
}

func (r *agentJobResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (r *agentJobResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts a job of the Mintlify documentation agent on a prompt, and follows it to the pull " +
			"request the agent opens. Only a change of `prompt`, `triggers` or a configured `project_id` starts " +
			"another job. The API cannot delete a job: destroy only removes it from state.",
		Attributes: map[string]schema.Attribute{
			// Optional
			"prompt": schema.StringAttribute{
				MarkdownDescription: "What the agent should do, such as `Document the --dry-run flag added in v2.3`. " +
					"Changing it starts a new agent job. Only an imported job may leave it out.",
				Optional:      true,
				Validators:    []validator.String{core.NotBlank("Write what the agent should do, such as \"Document the new CLI flags\".")},
				PlanModifiers: []planmodifier.String{replaceAgentJobUnlessImported.String()},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project to run the agent in. Defaults to the provider's " +
					"`project_id` when the job is started.",
				Optional:      true,
				Computed:      true,
				Validators:    core.ProjectIDValidators,
				PlanModifiers: core.KeepString, // replacement is decided in ModifyPlan, which knows the provider's project
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary strings whose change starts a new agent job, such as " +
					"`{ release = var.app_version }`.",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Map{replaceAgentJobUnlessImported.Map()},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the job is `completed`, `archived` or `failed` before the apply " +
					"goes on. Defaults to `true`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"timeouts": core.Timeouts.Resource(ctx, timeouts.Opts{
				Create:            true,
				CreateDescription: "How long to wait for the job to finish. Defaults to `30m`.",
				Read:              true,
				ReadDescription:   "How long a refresh may take. Defaults to `" + core.FormatDuration(core.DefaultReadTimeout) + "`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The ID of the agent job.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
		},
	}
	for name, attr := range agentJobResourceFields() {
		resp.Schema.Attributes[name] = attr
	}
}

func (r *agentJobResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = core.JobIdentitySchema("The Mintlify project of the agent job. Defaults to the provider's `project_id` on import.",
		"job_id", "The ID of the agent job.")
}

func (r *agentJobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	call, ok := core.BeginCreate[agentJobResourceModel](ctx, r.Provider, "Starting an agent job", defaultAgentWaitTimeout, req, resp)
	defer call.Cancel()
	if !ok {
		return
	}
	ctx, plan, projectID := call.Ctx, call.Plan, call.ProjectID
	client := r.Provider.Client

	job := r.takeOverJob(ctx, projectID, &plan)
	if job == nil {
		var err error
		job, err = client.CreateAgentJob(ctx, projectID, plan.Prompt.ValueString())
		if err != nil {
			resp.Diagnostics.Append(CreateAgentJobOp(projectID).Diagnostic(err))
			return
		}
	}
	ctx = tflog.SetField(ctx, "agent_job_id", job.ID)
	// The state gets the job only when Create returns: a Terraform killed
	// meanwhile loses it, and this line is how its user finds the job to
	// import (guide "Running in CI").
	tflog.Info(ctx, LogAgentJobStarted, map[string]any{"project_id": projectID, "import_id": projectID + "/" + job.ID})

	// Record the job before waiting, so that every return below, errors and
	// interruptions included, hands it to Terraform with the state.
	plan.ID = types.StringValue(job.ID)
	resp.Diagnostics.Append(plan.set(job)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, projectID, job.ID)...)
	if resp.Diagnostics.HasError() || !plan.WaitForCompletion.ValueBool() {
		return
	}
	resp.Diagnostics.Append(r.wait(ctx, &plan, job, agentWaitOnCreate(call.Budget))...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *agentJobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	call, ok := core.BeginRead[agentJobResourceModel](ctx, r.Provider, req, resp)
	defer call.Cancel()
	state := call.State
	projectID, jobID := state.ProjectID.ValueString(), state.ID.ValueString()
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, projectID, jobID)...)
	if !ok {
		return
	}
	job, err := r.Provider.Client.GetAgentJob(call.Ctx, projectID, jobID)
	op := GetAgentJobOp(projectID, jobID).Within(call.Budget)
	switch {
	case mintlify.IsNotFound(err) && state.Prompt.IsNull() && state.Status.IsNull():
		// Freshly imported: there is nothing to adopt.
		resp.Diagnostics.Append(op.Advise(http.StatusNotFound, "There is nothing to import: check the job ID and "+
			"the project, and import as `PROJECT_ID/JOB_ID`, or as `JOB_ID` in the provider's project.").Diagnostic(err))
		return
	case mintlify.IsNotFound(err):
		resp.Diagnostics.Append(agentJobGoneWarning(projectID, jobID))
		return
	case err != nil:
		resp.Diagnostics.Append(op.While(fmt.Sprintf("refreshing agent job %s in project %s", jobID, projectID)).Diagnostic(err))
		return
	}
	resp.Diagnostics.Append(state.set(job)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update records changed arguments, which change nothing on the Mintlify
// side, and waits for the job when the plan decided to resume (see
// core.PlanResume).
func (r *agentJobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	call, resume := core.BeginResume[agentJobResourceModel](ctx, r.Provider, defaultAgentWaitTimeout, req, resp)
	defer call.Cancel()
	ctx, plan, state := call.Ctx, call.Plan, call.State
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, plan.ProjectID.ValueString(), plan.ID.ValueString())...)
	if !resume {
		return
	}
	ctx = tflog.SetField(ctx, "agent_job_id", plan.ID.ValueString())

	// Start from the job as last read, which stays if it cannot be read.
	plan.agentJobFields = state.agentJobFields
	resp.Diagnostics.Append(r.wait(ctx, &plan, nil, agentWaitOnResume(call.Budget))...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete forgets the job: the API has no way to delete an agent job. A job
// still active is left to the resource's replacement (leaveJob).
func (r *agentJobResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var state agentJobResourceModel
	if diags := req.State.Get(ctx, &state); !diags.HasError() {
		tflog.Info(ctx, "Forgetting agent job; the Mintlify API has no delete", map[string]any{"agent_job_id": state.ID.ValueString()})
		r.leaveJob(ctx, &state)
	}
}

// ImportState adopts an existing agent job: by `PROJECT_ID/JOB_ID`, by
// `JOB_ID` in the provider's project, or by identity. The API does not
// return the prompt: the first plan after the import takes `prompt` and
// `triggers` from configuration, without starting a job.
func (r *agentJobResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	projectID, jobID, diags := agentJobImportID(ctx, req)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if projectID == "" && r.Provider != nil {
		projectID = r.Provider.ProjectID
	}
	if projectID == "" {
		resp.Diagnostics.AddError("Missing Project ID",
			fmt.Sprintf("Importing the agent job %s needs its Mintlify project, and the provider names none. Import as "+
				"`PROJECT_ID/%s` (or set `project_id` in the identity), or set `project_id` on the mintlify provider "+
				"(or the `%s` environment variable).", jobID, jobID, core.Env.ProjectID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), jobID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, core.PathProjectID, projectID)...)
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, projectID, jobID)...)
}

// agentJobImportID reads the job to import, and its project when named,
// from the import id or the identity.
func agentJobImportID(ctx context.Context, req resource.ImportStateRequest) (projectID, jobID string, diags diag.Diagnostics) {
	if req.ID == "" {
		var identity agentJobIdentityModel
		diags.Append(req.Identity.Get(ctx, &identity)...)
		return identity.ProjectID.ValueString(), identity.JobID.ValueString(), diags
	}
	projectID, jobID, named := strings.Cut(req.ID, "/")
	if !named {
		projectID, jobID = "", req.ID
	}
	if jobID == "" || strings.Contains(jobID, "/") || named && projectID == "" {
		diags.AddError("Invalid Import ID",
			fmt.Sprintf("%q is not an agent job to import. Import as `PROJECT_ID/JOB_ID`, for example "+
				"`terraform import mintlify_agent_job.docs proj_123/aj_456`, or as `JOB_ID` in the provider's "+
				"project.", req.ID))
	}
	return projectID, jobID, diags
}

// agentJobGoneWarning tells that a refresh got 404 for the job in state,
// which stays as it was last seen.
func agentJobGoneWarning(projectID, jobID string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Agent Job No Longer Found",
		fmt.Sprintf("The Mintlify API answered 404 for the agent job %s in project %s. The state keeps the job "+
			"as it was last seen and does not start it again: running the agent again opens a new pull request, "+
			"which only a change of `prompt`, `project_id` or `triggers`, or `terraform apply -replace`, may "+
			"cause. To stop tracking the job, run `terraform state rm` with the resource's address.", jobID, projectID))
}

// setAgentJobIdentity records the job's identity, where the framework asks
// for one (identity is nil for a Terraform without identity support).
func setAgentJobIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, projectID, jobID string) diag.Diagnostics {
	if identity == nil || projectID == "" || jobID == "" {
		return nil
	}
	return identity.Set(ctx, agentJobIdentityModel{ProjectID: types.StringValue(projectID), JobID: types.StringValue(jobID)})
}
