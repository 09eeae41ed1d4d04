package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// ModifyPlan settles the project (and a replacement when a configured one
// changes), and shows what an update does: a change of `triggers` deploys
// the preview again, and a deployment still running in state is waited
// for (the decision reaches Update in planned private state).
func (r *previewDeploymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !planProjectID(ctx, r.provider, "Deploying a preview", req, resp) {
		return
	}
	var plan, state previewDeploymentModel
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	priv, diags := readPrivate[noFacts](ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	action := actionNone
	switch {
	case previewRedeploys(state, plan):
		tflog.Info(ctx, "Planning to deploy the preview again: its triggers changed")
		plan.ID, plan.PreviewURL = types.StringUnknown(), types.StringUnknown()
		plan.markChanging()
		plan.CreatedAt, plan.Source = types.StringUnknown(), types.StringUnknown()
	case deploymentRunning(state.Status.ValueString()) && plan.WaitForCompletion.ValueBool():
		tflog.Info(ctx, "Planning to wait for the preview deployment, which is still running")
		action = actionResume
		plan.markChanging()
	}
	priv.plan(action)
	resp.Diagnostics.Append(priv.write(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}
