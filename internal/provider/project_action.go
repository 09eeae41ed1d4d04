package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// What every action that acts in one project shares (the agent job, the
// deployment, the automation run): the provider's data, the refusal at
// plan time of an action with no project, and how an Invoke begins.

// projectAction is embedded in such an action. doing names its work for a
// missing project: "Triggering a deployment".
type projectAction struct {
	provider *providerData
	doing    string
}

func (a *projectAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.provider = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan refuses, at plan time, an action that has no project to act
// in.
func (a *projectAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var projectID types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathProjectID, &projectID)...)
	if resp.Diagnostics.HasError() || projectID.IsUnknown() || a.provider == nil {
		return
	}
	_, diags := a.provider.projectFor(projectID, a.doing, "action")
	resp.Diagnostics.Append(diags...)
}

// projectActionModel is the configuration of such an action: its
// `project_id` and its `timeout`.
type projectActionModel interface {
	projectInputs() (projectID, timeout types.String)
}

// beginInvoke reads what every Invoke of such an action starts from: the
// configuration, its project (the configured one, or the provider's) and
// its timeout (defaultTimeout unless set). ok is false, with the
// diagnostics in resp, when the provider is not configured or any of it
// cannot be read.
func beginInvoke[M any, P interface {
	*M
	projectActionModel
}](ctx context.Context, a *projectAction, defaultTimeout time.Duration, req action.InvokeRequest, resp *action.InvokeResponse) (m M, projectID string, timeout time.Duration, ok bool) {
	m, ok = configuredModel[M](ctx, a.provider, req.Config, &resp.Diagnostics)
	if !ok {
		return m, "", 0, false
	}
	configured, setTimeout := P(&m).projectInputs()
	projectID, diags := a.provider.projectFor(configured, a.doing, "action")
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return m, "", 0, false
	}
	return m, projectID, durationOr(setTimeout, defaultTimeout), true
}
