package staticexport

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// mintlify_static_export_bundle: a static export job and a presigned link to
// its bundle. The files static_export_bundle_*.go hold its parts: the schema
// and the model, the plan (what an apply will do, decided in one place), the
// renewal policy, the wait, the link that `store_link` keeps or not, and the
// diagnostics.

var (
	_ resource.Resource                = (*staticExportBundleResource)(nil)
	_ resource.ResourceWithConfigure   = (*staticExportBundleResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*staticExportBundleResource)(nil)
	_ resource.ResourceWithImportState = (*staticExportBundleResource)(nil)
	_ resource.ResourceWithIdentity    = (*staticExportBundleResource)(nil)
)

var pathExpiresAt = path.Root("expires_at")

// NewStaticExportBundleResource returns the mintlify_static_export_bundle
// resource.
func NewStaticExportBundleResource() resource.Resource {
	return &staticExportBundleResource{}
}

type staticExportBundleResource struct {
	core.ConfiguredResource
}

func (r *staticExportBundleResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_bundle"
}

// Create starts an export job, records it in state before waiting, so that
// every return below, errors and interruptions included, hands it to
// Terraform, then waits for the job and generates its link.
func (r *staticExportBundleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.Provider == nil {
		resp.Diagnostics.Append(core.NotConfiguredDiagnostic())
		return
	}
	var plan staticExportBundleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	timeout, diags := plan.Timeouts.Create(ctx, defaultExportTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Provider.Client.Clock().WithTimeout(ctx, timeout)
	defer cancel()

	w := bundleWait{budget: core.Budget("timeouts.create", timeout), creating: true}
	started, resumed := r.takeOverExport(ctx, &plan)
	if !resumed {
		var diags diag.Diagnostics
		started, diags = r.start(ctx, &plan, w.budget)
		resp.Diagnostics.Append(diags...)
		if diags.HasError() {
			return
		}
	}
	ctx = tflog.SetField(ctx, "job_id", plan.JobID.ValueString())
	// The state gets the job only when Create returns: a Terraform killed
	// meanwhile loses it, and this line is how its user finds the job to
	// import (guide "Running in CI").
	tflog.Info(ctx, "Static export job started", map[string]any{"import_id": plan.importID(), "resumed": resumed})
	if !plan.Domain.IsNull() {
		plan.ProjectID = types.StringNull()
	}
	plan.setBundle(nil)
	plan.LinkRevision = types.Int64Null()
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.Identity, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}

	var priv core.PrivateState[bundleFacts]
	resp.Diagnostics.Append(r.completeExport(ctx, &plan, started, 0, &priv, w)...)
	// The first link tells the lifetime: this apply, not the next plan,
	// warns about a renew_before that would renew on every run.
	resp.Diagnostics.Append(warnIfRenewsEveryRun(&plan, priv)...)
	resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes the job's status, never its link, and records in private
// state whether the job is gone. The refresh that follows an import also
// takes the link of a completed job (adoptAtImport). A refresh that learns nothing new leaves
// state and private state exactly as they were, so that
// `terraform plan -refresh-only -detailed-exitcode` reports no change: the
// link is judged by plans, at the clock (see planLink).
func (r *staticExportBundleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state staticExportBundleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.Identity, &state)...)
	if r.Provider == nil {
		// The provider's arguments are unknown until apply: keep the state
		// as it is; the apply refreshes nothing it needs.
		tflog.Warn(ctx, "Skipping refresh: the mintlify provider is not configured yet")
		return
	}
	timeout, diags := state.Timeouts.Read(ctx, core.DefaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	var priv core.PrivateState[bundleFacts]
	resp.Diagnostics.Append(priv.Read(ctx, req.Private)...)
	if resp.Diagnostics.HasError() {
		return
	}
	readCtx, cancel := r.Provider.Client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	budget := core.Budget("timeouts.read", timeout)
	notFound, retired, diags := r.readJob(readCtx, &state, budget)
	if !notFound && !retired && !diags.HasError() && !state.projectScoped() {
		r.probeProjectExport(readCtx, state.JobID.ValueString())
	}
	importing := priv.Facts.Importing
	priv.PlannedAction, priv.PlannedAt = "", time.Time{}
	priv.Facts.Importing = false
	priv.Facts.DomainRetired = retired
	switch {
	case notFound && !state.StoreLink.IsNull():
		// Keep the resource so that the plan shows a replacement, and why,
		// instead of silently forgetting the export.
		priv.Facts.JobGone = true
		resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
		return
	case diags.HasError():
		// Freshly imported and not found: there is nothing to adopt.
		resp.Diagnostics.Append(diags...)
		return
	}

	priv.Facts.JobGone = false
	if !known(state.ExpiresAt) {
		priv.Facts.LinkGeneratedAt = time.Time{}
	}
	if importing && state.StoreLink.IsNull() {
		r.adoptAtImport(readCtx, &state, &priv, budget)
	}
	resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update does what the plan decided (see planLink): for actionRenew, a fresh
// link for the same job; for core.ActionResume and actionAdoptImport, waiting for
// the job unless it completed, then its link. For actionNone, only arguments
// such as `timeouts` or `renew_before` changed, and no request is made.
func (r *staticExportBundleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	update, ok := core.BeginUpdate[staticExportBundleModel, bundleFacts](ctx, req, resp)
	if !ok {
		return
	}
	plan, state, priv, action := update.Plan, update.State, update.Private, update.Action
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.Identity, &state)...)
	switch {
	case action == actionNone:
		// The plan may show the link as known after apply (see
		// mayRenewAtApply): it is the one in state.
		plan.copyJobAndLink(&state)
		plan.LinkRevision = state.LinkRevision
		priv.Facts.AdoptedAtImport = false
		resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	case !requestsLink(action):
		resp.Diagnostics.Append(unexpectedActionDiagnostic(action))
		return
	case r.Provider == nil:
		resp.Diagnostics.Append(core.NotConfiguredDiagnostic())
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultExportTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Provider.Client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	ctx = tflog.SetField(ctx, "job_id", state.JobID.ValueString())
	tflog.Info(ctx, "Applying the planned action: "+string(action))

	// The plan warned about a renew_before that renews on every run if it
	// knew the lifetime of the link in state; otherwise the new link tells.
	priorLink, _ := linkFromState(state.ExpiresAt, priv.Facts.LinkGeneratedAt)
	planWarned := renewsEveryRun(priorLink, renewBeforeValue(plan.RenewBefore))

	// Start from what is known: the job as last read and the current link,
	// which stays in state if a fresh one cannot be had.
	plan.copyJobAndLink(&state)
	diags = r.completeExport(ctx, &plan, startedJob{}, state.LinkRevision.ValueInt64(), &priv, bundleWait{budget: core.Budget("timeouts.update", timeout)})
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		// No new link: the revision stays, so nothing downstream rolls,
		// and so do the renew_triggers, so that the next plan renews.
		plan.LinkRevision, plan.RenewTriggers = state.LinkRevision, state.RenewTriggers
	} else if !planWarned {
		resp.Diagnostics.Append(warnIfRenewsEveryRun(&plan, priv)...)
	}
	priv.Facts.AdoptedAtImport = false
	resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete forgets the bundle: the API has no way to delete an export or
// revoke its link, so it warns that the link keeps working. An export that
// never got its link is left to the bundle's replacement (leaveExport).
func (r *staticExportBundleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state staticExportBundleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	jobID, expiresAt := state.JobID, state.ExpiresAt
	r.leaveExport(ctx, &state)
	tflog.Info(ctx, "Forgetting static export bundle; the Mintlify API has no delete", map[string]any{
		"job_id": jobID.ValueString(),
	})
	if known(expiresAt) { // a link was generated
		resp.Diagnostics.Append(linkStillWorksWarning(jobID.ValueString(), expiresAt.ValueString()))
	}
}

// ImportState adopts an existing export job by its id, `JOB_ID` for
// today's contract or `PROJECT_ID/JOB_ID` for a project-scoped job, or by
// the identity's `job_id` and `project_id`. The API does not return
// `domain`, `version`, `paths` or `base_path`: the first plan after the
// import takes them from configuration. The refresh that follows takes the
// link of a completed job (adoptAtImport); the apply takes it otherwise.
func (r *staticExportBundleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	projectID, jobID, ok := importTarget(req.ID)
	if req.ID == "" && req.Identity != nil {
		var identity staticExportBundleIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		projectID, jobID = identity.ProjectID.ValueString(), identity.JobID.ValueString()
		ok = jobID != ""
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !ok {
		resp.Diagnostics.AddError("Missing Job ID",
			"Import a static export bundle by the id of its export job, for example "+
				"`terraform import mintlify_static_export_bundle.docs se_3f9a2c1b8e7d4a06`, and a project-scoped "+
				"export by its project and job, `PROJECT_ID/JOB_ID`, for example "+
				"`terraform import mintlify_static_export_bundle.docs my-project/6520f3a1c9b1a20012ab34cd`.")
		return
	}
	m := staticExportBundleModel{JobID: types.StringValue(jobID), ProjectID: types.StringNull()}
	if projectID != "" {
		m.ProjectID = types.StringValue(projectID)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), jobID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("job_id"), jobID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathProjectID, m.ProjectID)...)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.Identity, &m)...)
	importing := core.PrivateState[bundleFacts]{Facts: bundleFacts{Importing: true}}
	resp.Diagnostics.Append(importing.Write(ctx, resp.Private)...)
}
