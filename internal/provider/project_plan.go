package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
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

// projectModel is the model of a resource that acts in one project: its
// `project_id` and its `timeouts`.
type projectModel interface {
	projectInputs() (projectID *types.String, t timeouts.Value)
}

// beginCreate reads what every create of a resource that acts in one
// project starts from: the plan, with `project_id` settled (the plan's, or
// the provider's when the provider was not configured at plan time), and
// the create timeout (defaultTimeout unless set). doing names the create
// for a missing project: "Triggering a deployment". ok is false, with the
// diagnostics in resp, when the provider is not configured or any of it
// cannot be read.
func beginCreate[M any, P interface {
	*M
	projectModel
}](ctx context.Context, data *providerData, doing string, defaultTimeout time.Duration, req resource.CreateRequest, resp *resource.CreateResponse) (plan M, projectID string, timeout time.Duration, ok bool) {
	if data == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return plan, "", 0, false
	}
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return plan, "", 0, false
	}
	project, t := P(&plan).projectInputs()
	projectID, diags := data.projectFor(*project, doing, "resource")
	resp.Diagnostics.Append(diags...)
	timeout, diags = t.Create(ctx, defaultTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return plan, "", 0, false
	}
	*project = types.StringValue(projectID)
	return plan, projectID, timeout, true
}
