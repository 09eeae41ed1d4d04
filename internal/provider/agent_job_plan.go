package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// ModifyPlan settles the project (the configured one or the provider's, and
// a replacement when it changes) and decides whether the apply waits for a
// job that is still active. The decision reaches Update in planned private
// state, as the bundle's does.
func (r *agentJobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planProjectID(ctx, r.provider, "Starting an agent job", req, resp) {
		r.planResume(ctx, req, resp)
	}
}

// planResume decides to wait for the job when it is still active and the
// configuration asks to wait: an apply after `terraform untaint` (or after
// importing an active job) resumes the same job. The plan then shows the
// job's fields changing.
func (r *agentJobResource) planResume(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var status types.String
	var wait types.Bool
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("status"), &status)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("wait_for_completion"), &wait)...)
	priv, diags := readPrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	action := actionNone
	if status.ValueString() == mintlify.AgentStatusActive && wait.ValueBool() {
		action = actionResume
	}
	priv.plan(action)
	resp.Diagnostics.Append(priv.write(ctx, resp.Private)...)
	if action != actionResume {
		return
	}
	tflog.Info(ctx, "Planning to wait for the agent job, which is still active")
	var plan agentJobResourceModel
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.markChanging()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}
