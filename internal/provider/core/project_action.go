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
	a.Provider = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
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
// configuration, its project (the configured one, or the provider's) and
// its timeout (defaultTimeout unless set). ok is false, with the
// diagnostics in resp, when the provider is not configured or any of it
// cannot be read.
func BeginInvoke[M any, P interface {
	*M
	projectActionModel
}](ctx context.Context, a *ProjectAction, defaultTimeout time.Duration, req action.InvokeRequest, resp *action.InvokeResponse) (m M, projectID string, timeout time.Duration, ok bool) {
	m, ok = ConfiguredModel[M](ctx, a.Provider, req.Config, &resp.Diagnostics)
	if !ok {
		return m, "", 0, false
	}
	configured, setTimeout := P(&m).ProjectInputs()
	projectID, diags := a.Provider.ProjectFor(configured, a.Doing, "action")
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return m, "", 0, false
	}
	return m, projectID, DurationOr(setTimeout, defaultTimeout), true
}

// Progress reports what an action does as it does it: to the person at the
// terminal, as Terraform's progress events, and to the log at INFO.
type Progress func(format string, args ...any)

// ProgressOf is the progress of the Invoke that resp answers.
func ProgressOf(ctx context.Context, resp *action.InvokeResponse) Progress {
	return func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		tflog.Info(ctx, msg)
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}

// WithTurnProgress returns ctx with each wait of a call for its turn
// within a documented rate limit of the organization reported as
// progress.
func WithTurnProgress(ctx context.Context, progress Progress) context.Context {
	return mintlify.WithTurnHook(ctx, func(t mintlify.Turn) { progress("%s.", t.Message()) })
}
