package staticexport

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The renewal vocabulary: what the bundle's plan may decide, carried to
// Update in private state (core.PrivateState) beside core.ActionResume.
const (
	// actionNone makes no request: the link is fresh, or nothing can be
	// judged. An update planned for other reasons (such as `timeouts`)
	// only stores the configuration. core spells it the same.
	actionNone core.PlannedAction = "none"
	// actionRenew generates a fresh link for the same completed job.
	actionRenew core.PlannedAction = "renew"
	// actionAdoptImport takes `domain`, `version`, `paths` and `triggers`
	// from configuration for an imported job, waits for it unless it
	// completed, and generates its first link.
	actionAdoptImport core.PlannedAction = "adopt-import"
	// actionReplaceGone replaces the resource: the last refresh found the
	// job gone (HTTP 404), so no link can ever be generated for it.
	actionReplaceGone core.PlannedAction = "replace-gone"
	// actionReplaceFailed replaces the resource: the job failed, and a
	// failed job has no bundle.
	actionReplaceFailed core.PlannedAction = "replace-failed"
)

// PlannedActions are the actions of the bundle's plan besides the ones
// every resource knows; core.PrivateState reads no other.
func (bundleFacts) PlannedActions() []core.PlannedAction {
	return []core.PlannedAction{actionRenew, actionAdoptImport, actionReplaceGone, actionReplaceFailed}
}

// replaces reports whether the action replaces the resource, which starts a
// new export.
func replaces(a core.PlannedAction) bool { return a == actionReplaceGone || a == actionReplaceFailed }

// requestsLink reports whether the apply of the action generates a link.
func requestsLink(a core.PlannedAction) bool {
	return a == actionRenew || a == core.ActionResume || a == actionAdoptImport
}

// The lifecycle of mintlify_static_export_bundle is decided in one place:
// planLink, a pure function of what the state, the configuration, the last
// refresh and the clock say. ModifyPlan gathers those facts, asks planLink,
// shapes the plan after the answer and carries the answer to Update in
// planned private state; Update does what it says and nothing else.
//
// Whether the link is due is judged at plan time from the clock, with or
// without a refresh (`-refresh=false`), as hashicorp/tls judges early
// renewal. Terraform plans again during apply, and both plans must agree:
// see judgedAt for how the second plan judges at the first one's moment.
//
// A change of `domain`, `version`, `paths` or `triggers` is not decided here:
// the schema's plan modifiers replace the resource for it, as Terraform shows
// them ("forces replacement"), and so does a tainted resource.

// linkFacts is everything planLink decides on: the prior state, the
// planned configuration, private state, and the moment the link is judged
// at.
type linkFacts struct {
	// JobID is the job in state, for the reasons given.
	JobID string
	// Imported is true on the first plan after an import: the prior state
	// has no `store_link`, which always has a value in configuration.
	Imported bool
	// Gone is true when the last refresh got HTTP 404 for the job.
	Gone bool
	// Retired is true when the last refresh found the domain-scoped
	// contract retired, and the configuration still selects it.
	Retired bool
	// Status is the job's status when last read; "" when never read.
	Status string
	// HasLink is true when a link was generated (`expires_at` is set),
	// whether or not the state keeps it (`store_link`).
	HasLink bool
	// LinkWantedInState is true when `store_link` was turned on for a link
	// that the state does not hold.
	LinkWantedInState bool
	// RenewTriggersChanged is true when `renew_triggers` differs from the
	// state's, or is only known after apply.
	RenewTriggersChanged bool
	// LeaveLink is true when `renew_link` is false: the link is left as it
	// is, however old.
	LeaveLink bool
	// Link is the link's expiry and generation time (zero when unknown).
	Link linkState
	// RenewBefore is the configured `renew_before`, zero when unset.
	RenewBefore time.Duration
	// RenewBeforeUnknown is true when `renew_before` is only known after
	// apply, so the link cannot be judged.
	RenewBeforeUnknown bool
	// JudgedAt is the moment the link is judged at (see judgedAt); zero
	// when there is no clock to read: the provider is not configured yet.
	JudgedAt time.Time
}

// linkFactsOf gathers planLink's facts: the job and link from state, the
// settings from the plan, what the last refresh learned from private state,
// and the moment to judge at. A link exists when `expires_at` does:
// `bundle_url` is null when `store_link` is false.
func linkFactsOf(state, plan *staticExportBundleModel, priv core.PrivateState[bundleFacts], at time.Time) (linkFacts, diag.Diagnostics) {
	link, diags := linkFromState(state.ExpiresAt, priv.Facts.LinkGeneratedAt)
	return linkFacts{
		JobID:                state.JobID.ValueString(),
		Imported:             state.StoreLink.IsNull(),
		Gone:                 priv.Facts.JobGone,
		Retired:              priv.Facts.DomainRetired && !plan.projectScoped(),
		Status:               state.Status.ValueString(),
		HasLink:              known(state.ExpiresAt),
		LinkWantedInState:    linkWantedInState(plan.StoreLink, state.BundleURL, state.ExpiresAt),
		RenewTriggersChanged: renewTriggersChanged(state.RenewTriggers, plan.RenewTriggers),
		LeaveLink:            !plan.renewsLink(),
		Link:                 link,
		RenewBefore:          renewBeforeValue(plan.RenewBefore),
		RenewBeforeUnknown:   plan.RenewBefore.IsUnknown(),
		JudgedAt:             at,
	}, diags
}

// planLink decides what the plan does about the job and its link, and why.
// The reason is a phrase for logs and warnings ("" for actionNone when there
// is nothing to say). The order of the cases is the order of precedence.
func planLink(f linkFacts) (core.PlannedAction, string) {
	switch {
	case f.Retired:
		// Neither a new export nor a new link can be had under `domain`:
		// keep the link in state, which works until it expires.
		return actionNone, "the Mintlify API no longer serves the domain-scoped static export"
	case f.Gone:
		return actionReplaceGone, fmt.Sprintf("the Mintlify API answered HTTP 404 for the static export job %s "+
			"on the last refresh, so its link can be neither renewed nor generated", f.JobID)
	case f.Imported:
		// Even a failed job: the apply reports why it failed, and the
		// plan after that replaces it.
		return actionAdoptImport, fmt.Sprintf("adopting the imported static export job %s", f.JobID)
	case f.Status == mintlify.StatusFailed:
		return actionReplaceFailed, fmt.Sprintf("the static export job %s failed, and a failed job has no bundle", f.JobID)
	case !f.HasLink:
		return core.ActionResume, fmt.Sprintf("the static export job %s has no link yet", f.JobID)
	case f.Link.ExpiresAt.IsZero():
		return actionRenew, "the expiry of the link in state is unknown"
	case f.LinkWantedInState:
		return actionRenew, "`store_link` is now true, and the state holds no link to keep"
	case f.RenewTriggersChanged:
		return actionRenew, "`renew_triggers` changed"
	case f.LeaveLink:
		return actionNone, "`renew_link` is false, so the link is left as it is"
	case f.RenewBeforeUnknown:
		return actionNone, "`renew_before` is only known after apply, so the link is not judged in this plan"
	case f.JudgedAt.IsZero():
		return actionNone, "the provider is not configured yet, so the link is not judged in this plan"
	}
	if reason := renewalReason(f.Link, f.RenewBefore, f.JudgedAt); reason != "" {
		return actionRenew, reason
	}
	return actionNone, ""
}

// ModifyPlan asks planLink what to do about the job and its link, shapes
// the plan after the answer, and carries the answer to Update in planned
// private state: only a plan ever schedules a new link or a new export, so
// an apply does exactly what the plan showed.
func (r *staticExportBundleResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer core.CheckKeyOnCreate(ctx, r.Provider, req, resp)
	plan, ok := plannedModel[staticExportBundleModel](ctx, req, resp)
	if !ok {
		return
	}
	r.planContract(ctx, req, resp, &plan)
	if resp.Diagnostics.HasError() {
		return
	}
	if !req.State.Raw.IsNull() {
		r.planExisting(ctx, req, resp, &plan)
		var state staticExportBundleModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		refuseExportWithoutDomain(&state, &plan, justImported(ctx, state.StoreLink, req.Private), resp)
		r.hintMove(&plan, resp)
	}
	plan.planStoredLink()
	if plan.Domain.IsNull() && !plan.ProjectID.IsNull() { // a project-scoped job reports neither
		plan.Progress, plan.PageCount = types.Float64Null(), types.Int64Null()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planExisting decides about the job and link of a bundle in state, and
// shapes plan after the decision.
func (r *staticExportBundleResource) planExisting(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan *staticExportBundleModel) {
	var state staticExportBundleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	var priv core.PrivateState[bundleFacts]
	diags := priv.Read(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	at := r.judgedAt(priv)
	facts, diags := linkFactsOf(&state, plan, priv, at)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if facts.Retired {
		resp.Diagnostics.Append(retiredWarning(facts.JobID, state.Domain.ValueString(), state.ExpiresAt.ValueString()))
	}
	if renewsEveryRun(facts.Link, facts.RenewBefore) {
		resp.Diagnostics.Append(renewsEveryRunWarning(facts.Link, facts.RenewBefore))
	}
	action, reason := planLink(facts)
	priv.Plan(action)
	priv.PlannedAt = at
	resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
	switch {
	case action == actionNone:
		if reason != "" {
			tflog.Debug(ctx, "Leaving the bundle link as it is: "+reason, map[string]any{"job_id": facts.JobID})
		}
		if r.mayRenewAtApply(plan, &state, facts) {
			plan.planPossibleRenewal()
		}
	case replaces(action):
		tflog.Info(ctx, "Planning to "+string(action)+": "+reason, map[string]any{"job_id": facts.JobID})
		resp.Diagnostics.Append(replacementWarning(action, reason))
		plan.planReplacement()
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("job_id"))
	default:
		tflog.Info(ctx, "Planning to "+string(action)+": "+reason, map[string]any{"job_id": facts.JobID})
		if action == actionRenew {
			resp.Diagnostics.Append(renewalWarning(facts.JobID, reason))
		}
		plan.planNewLink(&state)
	}
}

// judgedAt is the moment a plan judges the link at: the clock's now, unless
// the prior private state carries the moment of an earlier plan of the same
// change, as a CLI that hands the first plan's private state to the plan it
// makes again during apply would do; that plan then decides the same. Zero
// when the provider is not configured, so there is no clock.
func (r *staticExportBundleResource) judgedAt(priv core.PrivateState[bundleFacts]) time.Time {
	switch {
	case !priv.PlannedAt.IsZero():
		return priv.PlannedAt
	case r.Provider == nil:
		return time.Time{}
	}
	return r.Provider.Client.Clock().Now()
}

// mayRenewAtApply reports whether an apply may renew a link that this plan
// leaves alone. Terraform (1.16 included) and OpenTofu plan again during
// apply without this plan's private state, so that plan judges the link at
// the clock of the apply, which may be much later for a saved plan: for an
// in-place update planned for other reasons (`timeouts`, `renew_before`,
// `store_link`, `renew_triggers` aside), a link due by then is renewed, and
// this plan must show the link as known after apply for both plans to
// agree. A plan without changes is not planned again.
func (r *staticExportBundleResource) mayRenewAtApply(plan, state *staticExportBundleModel, f linkFacts) bool {
	if r.Provider == nil || !f.HasLink || f.Link.ExpiresAt.IsZero() || f.LeaveLink {
		return false
	}
	return !plan.sameInputs(state)
}

// planPossibleRenewal shows the link as known after apply: the apply may
// renew it (see mayRenewAtApply), or keep it.
func (m *staticExportBundleModel) planPossibleRenewal() {
	m.markLinkUnknown()
	m.LinkRevision = types.Int64Unknown()
}

// planReplacement shows a new export: a new job, and its first link.
func (m *staticExportBundleModel) planReplacement() {
	m.ID, m.JobID, m.CreatedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	m.LinkRevision = types.Int64Unknown()
	m.markJobUnknown()
	m.markLinkUnknown()
}

// planNewLink shows a new link for the job in state: the job's progress
// changes too unless it completed, and the revision grows by one, known
// now, when the state has one (the apply sets it otherwise).
func (m *staticExportBundleModel) planNewLink(state *staticExportBundleModel) {
	if state.Status.ValueString() != mintlify.StatusCompleted {
		m.markJobUnknown()
	}
	m.markLinkUnknown()
	m.LinkRevision = types.Int64Unknown()
	if rev := state.LinkRevision; !rev.IsNull() && !rev.IsUnknown() {
		m.LinkRevision = types.Int64Value(rev.ValueInt64() + 1)
	}
}
