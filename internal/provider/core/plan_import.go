package core

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// The first plan after an import that changes nothing: `terraform plan
// -generate-config-out` writes the imported values, and arguments the API
// does not know as null (`triggers`, `timeouts`, `wait_for_completion`, an
// agent job's `prompt`). Left to the framework, that plan would update
// `wait_for_completion` from null (null in state only after an import) to
// its default; planning nothing instead keeps the generated
// configuration's plan clean. The mark stays until a plan changes an
// argument: that plan takes `triggers` from configuration without starting
// anything, as after any import.

// PlanImportUnchanged plans no change for a freshly imported resource whose
// configuration leaves `wait_for_completion` unset and gives inputs the
// same values as the state; handled is true when it did so.
func PlanImportUnchanged(ctx context.Context, inputs []string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (handled bool) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return false
	}
	var prior, configured types.Bool
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathWaitForCompletion, &prior)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathWaitForCompletion, &configured)...)
	if resp.Diagnostics.HasError() || !prior.IsNull() || !configured.IsNull() {
		return false
	}
	for _, name := range inputs {
		var planned, state attr.Value
		resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root(name), &planned)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &state)...)
		if resp.Diagnostics.HasError() || !planned.Equal(state) {
			return false
		}
	}
	tflog.Debug(ctx, "Planning no change for the imported resource: its configuration matches the state")
	resp.Plan.Raw = req.State.Raw.Copy()
	return true
}
