package core

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// What every action that acts in one project shares (the agent job, the
// deployment, the automation run): the provider's data, the refusal at
// plan time of an action with no project, and how an Invoke begins.

// ProjectAction is embedded in such an action. doing names its work for a
// missing project: "Triggering a deployment".
type ProjectAction struct {
	Provider *ProviderData
	Doing    string
}

func (a *ProjectAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.Provider = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan refuses, at plan time, an action that has no project to act
// in.
func (a *ProjectAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var projectID types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, PathProjectID, &projectID)...)
	if resp.Diagnostics.HasError() || projectID.IsUnknown() || a.Provider == nil {
		return
	}
	_, diags := a.Provider.ProjectFor(projectID, a.Doing, "action")
	resp.Diagnostics.Append(diags...)
	if !diags.HasError() {
		a.Provider.CheckKeyAtPlan(ctx, &resp.Diagnostics)
	}
}

// projectActionModel is the configuration of such an action: its
// `project_id` and its `timeout`.
type projectActionModel interface {
	ProjectInputs() (projectID, timeout types.String)
}

// BeginInvoke reads what every Invoke of such an action starts from: the
// configuration (Call.Plan), its project (the configured one, or the
// provider's) and a context bounded by its `timeout` (defaultTimeout unless
// set). ok is false, with the diagnostics in resp, when the provider is not
// configured or any of it cannot be read. The caller defers call.Cancel()
// in every case.
func BeginInvoke[M any, P interface {
	*M
	projectActionModel
}](ctx context.Context, a *ProjectAction, defaultTimeout time.Duration, req action.InvokeRequest, resp *action.InvokeResponse) (call Call[M], ok bool) {
	call.Ctx = ctx
	call.Plan, ok = ConfiguredModel[M](ctx, a.Provider, req.Config, &resp.Diagnostics)
	if !ok {
		return call, false
	}
	configured, setTimeout := P(&call.Plan).ProjectInputs()
	projectID, diags := a.Provider.ProjectFor(configured, a.Doing, "action")
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return call, false
	}
	call.ProjectID = projectID
	call.bounded = bound(ctx, a.Provider, "timeout", durationOr(setTimeout, defaultTimeout))
	return call, true
}

// WithProgress returns what an Invoke that resp answers reports as it
// works: to the person at the terminal, as Terraform's progress events, and
// to the log at INFO; and ctx with each wait of a call for its turn within
// a documented rate limit of the organization reported the same way.
func WithProgress(ctx context.Context, resp *action.InvokeResponse) (context.Context, func(format string, args ...any)) {
	progress := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		tflog.Info(ctx, msg)
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
	return mintlify.WithTurnHook(ctx, func(t mintlify.Turn) { progress("%s.", t.Message()) }), progress
}
