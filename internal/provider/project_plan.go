package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// planProjectID settles `project_id` in the plan of a resource that acts in
// one project (an agent job, a deployment, a preview, an automation run): on create the configured
// project or the provider's; afterwards the project in state, unless the
// configuration names another, which replaces the resource. A change of
// the provider's project never replaces anything by itself. settled is
// false when the plan needs nothing more from the caller: a destroy, a
// create, a replacement, an unknown project, or an error.
func planProjectID(ctx context.Context, data *providerData, doing string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (settled bool) {
	if req.Plan.Raw.IsNull() {
		return false // destroy
	}
	var configured, planned, prior types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathProjectID, &configured)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathProjectID, &planned)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathProjectID, &prior)...)
	}
	if resp.Diagnostics.HasError() || configured.IsUnknown() {
		return false
	}
	if req.State.Raw.IsNull() {
		if !configured.IsNull() || data == nil {
			return false // planned as configured, or unknown until the provider is
		}
		projectID, diags := data.projectFor(configured, doing, "resource")
		resp.Diagnostics.Append(diags...)
		if !diags.HasError() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathProjectID, projectID)...)
		}
		return false
	}
	if !configured.IsNull() && !planned.Equal(prior) {
		resp.RequiresReplace = append(resp.RequiresReplace, pathProjectID)
		return false
	}
	if configured.IsNull() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathProjectID, prior)...)
	}
	return !resp.Diagnostics.HasError()
}
