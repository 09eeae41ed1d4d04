package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

var (
	_ resource.Resource                = (*agentJobResource)(nil)
	_ resource.ResourceWithConfigure   = (*agentJobResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*agentJobResource)(nil)
	_ resource.ResourceWithImportState = (*agentJobResource)(nil)
	_ resource.ResourceWithIdentity    = (*agentJobResource)(nil)
)

var (
	pathPrompt    = path.Root("prompt")
	pathProjectID = path.Root("project_id")
)

// NewAgentJobResource returns the mintlify_agent_job resource.
func NewAgentJobResource() resource.Resource {
	return &agentJobResource{}
}

type agentJobResource struct {
	data *providerData
}

type agentJobResourceModel struct {
	// Inputs
	Prompt            types.String   `tfsdk:"prompt"`
	ProjectID         types.String   `tfsdk:"project_id"`
	Triggers          types.Map      `tfsdk:"triggers"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`

	// Computed
	ID         types.String `tfsdk:"id"`
	Status     types.String `tfsdk:"status"`
	Source     types.Object `tfsdk:"source"`
	Model      types.String `tfsdk:"model"`
	PRLink     types.String `tfsdk:"pr_link"`
	CreatedAt  types.String `tfsdk:"created_at"`
	ArchivedAt types.String `tfsdk:"archived_at"`
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
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts a job of the Mintlify documentation agent on a prompt, and follows it to the pull " +
			"request the agent opens.\n\n" +
			"Creating the resource starts the job, then, with `wait_for_completion` (the default), waits until the " +
			"job is `completed`, `archived` or `failed`, within `timeouts.create`. The job's id is saved in state " +
			"when the create returns. A `failed` job is an error and leaves a tainted resource that keeps the job's " +
			"id. A timeout or an interruption (Ctrl-C) does too: `terraform untaint` and apply again to wait for the " +
			"same job instead of starting another. A Terraform process that is killed (SIGKILL, out of memory, a CI " +
			"runner's hard timeout) loses the id, and the next apply starts a second agent job, which opens a second " +
			"pull request; the id is logged at `INFO` the moment the job starts, so that the job can be imported " +
			"instead (see the guide Running in CI).\n\n" +
			"Changing `prompt`, `triggers` or a configured `project_id` starts a new agent job, which opens a new " +
			"pull request; nothing else ever does. Refreshing reads the job; a job the API no longer returns stays in state, with " +
			"a warning, and is never run again by itself. The Mintlify API cannot delete an agent job: destroying " +
			"this resource only removes it from Terraform state, and the job and its pull request stay as they are.",
		Attributes: map[string]schema.Attribute{
			// Required
			"prompt": schema.StringAttribute{
				MarkdownDescription: "What the agent should do, such as `Document the --dry-run flag added in v2.3`. " +
					"Changing it starts a new agent job.",
				Required:      true,
				Validators:    []validator.String{notBlank("Write what the agent should do, such as \"Document the new CLI flags\".")},
				PlanModifiers: []planmodifier.String{replaceAgentJobUnlessImported.String()},
			},

			// Optional
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project to run the agent in. Defaults to the provider's " +
					"`project_id` (or `" + envProjectID + "`) when the job is started. Setting it to another project " +
					"starts a new agent job there; while it is not set, the job stays in the project it was started " +
					"(or imported) in, whatever the provider's project becomes.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{notBlank("Set it to the project ID from the API keys page of the Mintlify dashboard, or remove it to use the provider's `project_id`.")},
				PlanModifiers: keep, // replacement is decided in ModifyPlan, which knows the provider's project
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary strings whose change starts a new agent job, such as the release " +
					"that the docs should follow: `triggers = { release = var.app_version }`.",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Map{replaceAgentJobUnlessImported.Map()},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the job is `completed`, `archived` or `failed` before the apply " +
					"goes on, so that `pr_link` is known to later resources. With `false`, the apply records the job " +
					"as started (`active`) and refreshes fill in the rest. Changes nothing on the Mintlify side. " +
					"Defaults to `true`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"timeouts": resourceTimeouts(ctx, timeouts.Opts{
				Create: true,
				CreateDescription: "How long to wait for the job to finish, as a duration such as `1h`; it also bounds " +
					"the wait that an apply resumes after `terraform untaint`. Changes nothing on the Mintlify side. " +
					"Defaults to `30m`.",
				Read: true,
				ReadDescription: "How long a refresh (one read of the job, retries included) may take, as a duration " +
					"such as `5m`. Defaults to `" + formatDuration(defaultReadTimeout) + "`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The ID of the agent job.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The job's status when last read: " + backtickList(mintlify.AgentJobStatuses) + "." + undocumentedStatus,
				Computed:            true,
				PlanModifiers:       keep,
			},
			"source": schema.SingleNestedAttribute{
				MarkdownDescription: "The repository the agent works on.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"repository": schema.StringAttribute{
						MarkdownDescription: "The full URL of the repository.",
						Computed:            true,
					},
					"ref": schema.StringAttribute{
						MarkdownDescription: "The branch the agent works on, or `null` when the API does not name one.",
						Computed:            true,
					},
				},
			},
			"model": schema.StringAttribute{
				MarkdownDescription: "The AI model the job uses, such as `sonnet`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"pr_link": schema.StringAttribute{
				MarkdownDescription: "The pull request the agent opened, or `null` while the job is `active` or when " +
					"it changed no file.",
				Computed:      true,
				PlanModifiers: keep,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the job was created, in RFC 3339 format.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"archived_at": schema.StringAttribute{
				MarkdownDescription: "When the job was archived, in RFC 3339 format, or `null`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
		},
	}
}

func (r *agentJobResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project_id": identityschema.StringAttribute{
				Description:       "The Mintlify project of the agent job. Defaults to the provider's `project_id` on import.",
				OptionalForImport: true,
			},
			"job_id": identityschema.StringAttribute{
				Description:       "The ID of the agent job.",
				RequiredForImport: true,
			},
		},
	}
}

func (r *agentJobResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = clientFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan settles the project (the configured one or the provider's, and
// a replacement when it changes) and plans to resume waiting for a job that
// is still active.
func (r *agentJobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var configured, planned, prior types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathProjectID, &configured)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathProjectID, &planned)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathProjectID, &prior)...)
	}
	if resp.Diagnostics.HasError() || configured.IsUnknown() {
		return
	}
	if req.State.Raw.IsNull() {
		// A new job runs in the configured project, or the provider's.
		if !configured.IsNull() || r.data == nil {
			return // planned as configured, or unknown until the provider is
		}
		if r.data.projectID == "" {
			resp.Diagnostics.AddAttributeError(pathProjectID, "Missing Project ID", missingProjectDetail("Starting an agent job", "resource"))
			return
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathProjectID, r.data.projectID)...)
		return
	}
	// An existing job stays in its project unless project_id names
	// another: a change of the provider's project (or an import from
	// another project) never starts a job by itself.
	if !configured.IsNull() && !planned.Equal(prior) {
		resp.RequiresReplace = append(resp.RequiresReplace, pathProjectID)
		return
	}
	if configured.IsNull() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathProjectID, prior)...)
	}
	r.planResume(ctx, req, resp)
}

// planResume plans an update that waits for the job when it is still
// active and the configuration asks to wait: an apply after `terraform
// untaint` (or after importing an active job) resumes the same job.
func (r *agentJobResource) planResume(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var status types.String
	var wait types.Bool
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("status"), &status)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("wait_for_completion"), &wait)...)
	if resp.Diagnostics.HasError() || status.ValueString() != mintlify.AgentStatusActive || !wait.ValueBool() {
		return
	}
	tflog.Info(ctx, "Planning to wait for the agent job, which is still active")
	for _, name := range []string{"status", "model", "pr_link", "archived_at"} {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), types.StringUnknown())...)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("source"), types.ObjectUnknown(agentJobSourceTypes))...)
}

// missingProjectDetail says where the project of an agent job comes from.
func missingProjectDetail(doing, kind string) string {
	return fmt.Sprintf("%s needs the Mintlify project to run it in, and neither this %s nor the provider names one. "+
		"Set `project_id` on this %s, or `project_id` on the mintlify provider (or the `%s` environment variable). "+
		"The project ID is shown on the API keys page of the Mintlify dashboard.", doing, kind, kind, envProjectID)
}

func (r *agentJobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	var plan agentJobResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.ProjectID.IsUnknown() || plan.ProjectID.IsNull() {
		// The provider was not configured at plan time.
		if r.data.projectID == "" {
			resp.Diagnostics.AddAttributeError(pathProjectID, "Missing Project ID", missingProjectDetail("Starting an agent job", "resource"))
			return
		}
		plan.ProjectID = types.StringValue(r.data.projectID)
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultAgentWaitTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	client := r.data.client
	ctx, cancel := client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	projectID := plan.ProjectID.ValueString()

	job, err := client.CreateAgentJob(ctx, projectID, plan.Prompt.ValueString())
	if err != nil {
		resp.Diagnostics.Append(agentErrorDiagnostic(err, agentCall{op: agentOpCreate, projectID: projectID}))
		return
	}
	ctx = tflog.SetField(ctx, "agent_job_id", job.ID)
	// The state gets the job only when Create returns: a Terraform killed
	// meanwhile loses it, and this line is how its user finds the job to
	// import (guide "Running in CI").
	tflog.Info(ctx, "Agent job started", map[string]any{"project_id": projectID, "import_id": projectID + "/" + job.ID})

	// Record the job before waiting, so that every return below, errors and
	// interruptions included, hands it to Terraform with the state.
	resp.Diagnostics.Append(plan.setJob(job)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, projectID, job.ID)...)
	if resp.Diagnostics.HasError() || !plan.WaitForCompletion.ValueBool() {
		return
	}

	call := agentCall{op: agentOpRead, projectID: projectID, jobID: job.ID}
	resp.Diagnostics.Append(r.wait(ctx, &plan, job, call, agentWait{limit: "timeouts.create", timeout: timeout,
		resume: resumeAfterTaint, unknown: unknownAfterTaint})...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// resumeAfterTaint tells how to pick up a job whose create ended early.
// The provider is never told the resource's address; Terraform prints it
// above the message, after "with".
const resumeAfterTaint = "The resource is tainted but keeps the job id. To wait for this same job instead of " +
	"starting a new one, run `terraform untaint mintlify_agent_job.NAME`, with the address shown above after " +
	"`with`, then `terraform apply`. If the agent usually takes this long, raise `timeouts.create`, for example " +
	"`timeouts = { create = \"1h\" }`."

// unknownAfterTaint tells what follows a create that ended on a job status
// the API does not document.
const unknownAfterTaint = "The resource is tainted and keeps the job id: the next apply replaces it, which starts a " +
	"new agent job and may open another pull request. To keep this job in state instead, run `terraform untaint " +
	"mintlify_agent_job.NAME`, with the address shown above after `with`."

// wait waits for the job until it is no longer active, keeping the model
// current with whatever was learned, also on failure. started is the
// answer of the create that just made the job, nil to begin with a read.
func (r *agentJobResource) wait(ctx context.Context, m *agentJobResourceModel, started *mintlify.AgentJob, call agentCall, w agentWait) diag.Diagnostics {
	var diags diag.Diagnostics
	client := r.data.client
	logStatus := func(j mintlify.AgentJob) {
		tflog.Info(ctx, "Agent job status", map[string]any{"status": j.Status})
	}
	job, err := client.WaitForAgentJob(ctx, call.projectID, call.jobID, mintlify.Started(started), mintlify.OnChange(logStatus))
	if mintlify.IsJobFailed(err) {
		err = nil // reported from job.Status below
	}
	if job != nil {
		diags.Append(m.setJob(job)...)
	}
	switch {
	case err != nil:
		diags.Append(agentWaitDiagnostic(err, call, job, w))
	case job.Status == mintlify.AgentStatusFailed && started != nil:
		diags.Append(agentFailedDiagnostic(call, "The resource is tainted and keeps the job id: the next apply "+
			"replaces it, which starts a new agent job. Change `prompt` first if it was the cause. To keep the "+
			"failed job in state instead, run `terraform untaint mintlify_agent_job.NAME`, with the address shown "+
			"above after `with`."))
	case job.Status == mintlify.AgentStatusFailed:
		diags.Append(agentFailedDiagnostic(call, "The state records the failed job, and no new job starts by "+
			"itself. To start a new agent job, change `prompt` or `triggers`, or run "+
			"`terraform apply -replace=mintlify_agent_job.NAME`, with the address shown above after `with`."))
	}
	return diags
}

func (r *agentJobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state agentJobResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	projectID, jobID := state.ProjectID.ValueString(), state.ID.ValueString()
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, projectID, jobID)...)
	if r.data == nil {
		// The provider's arguments are unknown until apply: keep the state.
		tflog.Warn(ctx, "Skipping refresh: the mintlify provider is not configured yet")
		return
	}
	timeout, diags := state.Timeouts.Read(ctx, defaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	readCtx, cancel := r.data.client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	job, err := r.data.client.GetAgentJob(readCtx, projectID, jobID)
	switch {
	case mintlify.IsNotFound(err) && state.Prompt.IsNull() && state.Status.IsNull():
		// Freshly imported: there is nothing to adopt.
		resp.Diagnostics.Append(getAgentJobOp(projectID, jobID).advise(http.StatusNotFound, "There is nothing "+
			"to import: check the job ID and the project, and import as `PROJECT_ID/JOB_ID`, or as `JOB_ID` in the "+
			"provider's project.").diagnostic(err))
		return
	case mintlify.IsNotFound(err):
		resp.Diagnostics.AddWarning("Agent Job No Longer Found",
			fmt.Sprintf("The Mintlify API answered 404 for the agent job %s in project %s. The state keeps the job "+
				"as it was last seen and does not start it again: running the agent again opens a new pull request, "+
				"which only a change of `prompt`, `project_id` or `triggers`, or `terraform apply -replace`, may "+
				"cause. To stop tracking the job, run `terraform state rm` with the resource's address.", jobID, projectID))
		return
	case err != nil:
		op := getAgentJobOp(projectID, jobID).within("timeouts.read", timeout)
		resp.Diagnostics.Append(op.while(fmt.Sprintf("refreshing agent job %s in project %s", jobID, projectID)).diagnostic(err))
		return
	}
	resp.Diagnostics.Append(state.setJob(job)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update records changed arguments, which change nothing on the Mintlify
// side, and resumes waiting when the plan asks for it (see planResume).
func (r *agentJobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan agentJobResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	projectID, jobID := plan.ProjectID.ValueString(), plan.ID.ValueString()
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, projectID, jobID)...)
	if !plan.Status.IsUnknown() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	if r.data == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	var state agentJobResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	timeout, diags := plan.Timeouts.Create(ctx, defaultAgentWaitTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.data.client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	ctx = tflog.SetField(ctx, "agent_job_id", jobID)

	// Start from the job as last read, which stays if it cannot be read.
	plan.copyJob(&state)
	call := agentCall{op: agentOpRead, projectID: projectID, jobID: jobID}
	resume := "The job stays in state. Apply again to keep waiting for it; no new agent job starts. If the agent " +
		"usually takes this long, raise `timeouts.create`."
	resp.Diagnostics.Append(r.wait(ctx, &plan, nil, call, agentWait{limit: "timeouts.create", timeout: timeout, resume: resume,
		unknown: "The state records the job with this status; no new agent job starts by itself."})...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete forgets the job: the API has no way to delete an agent job.
func (r *agentJobResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var id types.String
	if diags := req.State.GetAttribute(ctx, path.Root("id"), &id); !diags.HasError() {
		tflog.Info(ctx, "Forgetting agent job; the Mintlify API has no delete", map[string]any{"agent_job_id": id.ValueString()})
	}
}

// ImportState adopts an existing agent job: by `PROJECT_ID/JOB_ID`, by
// `JOB_ID` in the provider's project, or by identity. The API does not
// return the prompt: the first plan after the import takes `prompt` and
// `triggers` from configuration, without starting a job.
func (r *agentJobResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var projectID, jobID string
	if req.ID != "" {
		var ok bool
		if projectID, jobID, ok = strings.Cut(req.ID, "/"); !ok {
			projectID, jobID = "", req.ID
		}
		if jobID == "" || strings.Contains(jobID, "/") || ok && projectID == "" {
			resp.Diagnostics.AddError("Invalid Import ID",
				fmt.Sprintf("%q is not an agent job to import. Import as `PROJECT_ID/JOB_ID`, for example "+
					"`terraform import mintlify_agent_job.docs proj_123/aj_456`, or as `JOB_ID` in the provider's "+
					"project.", req.ID))
			return
		}
	} else {
		var identity agentJobIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		if resp.Diagnostics.HasError() {
			return
		}
		projectID, jobID = identity.ProjectID.ValueString(), identity.JobID.ValueString()
	}
	if projectID == "" && r.data != nil {
		projectID = r.data.projectID
	}
	if projectID == "" {
		resp.Diagnostics.AddError("Missing Project ID",
			fmt.Sprintf("Importing the agent job %s needs its Mintlify project, and the provider names none. Import as "+
				"`PROJECT_ID/%s` (or set `project_id` in the identity), or set `project_id` on the mintlify provider "+
				"(or the `%s` environment variable).", jobID, jobID, envProjectID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), jobID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathProjectID, projectID)...)
	resp.Diagnostics.Append(setAgentJobIdentity(ctx, resp.Identity, projectID, jobID)...)
}

// setAgentJobIdentity records the job's identity, where the framework asks
// for one (identity is nil for a Terraform without identity support).
func setAgentJobIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, projectID, jobID string) diag.Diagnostics {
	if identity == nil || projectID == "" || jobID == "" {
		return nil
	}
	return identity.Set(ctx, agentJobIdentityModel{ProjectID: types.StringValue(projectID), JobID: types.StringValue(jobID)})
}

// setJob copies an agent job into the model. Nullable API fields stay null.
func (m *agentJobResourceModel) setJob(job *mintlify.AgentJob) diag.Diagnostics {
	source, diags := agentJobSource(job)
	m.ID = types.StringValue(job.ID)
	m.Status = types.StringValue(job.Status)
	m.Source = source
	m.Model = types.StringValue(job.Model)
	m.PRLink = types.StringPointerValue(job.PRLink)
	m.CreatedAt = types.StringValue(job.CreatedAt.UTC().Format(time.RFC3339))
	m.ArchivedAt = agentTime(job.ArchivedAt)
	return diags
}

// copyJob takes the job's fields from prior state, where the plan left them
// unknown.
func (m *agentJobResourceModel) copyJob(prior *agentJobResourceModel) {
	m.Status, m.Source, m.Model = prior.Status, prior.Source, prior.Model
	m.PRLink, m.ArchivedAt = prior.PRLink, prior.ArchivedAt
}

// agentJobSource is the `source` object of an agent job.
func agentJobSource(job *mintlify.AgentJob) (types.Object, diag.Diagnostics) {
	return types.ObjectValue(agentJobSourceTypes, map[string]attr.Value{
		"repository": types.StringValue(job.Source.Repository),
		"ref":        types.StringPointerValue(job.Source.Ref),
	})
}

// agentTime renders a nullable API time as RFC 3339, or null.
func agentTime(t *time.Time) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339))
}
