package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// What the operations of the resources start from, read in one way.

// configuredModel reads the configuration of a data source, an ephemeral
// resource or an action, which all need the client: ok is false, with the
// diagnostics, while the provider is not configured or when the
// configuration cannot be read.
func configuredModel[M any](ctx context.Context, data *providerData, config tfsdk.Config, diags *diag.Diagnostics) (m M, ok bool) {
	if data == nil {
		diags.Append(notConfiguredDiagnostic())
		return m, false
	}
	diags.Append(config.Get(ctx, &m)...)
	return m, !diags.HasError()
}

// plannedModel reads the plan that ModifyPlan shapes; ok is false for a
// destroy (there is no plan) or when the plan cannot be read.
func plannedModel[M any](ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (plan M, ok bool) {
	if req.Plan.Raw.IsNull() {
		return plan, false
	}
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	return plan, !resp.Diagnostics.HasError()
}

// beginUpdate reads what every Update starts from: the plan, the prior
// state, and the action the plan decided, which it takes from private
// state so that it is not stored with the resource. ok is false, with the
// diagnostics in resp, when any of it cannot be read.
func beginUpdate[M any](ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) (plan, state M, priv privateState, action plannedAction, ok bool) {
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	priv, diags := readPrivate(ctx, resp.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return plan, state, priv, actionNone, false
	}
	action = priv.takePlannedAction()
	resp.Diagnostics.Append(priv.write(ctx, resp.Private)...)
	return plan, state, priv, action, !resp.Diagnostics.HasError()
}
