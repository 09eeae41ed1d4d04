package deployment

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// redeploy is the update that a change of `triggers` plans with
// `on_failure = "record"` (see redeploys): it triggers a new deployment and
// waits for it like a create, but, being an update, it never taints the
// resource, and it starts from the prior state, whose `last_success` stays
// unless the new deployment succeeds. handled is false for any other
// update.
func (r *deploymentResource) redeploy(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) (handled bool) {
	var plan, state deploymentResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !redeploys(&state, &plan) {
		return resp.Diagnostics.HasError()
	}
	// Until a deployment is triggered, an error keeps the prior state,
	// triggers included, so that the next apply tries again.
	if r.Provider == nil {
		resp.Diagnostics.Append(core.NotConfiguredDiagnostic())
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return true
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultDeploymentWaitTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return true
	}
	ctx, cancel := r.Provider.Client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	projectID := plan.ProjectID.ValueString()
	statusID, ok := trigger(ctx, r.Provider.Client, projectID, &resp.Diagnostics)
	if !ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return true
	}
	// From here on the state records the new deployment, whatever happens;
	// the deployment in state shows how long one takes.
	plan.LastSuccess = state.LastSuccess
	r.follow(ctx, &plan, statusID, deploymentOutput{&resp.State, resp.Identity, &resp.Diagnostics},
		deploymentWaitOnResume(core.Budget("timeouts.create", timeout)), foretold{took: state.took(), fresh: true})
	return true
}
