package deployment

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ resource.Resource                = (*deploymentResource)(nil)
	_ resource.ResourceWithConfigure   = (*deploymentResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*deploymentResource)(nil)
	_ resource.ResourceWithImportState = (*deploymentResource)(nil)
	_ resource.ResourceWithIdentity    = (*deploymentResource)(nil)
)

// NewDeploymentResource returns the mintlify_deployment resource.
func NewDeploymentResource() resource.Resource {
	return &deploymentResource{}
}

type deploymentResource struct {
	core.ConfiguredResource
}

type deploymentResourceModel struct {
	core.TrackedJob
	deploymentFields
	OnFailure   types.String `tfsdk:"on_failure"`
	LastSuccess types.Object `tfsdk:"last_success"`
}

// deploymentIdentityModel is the resource's identity: the deployment's
// status id, which the API reads without a project. It changes with the
// in-place deployment that `on_failure = "record"` makes (MutableIdentity).
type deploymentIdentityModel struct {
	StatusID types.String `tfsdk:"status_id"`
}

func (r *deploymentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deployment"
	// With `on_failure = "record"`, a change of `triggers` deploys again in
	// place: the identity follows the new deployment.
	resp.ResourceBehavior.MutableIdentity = true
}

func (r *deploymentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: deploymentResourceDescription,
		Attributes: map[string]schema.Attribute{
			// Optional
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project to deploy. Defaults to the provider's `project_id` when " +
					"the deployment is triggered. Setting it to another project triggers a deployment there.",
				Optional:      true,
				Computed:      true,
				Validators:    core.ProjectIDValidators,
				PlanModifiers: core.KeepString, // replacement is decided in ModifyPlan, which knows the provider's project
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary strings whose change triggers a new deployment, such as " +
					"`{ docs_commit = var.docs_commit }`.",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Map{triggersReplace()},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the deployment is `success` or `failure` before the apply goes on. " +
					"Defaults to `true`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"timeouts": core.Timeouts.Resource(ctx, timeouts.Opts{
				Create:            true,
				CreateDescription: "How long to wait for the deployment to finish. Defaults to `" + core.FormatDuration(defaultDeploymentWaitTimeout) + "`.",
				Read:              true,
				ReadDescription:   "How long a refresh may take. Defaults to `" + core.FormatDuration(core.DefaultReadTimeout) + "`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The deployment's status ID, which the API reads the deployment by.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
		},
	}
	for name, attr := range deploymentResourceFields() {
		resp.Schema.Attributes[name] = attr
	}
	for name, attr := range onFailureAttributes() {
		resp.Schema.Attributes[name] = attr
	}
}

const deploymentResourceDescription = "Deploys a Mintlify project's docs site from its deployment branch, and " +
	"waits for the deployment to succeed. A `failure` fails the apply with Mintlify's summary and the last log " +
	"lines. Only a change of `triggers` or a configured `project_id` triggers a new deployment."

func (r *deploymentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"status_id": identityschema.StringAttribute{
				Description:       "The deployment's status ID.",
				RequiredForImport: true,
			},
		},
	}
}

func (r *deploymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	call, ok := core.BeginCreate[deploymentResourceModel](ctx, r.Provider, "Triggering a deployment", defaultDeploymentWaitTimeout, req, resp)
	defer call.Cancel()
	if !ok {
		return
	}
	ctx, plan := call.Ctx, call.Plan
	statusID, fresh, ok := r.startOrTakeOver(ctx, call.ProjectID, plan.Triggers, resp)
	if !ok {
		return
	}
	plan.LastSuccess = noLastSuccess()
	r.follow(ctx, &plan, statusID, deploymentOutput{&resp.State, resp.Identity, &resp.Diagnostics},
		deploymentWaitOnCreate(call.Budget), foretold{fresh: fresh})
}

// deploymentOutput is what a create or an update writes: its response's
// state, identity and diagnostics.
type deploymentOutput struct {
	state    *tfsdk.State
	identity *tfsdk.ResourceIdentity
	diags    *diag.Diagnostics
}

// follow records the triggered (or taken over) deployment statusID in
// the state and the identity before anything else, so that every return
// after, errors and interruptions included, hands it to Terraform; then it
// reads the deployment once, or waits for it with w, timed by f.
func (r *deploymentResource) follow(ctx context.Context, plan *deploymentResourceModel, statusID string,
	out deploymentOutput, w deploymentWait, f foretold) {
	ctx = tflog.SetField(ctx, "deployment_id", statusID)
	plan.ID, plan.deploymentFields = types.StringValue(statusID), deploymentFields{}
	out.diags.Append(out.state.Set(ctx, plan)...)
	out.diags.Append(setDeploymentIdentity(ctx, out.identity, statusID)...)
	if out.diags.HasError() {
		return
	}
	if !plan.WaitForCompletion.ValueBool() {
		r.readOnce(ctx, plan, out.state, out.diags)
		return
	}
	projectID := plan.ProjectID.ValueString()
	d, diags := handoffsOf(r.Provider).wait(ctx, r.Provider.Client, historyKey(projectID), projectID, statusID,
		plan.recording(w), f)
	out.diags.Append(diags...)
	plan.settle(d, out.diags)
	out.diags.Append(out.state.Set(ctx, plan)...)
}

// startOrTakeOver returns the deployment the create waits for: the one a
// destroyed tainted resource left for its replacement (see
// deploymentHandoffs), unless the API no longer has it, or else a new
// deployment, which is fresh. ok is false, with the diagnostic in resp,
// when triggering failed.
func (r *deploymentResource) startOrTakeOver(ctx context.Context, projectID string, triggers types.Map, resp *resource.CreateResponse) (statusID string, fresh, ok bool) {
	client := r.Provider.Client
	if left, ok := handoffsOf(r.Provider).takeLive(ctx, client, handoffKey(projectID, triggers), LogDeploymentResumed,
		map[string]any{"project_id": projectID}, "deployment_id"); ok {
		return left.StatusID, false, true
	}
	statusID, ok = trigger(ctx, client, projectID, &resp.Diagnostics)
	return statusID, ok, ok
}

// trigger triggers a deployment of the project and logs its status id, or
// says why it could not.
func trigger(ctx context.Context, client *mintlify.Client, projectID string, diags *diag.Diagnostics) (string, bool) {
	statusID, err := client.TriggerDeployment(ctx, projectID)
	if err != nil {
		diags.Append(TriggerDeploymentOp(projectID).Diagnostic(err))
		return "", false
	}
	// The state gets the deployment only when the operation returns: a
	// Terraform killed meanwhile loses it, and this line is how its user
	// finds the deployment to import.
	tflog.Info(ctx, LogDeploymentTriggered, map[string]any{"project_id": projectID, "deployment_id": statusID,
		"import_id": statusID})
	return statusID, true
}

// readOnce fills a deployment that the create does not wait for with its
// first status. The deployment is triggered whatever happens here, so a
// failed read is a warning, and a refresh reads it again.
func (r *deploymentResource) readOnce(ctx context.Context, plan *deploymentResourceModel, state *tfsdk.State, diags *diag.Diagnostics) {
	projectID, statusID := plan.ProjectID.ValueString(), plan.ID.ValueString()
	d, err := r.Provider.Client.GetDeployment(ctx, statusID)
	if err != nil {
		op := GetDeploymentOp(projectID, statusID).Diagnostic(err)
		diags.AddWarning("Deployment Triggered, Status Unknown", fmt.Sprintf("The deployment %s of "+
			"project %s was triggered, and the state records it, but its first status could not be read: %s %s "+
			"The next refresh reads it again.", statusID, projectID, op.Summary()+".", op.Detail()))
		return
	}
	plan.settle(d, diags)
	diags.Append(state.Set(ctx, plan)...)
}

func (r *deploymentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	call, ok := core.BeginRead[deploymentResourceModel](ctx, r.Provider, req, resp)
	defer call.Cancel()
	state := call.State
	statusID := state.ID.ValueString()
	resp.Diagnostics.Append(setDeploymentIdentity(ctx, resp.Identity, statusID)...)
	if !ok {
		return
	}
	d, err := r.Provider.Client.GetDeployment(call.Ctx, statusID)
	projectID := state.ProjectID.ValueString()
	imported := state.WaitForCompletion.IsNull()
	op := GetDeploymentOp(projectID, statusID).Within(call.Budget)
	if imported && projectID == "" {
		op = GetDeploymentOp("(unknown)", statusID).Within(call.Budget)
	}
	switch {
	case mintlify.IsNotFound(err) && imported:
		resp.Diagnostics.Append(op.Advise(http.StatusNotFound, "There is nothing to import: check the status ID, "+
			"which triggering the deployment answered (`statusId`), or which the log line `"+LogDeploymentTriggered+
			"` names.").Diagnostic(err))
		return
	case mintlify.IsNotFound(err):
		resp.Diagnostics.Append(deploymentGoneWarning(projectID, statusID))
		return
	case err != nil:
		resp.Diagnostics.Append(op.Diagnostic(err))
		return
	}
	if state.ProjectID.IsNull() {
		// Freshly imported: the deployment names its project.
		state.ProjectID = optionalString(d.ProjectID)
		if d.ProjectID == "" && r.Provider.ProjectID != "" {
			state.ProjectID = types.StringValue(r.Provider.ProjectID)
		}
	}
	state.set(d)
	state.noteSuccess(d)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update records changed arguments, which change nothing on the Mintlify
// side, and waits for the deployment when the plan decided to resume (see
// core.PlanResume).
func (r *deploymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.redeploy(ctx, req, resp) {
		return
	}
	call, resume := core.BeginResume[deploymentResourceModel](ctx, r.Provider, defaultDeploymentWaitTimeout, req, resp)
	defer call.Cancel()
	ctx, plan, state := call.Ctx, call.Plan, call.State
	projectID, statusID := plan.ProjectID.ValueString(), plan.ID.ValueString()
	resp.Diagnostics.Append(setDeploymentIdentity(ctx, resp.Identity, statusID)...)
	if !resume {
		return
	}
	ctx = tflog.SetField(ctx, "deployment_id", statusID)

	// Start from the deployment as last read, which stays if it cannot be
	// read.
	plan.deploymentFields, plan.LastSuccess = state.deploymentFields, state.LastSuccess
	d, diags := handoffsOf(r.Provider).wait(ctx, r.Provider.Client, historyKey(projectID), projectID, statusID,
		plan.recording(deploymentWaitOnResume(call.Budget)), foretold{})
	resp.Diagnostics.Append(diags...)
	plan.settle(d, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// ImportState adopts an existing deployment by its status ID, or by
// identity. The API does not know `triggers`: the first plan after the
// import takes them from configuration without triggering a deployment.
func (r *deploymentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	statusID := req.ID
	if statusID == "" {
		var identity deploymentIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		statusID = identity.StatusID.ValueString()
	}
	if strings.TrimSpace(statusID) == "" || strings.ContainsAny(statusID, "/ ") {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("%q is not a deployment to import. Import by the deployment's status ID, which triggering "+
				"it answered (`statusId`), for example `terraform import mintlify_deployment.docs "+
				"6650f1c2a0b1c2d300000001`; the deployment names its project.", statusID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), statusID)...)
	resp.Diagnostics.Append(setDeploymentIdentity(ctx, resp.Identity, statusID)...)
}

// deploymentGoneWarning tells that a refresh got 404 for the deployment in
// state, which stays as it was last seen.
func deploymentGoneWarning(projectID, statusID string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Deployment No Longer Found",
		fmt.Sprintf("The Mintlify API answered 404 for the deployment %s of project %s: Mintlify no longer keeps its "+
			"status. The state keeps the deployment as it was last seen, and no new deployment is triggered: only a "+
			"change of `triggers` or `project_id`, or `terraform apply -replace`, triggers one. To stop tracking "+
			"it, run `terraform state rm` with the resource's address.", statusID, projectID))
}

// setDeploymentIdentity records the deployment's identity, where the
// framework asks for one (identity is nil for a Terraform without identity
// support).
func setDeploymentIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, statusID string) diag.Diagnostics {
	if identity == nil || statusID == "" {
		return nil
	}
	return identity.Set(ctx, deploymentIdentityModel{StatusID: types.StringValue(statusID)})
}

// replaceDeploymentUnlessImported replaces the deployment when `triggers`
// change, except on the first plan after an import: the API does not know
// the triggers, and `wait_for_completion`, which always has a value once
// Terraform created or updated the resource, is null in state only then.
var replaceDeploymentUnlessImported = core.ReplaceUnlessImported{
	Marker:      "wait_for_completion",
	Description: "Changing this value triggers a new deployment, except on the first plan after an import.",
}

// Delete forgets the deployment: the API has no way to delete one. A
// deployment that still runs, of a resource that waits for its deployment,
// is left to the resource's replacement (see deploymentHandoffs).
func (r *deploymentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state deploymentResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	statusID, status := state.ID.ValueString(), state.Status.ValueString()
	tflog.Info(ctx, "Forgetting deployment; the Mintlify API has no delete", map[string]any{"deployment_id": statusID})
	projectID := state.ProjectID.ValueString()
	left := handoffsOf(r.Provider).forget(ctx, forgotten{status: status, waits: state.WaitForCompletion.ValueBool(),
		history: historyKey(projectID), took: state.took(),
		key: handoffKey(projectID, state.Triggers), left: handoff{StatusID: statusID}})
	if left {
		tflog.Info(ctx, "Leaving the running deployment to the resource's replacement, which waits for it instead of "+
			"triggering another", map[string]any{"deployment_id": statusID, "status": status})
	}
}
