package deployment

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// ModifyPlan plans `project_id`: a new deployment goes to the configured
// project, or the provider's, and a deployment in state stays with its
// project unless `project_id` names another. It also plans to resume
// waiting for a deployment in state that still runs (see planResume), and
// warns, in the plan of a destroy, that the site stays as deployed.
func (r *deploymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	warnDeploymentStays(ctx, req, resp)
	if core.PlanProjectID(ctx, r.Provider, "Triggering a deployment", req, resp) {
		core.PlanResume[deploymentResourceModel](ctx, core.Resume[deploymentResourceModel]{
			Running: deploymentRunning, Logged: "Planning to wait for the deployment, which still runs",
		}, req, resp)
	}
}

// deploymentRunning reports a deployment (or a preview's) that has not
// ended.
func deploymentRunning(status string) bool {
	return status == mintlify.DeployStatusQueued || status == mintlify.DeployStatusInProgress
}
