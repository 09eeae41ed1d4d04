package deployment

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// ModifyPlan plans `project_id`: a new deployment goes to the configured
// project, or the provider's, and a deployment in state stays with its
// project unless `project_id` names another. It also plans to resume
// waiting for a deployment in state that still runs (see core.PlanResume), and
// warns, in the plan of a destroy, that the site stays as deployed.
func (r *deploymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer core.CheckKeyOnCreate(ctx, r.Provider, req, resp)
	warnDeploymentStays(ctx, req, resp)
	if core.PlanImportUnchanged(ctx, []string{"project_id", "triggers", "timeouts"}, req, resp) {
		return
	}
	if core.PlanProjectID(ctx, r.Provider, "Triggering a deployment", req, resp) {
		core.PlanResume[deploymentResourceModel](ctx, core.Resume[deploymentResourceModel]{
			Running: deploymentRunning, Logged: "Planning to wait for the deployment, which still runs",
			Redeploys: redeploys, RedeployLogged: "Planning to deploy again in place: `triggers` changed, and " +
				"`on_failure = \"record\"` keeps a failed deployment in state",
		}, req, resp)
		planLastSuccess(ctx, req, resp)
	}
}

// planLastSuccess shows `last_success` unknown when the update waits for a
// deployment, which may succeed.
func planLastSuccess(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}
	var status types.String
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("status"), &status)...)
	if !status.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("last_success"), types.ObjectUnknown(lastSuccessTypes))...)
}

// deploymentRunning reports a deployment (or a preview's) that has not
// ended.
func deploymentRunning(status string) bool {
	return status == mintlify.DeployStatusQueued || status == mintlify.DeployStatusInProgress
}

// pathWaitForCompletion is `wait_for_completion`, null in state exactly
// after an import.
var pathWaitForCompletion = path.Root("wait_for_completion")

// warnDeploymentStays warns, in the plan of a destroy (the plan is null),
// that the deployed site stays as it is. The warning is planned rather
// than given by Delete, which cannot tell a destroy from the replacement
// that every change of `triggers` makes: a warning on each deployment would
// teach users to ignore it.
func warnDeploymentStays(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var state deploymentResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Deployed Site Stays As It Is",
		fmt.Sprintf("Destroying %s forgets the %s, but the Mintlify API cannot delete a deployment or undeploy "+
			"a site: the docs site stays online as deployed. Nothing else needs to be done if that is fine. To "+
			"change what is live, push to the deployment branch and deploy again (Mintlify's GitHub app deploys "+
			"each push; a %s triggers a deployment); to take the site offline, use the Mintlify dashboard.",
			deploymentType, deploymentName(state.ID.ValueString(), state.ProjectID.ValueString()), deploymentType))
}
