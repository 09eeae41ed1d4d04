package deployment

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// ModifyPlan settles the project (and a replacement when a configured one
// changes), and shows what an update does: a change of `triggers` deploys
// the preview again, and a deployment still running in state is waited
// for (the decision reaches Update in planned private state).
func (r *previewDeploymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer core.CheckKeyOnCreate(ctx, r.Provider, req, resp)
	if core.PlanImportUnchanged(ctx, []string{"branch", "project_id", "triggers", "timeouts"}, req, resp) {
		return
	}
	if core.PlanProjectID(ctx, r.Provider, "Deploying a preview", req, resp) {
		core.PlanResume[previewDeploymentModel](ctx, core.Resume[previewDeploymentModel]{
			Running: deploymentRunning, Logged: "Planning to wait for the preview deployment, which is still running",
			Redeploys:      func(state, plan *previewDeploymentModel) bool { return previewRedeploys(*state, *plan) },
			RedeployLogged: "Planning to deploy the preview again: its triggers changed",
		}, req, resp)
	}
}

// MarkRedeploying shows the preview deployed again: a new deployment, with
// its own status id, URL and fields.
func (m *previewDeploymentModel) MarkRedeploying() {
	m.ID, m.PreviewURL = types.StringUnknown(), types.StringUnknown()
	m.MarkChanging()
	m.CreatedAt, m.Source = types.StringUnknown(), types.StringUnknown()
}
