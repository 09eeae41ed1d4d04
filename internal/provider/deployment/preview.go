package deployment

import (
	"context"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	_ resource.Resource                = (*previewDeploymentResource)(nil)
	_ resource.ResourceWithConfigure   = (*previewDeploymentResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*previewDeploymentResource)(nil)
	_ resource.ResourceWithImportState = (*previewDeploymentResource)(nil)
	_ resource.ResourceWithIdentity    = (*previewDeploymentResource)(nil)
)

// replacePreviewUnlessImported replaces a preview whose branch changes,
// except on the first plan after an import, which takes `branch` from
// configuration: the import reads it from the deployment's commit ref, which
// the API does not document as the branch. `wait_for_completion`, which
// always has a value once Terraform created or updated the resource, is
// null in state only after an import.
var replacePreviewUnlessImported = core.ReplaceUnlessImported{
	Marker:      "wait_for_completion",
	Description: "Changing this value deploys a preview of the new branch, except on the first plan after an import.",
}

// NewPreviewDeploymentResource returns the mintlify_preview_deployment
// resource.
func NewPreviewDeploymentResource() resource.Resource {
	return &previewDeploymentResource{}
}

type previewDeploymentResource struct {
	core.ConfiguredResource
}

type previewDeploymentModel struct {
	Branch     types.String `tfsdk:"branch"`
	PreviewURL types.String `tfsdk:"preview_url"`
	core.TrackedJob
	deploymentFields
}

// previewDeploymentIdentityModel is the resource's identity: the latest deployment
// of the preview, by its status id, in its project. It changes with each
// deployment of the preview (MutableIdentity).
type previewDeploymentIdentityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	StatusID  types.String `tfsdk:"status_id"`
}

func (r *previewDeploymentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_preview_deployment"
	resp.ResourceBehavior.MutableIdentity = true
}

func (r *previewDeploymentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Deploys a Mintlify preview of a branch of the docs repository, and gives its address, " +
			"`preview_url`. Changing `triggers` redeploys the same preview in place; changing `branch` or a " +
			"configured `project_id` replaces it.",
		Attributes: map[string]schema.Attribute{
			"branch": schema.StringAttribute{
				MarkdownDescription: "The branch to preview, as git names it, such as `feature/new-api`. Changing it " +
					"replaces the resource.",
				Required:      true,
				Validators:    []validator.String{previewBranchCheck},
				PlanModifiers: []planmodifier.String{replacePreviewUnlessImported.String()},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project to preview. Defaults to the provider's `project_id` when " +
					"the preview is first deployed.",
				Optional:      true,
				Computed:      true,
				Validators:    core.ProjectIDValidators,
				PlanModifiers: core.KeepString, // replacement is decided in ModifyPlan, which knows the provider's project
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary strings whose change redeploys the preview in place, such as the " +
					"branch's head commit.",
				ElementType: types.StringType,
				Optional:    true,
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the deployment is `success` or `failure` before the apply goes on. " +
					"Defaults to `true`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"timeouts": core.Timeouts.Resource(ctx, timeouts.Opts{
				Create: true,
				CreateDescription: "How long to wait for the first deployment, turns within the rate limit " +
					"included. Defaults to `" + core.FormatDuration(defaultDeploymentWaitTimeout) + "`.",
				Update:            true,
				UpdateDescription: "How long to wait for a redeploy. Defaults to `" + core.FormatDuration(defaultDeploymentWaitTimeout) + "`.",
				Read:              true,
				ReadDescription:   "How long a refresh may take. Defaults to `" + core.FormatDuration(core.DefaultReadTimeout) + "`.",
			}),
			"id": schema.StringAttribute{
				MarkdownDescription: "The status id of the preview's latest deployment.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"preview_url": schema.StringAttribute{
				MarkdownDescription: "The `https` address of the preview, such as " +
					"`https://acme-feature-new-api.mintlify.app`; `null` after an import until the next deployment.",
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
		},
	}
	for name, attr := range deploymentResourceFields() {
		resp.Schema.Attributes[name] = attr
	}
}

func (r *previewDeploymentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = core.JobIdentitySchema("The Mintlify project of the preview. Defaults, on import, to the project the API names for the deployment, or the provider's `project_id`.",
		"status_id", "The status id of the preview's latest deployment.")
}

func (r *previewDeploymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	call, ok := core.BeginCreate[previewDeploymentModel](ctx, r.Provider, "Deploying a preview", defaultDeploymentWaitTimeout, req, resp)
	defer call.Cancel()
	if !ok {
		return
	}
	ctx, plan, projectID, b := call.Ctx, call.Plan, call.ProjectID, call.Budget
	tookOver := r.takeOver(ctx, &plan, &resp.State, resp.Identity, &resp.Diagnostics)
	if !tookOver && !r.deploy(ctx, &plan, b, &resp.State, resp.Identity, &resp.Diagnostics) || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(r.follow(ctx, &plan, previewWaitOnCreate(b), foretold{fresh: !tookOver})...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(setPreviewIdentity(ctx, resp.Identity, projectID, plan.ID.ValueString())...)
}

// deploy triggers a deployment of the model's preview and records it in
// state before anything waits for it, so that every return that follows,
// errors and interruptions included, hands it to Terraform. ok is false
// when the trigger failed, with the diagnostic in diags.
func (r *previewDeploymentResource) deploy(ctx context.Context, m *previewDeploymentModel, b core.WaitBudget, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) (ok bool) {
	projectID, branch := m.ProjectID.ValueString(), m.Branch.ValueString()
	p, err := r.Provider.Client.TriggerPreview(ctx, projectID, branch)
	if err != nil {
		diags.Append(TriggerPreviewOp(projectID, branch).Within(b).Diagnostic(err))
		return false
	}
	link, refused := previewURL(p.PreviewURL, p.StatusID, projectID, branch)
	if refused != nil {
		diags.Append(refused)
	}
	tflog.Info(ctx, LogPreviewTriggered, map[string]any{"project_id": projectID, "branch": branch,
		"status_id": p.StatusID, "preview_url": link})
	m.ID, m.PreviewURL = types.StringValue(p.StatusID), optionalString(link)
	m.set(&mintlify.Deployment{})
	diags.Append(state.Set(ctx, m)...)
	diags.Append(setPreviewIdentity(ctx, identity, projectID, p.StatusID)...)
	return !diags.HasError()
}

// takeOver records, as deploy does, the deployment that a destroyed
// tainted preview left for its replacement (see deploymentHandoffs), when
// the API still has it; ok is false when there is none, and the create
// deploys the preview.
func (r *previewDeploymentResource) takeOver(ctx context.Context, m *previewDeploymentModel, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) (ok bool) {
	projectID, branch := m.ProjectID.ValueString(), m.Branch.ValueString()
	left, ok := handoffsOf(r.Provider).takeLive(ctx, r.Provider.Client, previewHandoffKey(projectID, branch, m.Triggers),
		LogPreviewResumed, map[string]any{"project_id": projectID, "branch": branch}, "status_id")
	if !ok {
		return false
	}
	m.ID, m.PreviewURL = types.StringValue(left.StatusID), optionalString(left.PreviewURL)
	m.set(&mintlify.Deployment{})
	diags.Append(state.Set(ctx, m)...)
	diags.Append(setPreviewIdentity(ctx, identity, projectID, left.StatusID)...)
	return true
}

// follow waits for the model's deployment, or reads it once without
// wait_for_completion, keeping the model current with whatever was
// learned, also on failure. f.took, when zero, is how long the preview's
// last deployment in this apply took (see foretold).
func (r *previewDeploymentResource) follow(ctx context.Context, m *previewDeploymentModel, w deploymentWait, f foretold) diag.Diagnostics {
	projectID, statusID := m.ProjectID.ValueString(), m.ID.ValueString()
	if !m.WaitForCompletion.ValueBool() {
		d, err := r.Provider.Client.GetDeployment(ctx, statusID)
		if err != nil {
			// The deployment goes on: a refresh reads it.
			d := GetDeploymentOp(projectID, statusID).Diagnostic(err)
			return diag.Diagnostics{diag.NewWarningDiagnostic(d.Summary(), d.Detail()+" The preview deployment was "+
				"triggered and is recorded in state; the next refresh reads its status.")}
		}
		m.set(d)
		return nil
	}
	key := previewHistoryKey(projectID, m.Branch.ValueString())
	d, diags := handoffsOf(r.Provider).wait(ctx, r.Provider.Client, key, projectID, statusID, w, f)
	if d != nil {
		m.set(d)
	}
	return diags
}

func (r *previewDeploymentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	call, ok := core.BeginRead[previewDeploymentModel](ctx, r.Provider, req, resp)
	defer call.Cancel()
	state := call.State
	statusID := state.ID.ValueString()
	resp.Diagnostics.Append(setPreviewIdentity(ctx, resp.Identity, state.ProjectID.ValueString(), statusID)...)
	if !ok {
		return
	}
	d, err := r.Provider.Client.GetDeployment(call.Ctx, statusID)
	imported := state.WaitForCompletion.IsNull() && state.Status.IsNull()
	op := GetDeploymentOp(state.ProjectID.ValueString(), statusID).Within(call.Budget)
	switch {
	case mintlify.IsNotFound(err) && imported:
		resp.Diagnostics.Append(op.Advise(http.StatusNotFound, "There is nothing to import: check the status id, "+
			"which is the `statusId` that triggering the preview answered, and import as `STATUS_ID`.").Diagnostic(err))
		return
	case mintlify.IsNotFound(err):
		resp.Diagnostics.Append(previewGoneWarning(state.ProjectID.ValueString(), statusID))
		return
	case err != nil:
		resp.Diagnostics.Append(op.While(fmt.Sprintf("refreshing preview deployment %s", statusID)).Diagnostic(err))
		return
	}
	if state.ProjectID.IsNull() || state.ProjectID.ValueString() == "" {
		state.ProjectID = optionalString(d.ProjectID)
	}
	if state.Branch.IsNull() {
		// Freshly imported: the deployment's commit ref is the branch, so
		// that a configuration generated from the state has one.
		state.Branch = branchOfRef(d.Commit.Ref)
	}
	state.set(d)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(setPreviewIdentity(ctx, resp.Identity, state.ProjectID.ValueString(), statusID)...)
}

// Update deploys the preview again when `triggers` changed, and waits for
// its deployment when the plan decided to resume (see ModifyPlan); other
// changes are recorded without a request.
func (r *previewDeploymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	update, ok := core.BeginUpdate[previewDeploymentModel, struct{}](ctx, req, resp)
	if !ok {
		return
	}
	plan, state := update.Plan, update.State
	redeploy := previewRedeploys(state, plan)
	if !redeploy && update.Action != core.ActionResume {
		plan.ID, plan.PreviewURL, plan.deploymentFields = state.ID, state.PreviewURL, state.deploymentFields
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		resp.Diagnostics.Append(setPreviewIdentity(ctx, resp.Identity, plan.ProjectID.ValueString(), plan.ID.ValueString())...)
		return
	}
	// Until something is deployed, an error keeps the prior state as it
	// was, triggers included, so that the next apply tries again.
	if r.Provider == nil {
		resp.Diagnostics.Append(core.NotConfiguredDiagnostic())
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultDeploymentWaitTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	ctx, cancel := r.Provider.Client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	b := core.Budget("timeouts.update", timeout)
	// Start from the state, which stays if nothing else can be learned.
	plan.ID, plan.PreviewURL, plan.deploymentFields = state.ID, state.PreviewURL, state.deploymentFields
	if redeploy && !r.deploy(ctx, &plan, b, &resp.State, resp.Identity, &resp.Diagnostics) {
		// Nothing was deployed: the state keeps the previous deployment.
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	// The deployment in state, when it ended, shows how long the next
	// takes.
	resp.Diagnostics.Append(r.follow(ctx, &plan, previewWaitOnUpdate(b), foretold{took: state.took(), fresh: redeploy})...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(setPreviewIdentity(ctx, resp.Identity, plan.ProjectID.ValueString(), plan.ID.ValueString())...)
}

// previewRedeploys reports whether an update deploys the preview again: a
// change of `triggers`, except on the first plan after an import, which
// takes them from configuration.
func previewRedeploys(state, plan previewDeploymentModel) bool {
	return !state.WaitForCompletion.IsNull() && !state.Triggers.Equal(plan.Triggers)
}
