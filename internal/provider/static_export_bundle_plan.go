package provider

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
)

// The lifecycle of mintlify_static_export_bundle is decided in one place:
// planLink, a pure function of what the state, the configuration and the
// last refresh say. ModifyPlan gathers those facts, asks planLink, shapes the
// plan after the answer and carries the answer to Update in planned private
// state; Update does what it says and nothing else. No decision reads the
// clock: Terraform plans again during apply, and both plans must agree.
//
// A change of `domain`, `version`, `paths` or `triggers` is not decided here:
// the schema's plan modifiers replace the resource for it, as Terraform shows
// them ("forces replacement"), and so does a tainted resource.

// plannedAction is what a plan does about a resource's job; the plan
// carries it to the apply in private state.
type plannedAction string

const (
	// actionNone makes no request: the link is fresh, or nothing can be
	// judged. An update planned for other reasons (such as `timeouts`)
	// only stores the configuration.
	actionNone plannedAction = "none"
	// actionRenew generates a fresh link for the same completed job.
	actionRenew plannedAction = "renew"
	// actionResume waits for the job in state unless it completed: for the
	// bundle, a create that ended early and was untainted, which then gets
	// its first link; for the agent job, a job still active.
	actionResume plannedAction = "resume"
	// actionAdoptImport takes `domain`, `version`, `paths` and `triggers`
	// from configuration for an imported job, waits for it unless it
	// completed, and generates its first link.
	actionAdoptImport plannedAction = "adopt-import"
	// actionReplaceGone replaces the resource: the last refresh found the
	// job gone (HTTP 404), so no link can ever be generated for it.
	actionReplaceGone plannedAction = "replace-gone"
	// actionReplaceFailed replaces the resource: the job failed, and a
	// failed job has no bundle.
	actionReplaceFailed plannedAction = "replace-failed"
)

// plannedActions lists every action, for validation and tests.
var plannedActions = []plannedAction{actionNone, actionRenew, actionResume, actionAdoptImport, actionReplaceGone, actionReplaceFailed}

// replaces reports whether the action replaces the resource, which starts a
// new export.
func (a plannedAction) replaces() bool { return a == actionReplaceGone || a == actionReplaceFailed }

// requestsLink reports whether the apply of the action generates a link.
func (a plannedAction) requestsLink() bool {
	return a == actionRenew || a == actionResume || a == actionAdoptImport
}

// linkFacts is everything planLink decides on. All of it comes from the
// prior state, the planned configuration and private state; none of it
// from the clock.
type linkFacts struct {
	// JobID is the job in state, for the reasons given.
	JobID string
	// Imported is true on the first plan after an import: the prior state
	// has no `domain`, which is required in configuration.
	Imported bool
	// Gone is true when the last refresh got HTTP 404 for the job.
	Gone bool
	// Status is the job's status when last read; "" when never read.
	Status string
	// HasLink is true when a link was generated (`expires_at` is set),
	// whether or not the state keeps it (`store_link`).
	HasLink bool
	// LinkWantedInState is true when `store_link` was turned on for a link
	// that the state does not hold.
	LinkWantedInState bool
	// Link is the link's expiry and generation time (zero when unknown).
	Link linkState
	// RenewBefore is the configured `renew_before`, zero when unset.
	RenewBefore time.Duration
	// RenewBeforeUnknown is true when `renew_before` is only known after
	// apply, so the link cannot be judged.
	RenewBeforeUnknown bool
	// RefreshedAt is when the last refresh read the job; zero when none
	// was recorded (a plan with -refresh=false on an old state).
	RefreshedAt time.Time
}

// linkFactsOf gathers planLink's facts: the job and link from state, the
// settings renewBefore and storeLink from the configuration being planned
// (a refresh passes the state's own), and what the last refresh learned
// from private state. A link exists when `expires_at` does: `bundle_url` is
// null when `store_link` is false.
func linkFactsOf(state *staticExportBundleModel, renewBefore types.String, storeLink types.Bool, priv privateState) (linkFacts, diag.Diagnostics) {
	link, diags := linkFromState(state.ExpiresAt, priv.LinkGeneratedAt)
	return linkFacts{
		JobID:              state.JobID.ValueString(),
		Imported:           state.Domain.IsNull(),
		Gone:               priv.JobGone,
		Status:             state.Status.ValueString(),
		HasLink:            known(state.ExpiresAt),
		LinkWantedInState:  linkWantedInState(storeLink, state.BundleURL, state.ExpiresAt),
		Link:               link,
		RenewBefore:        renewBeforeValue(renewBefore),
		RenewBeforeUnknown: renewBefore.IsUnknown(),
		RefreshedAt:        priv.RefreshedAt,
	}, diags
}

// known reports a value that is neither null nor unknown.
func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }

// planLink decides what the plan does about the job and its link, and why.
// The reason is a phrase for logs and warnings ("" for actionNone when there
// is nothing to say). The order of the cases is the order of precedence.
func planLink(f linkFacts) (plannedAction, string) {
	switch {
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
		return actionResume, fmt.Sprintf("the static export job %s has no link yet", f.JobID)
	case f.Link.ExpiresAt.IsZero():
		return actionRenew, "the expiry of the link in state is unknown"
	case f.LinkWantedInState:
		return actionRenew, "`store_link` is now true, and the state holds no link to keep"
	case f.RenewBeforeUnknown:
		return actionNone, "`renew_before` is only known after apply, so the link is not judged in this plan"
	case f.RefreshedAt.IsZero():
		return actionNone, "no refresh has been recorded, so the link is not judged in this plan"
	}
	if reason := renewalReason(f.Link, f.RenewBefore, f.RefreshedAt); reason != "" {
		return actionRenew, reason
	}
	return actionNone, ""
}

// ModifyPlan asks planLink what to do about the job and its link, shapes
// the plan after the answer, and carries the answer to Update in planned
// private state: only a plan ever schedules a new link or a new export, so
// an apply does exactly what the plan showed.
func (r *staticExportBundleResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := plannedModel[staticExportBundleModel](ctx, req, resp)
	if !ok {
		return
	}
	if !req.State.Raw.IsNull() {
		r.planExisting(ctx, req, resp, &plan)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	plan.planStoredLink()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planExisting decides about the job and link of a bundle in state, and
// shapes plan after the decision.
func (r *staticExportBundleResource) planExisting(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan *staticExportBundleModel) {
	var state staticExportBundleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	priv, diags := readPrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	facts, diags := linkFactsOf(&state, plan.RenewBefore, plan.StoreLink, priv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if renewsEveryRun(facts.Link, facts.RenewBefore) {
		resp.Diagnostics.Append(renewsEveryRunWarning(facts.Link, facts.RenewBefore))
	}
	action, reason := planLink(facts)
	priv.plan(action)
	resp.Diagnostics.Append(priv.write(ctx, resp.Private)...)
	switch {
	case action == actionNone:
		if reason != "" {
			tflog.Debug(ctx, "Leaving the bundle link as it is: "+reason, map[string]any{"job_id": facts.JobID})
		}
	case action.replaces():
		tflog.Info(ctx, "Planning to "+string(action)+": "+reason, map[string]any{"job_id": facts.JobID})
		resp.Diagnostics.Append(replacementWarning(action, reason))
		plan.planReplacement()
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("job_id"))
	default:
		tflog.Info(ctx, "Planning to "+string(action)+": "+reason, map[string]any{"job_id": facts.JobID})
		plan.planNewLink(&state)
	}
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
	m.ReadyForRenewal = types.BoolValue(false)
	m.LinkRevision = types.Int64Unknown()
	if rev := state.LinkRevision; !rev.IsNull() && !rev.IsUnknown() {
		m.LinkRevision = types.Int64Value(rev.ValueInt64() + 1)
	}
}
