package core

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// PlanProjectID settles `project_id` in the plan of a resource that acts in
// one project (an agent job, a deployment, a preview, an automation run): on create the configured
// project or the provider's; afterwards the project in state, unless the
// configuration names another, which replaces the resource. A change of
// the provider's project never replaces anything by itself. settled is
// false when the plan needs nothing more from the caller: a destroy, a
// create, a replacement, an unknown project, or an error.
func PlanProjectID(ctx context.Context, data *ProviderData, doing string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (settled bool) {
	if req.Plan.Raw.IsNull() {
		return false // destroy
	}
	var configured, planned, prior types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, PathProjectID, &configured)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, PathProjectID, &planned)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, PathProjectID, &prior)...)
	}
	if resp.Diagnostics.HasError() || configured.IsUnknown() {
		return false
	}
	if req.State.Raw.IsNull() {
		if !configured.IsNull() || data == nil {
			return false // planned as configured, or unknown until the provider is
		}
		projectID, diags := data.ProjectFor(configured, doing, "resource")
		resp.Diagnostics.Append(diags...)
		if !diags.HasError() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, PathProjectID, projectID)...)
		}
		return false
	}
	if !configured.IsNull() && !planned.Equal(prior) {
		resp.RequiresReplace = append(resp.RequiresReplace, PathProjectID)
		return false
	}
	if configured.IsNull() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, PathProjectID, prior)...)
	}
	return !resp.Diagnostics.HasError()
}

// projectModel is the model of a resource that acts in one project: its
// `project_id` and its `timeouts`.
type projectModel interface {
	ProjectInputs() (projectID *types.String, t timeouts.Value)
}

// BeginCreate reads what every create of a resource that acts in one
// project starts from: the plan, with `project_id` settled (the plan's, or
// the provider's when the provider was not configured at plan time), and
// the create timeout (defaultTimeout unless set), which bounds createCtx;
// cancel releases it. doing names the create for a missing project:
// "Triggering a deployment". ok is false, with the diagnostics in resp,
// when the provider is not configured or any of it cannot be read.
func BeginCreate[M any, P interface {
	*M
	projectModel
}](ctx context.Context, data *ProviderData, doing string, defaultTimeout time.Duration, req resource.CreateRequest, resp *resource.CreateResponse) (plan M, projectID string, createCtx context.Context, cancel context.CancelFunc, timeout time.Duration, ok bool) {
	cancel = func() {}
	if data == nil {
		resp.Diagnostics.Append(NotConfiguredDiagnostic())
		return plan, "", ctx, cancel, 0, false
	}
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return plan, "", ctx, cancel, 0, false
	}
	project, t := P(&plan).ProjectInputs()
	projectID, diags := data.ProjectFor(*project, doing, "resource")
	resp.Diagnostics.Append(diags...)
	timeout, diags = t.Create(ctx, defaultTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return plan, "", ctx, cancel, 0, false
	}
	*project = types.StringValue(projectID)
	createCtx, cancel = data.Client.Clock().WithTimeout(ctx, timeout)
	return plan, projectID, createCtx, cancel, timeout, true
}

// BeginRead reads what every refresh of a resource that acts in one project
// starts from: the state, and a context bounded by its `timeouts.read`
// (DefaultReadTimeout unless set), which cancel releases. ok is false when
// the refresh goes no further: the state or its timeouts cannot be read
// (the diagnostics are in resp), or the provider is not configured yet,
// which keeps the state as it is: Terraform configures the provider once
// its arguments are known. The state is returned in every case, for the
// caller to record the resource's identity.
func BeginRead[M any, P interface {
	*M
	projectModel
}](ctx context.Context, data *ProviderData, req resource.ReadRequest, resp *resource.ReadResponse) (state M, readCtx context.Context, cancel context.CancelFunc, timeout time.Duration, ok bool) {
	cancel = func() {}
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return state, ctx, cancel, 0, false
	}
	if data == nil {
		tflog.Warn(ctx, "Skipping refresh: the mintlify provider is not configured yet")
		return state, ctx, cancel, 0, false
	}
	_, t := P(&state).ProjectInputs()
	timeout, diags := t.Read(ctx, DefaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return state, ctx, cancel, 0, false
	}
	readCtx, cancel = data.Client.Clock().WithTimeout(ctx, timeout)
	return state, readCtx, cancel, timeout, true
}

// BeginResume reads what every Update of a resource that tracks a job
// starts from (see BeginUpdate), and settles an update that is no resume:
// the plan, which changes nothing on the Mintlify side, becomes the state.
// resume is true when the plan decided to resume waiting for the job in
// state (PlanResume); resumeCtx is then bounded by `timeouts.create`
// (defaultTimeout unless set), and cancel releases it.
func BeginResume[M any, P interface {
	*M
	projectModel
}](ctx context.Context, data *ProviderData, defaultTimeout time.Duration, req resource.UpdateRequest, resp *resource.UpdateResponse) (plan, state M, resumeCtx context.Context, cancel context.CancelFunc, timeout time.Duration, resume bool) {
	cancel = func() {}
	plan, state, _, action, ok := BeginUpdate[M, NoFacts](ctx, req, resp)
	switch {
	case !ok:
		return plan, state, ctx, cancel, 0, false
	case action != ActionResume:
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return plan, state, ctx, cancel, 0, false
	case data == nil:
		resp.Diagnostics.Append(NotConfiguredDiagnostic())
		return plan, state, ctx, cancel, 0, false
	}
	_, t := P(&plan).ProjectInputs()
	timeout, diags := t.Create(ctx, defaultTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return plan, state, ctx, cancel, 0, false
	}
	resumeCtx, cancel = data.Client.Clock().WithTimeout(ctx, timeout)
	return plan, state, resumeCtx, cancel, timeout, true
}
