package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// What the static export family's types share: the paths, plan modifiers,
// advice and readings of a plan that the bundle, the archive and the job
// data source use alike.

// jobIDFix is what to do about a `job_id` that names no static export job,
// for the archive and the ephemeral bundle alike.
const jobIDFix = "Set it to the ID of a completed static export job, usually " +
	"`mintlify_static_export_bundle.<name>.job_id`."

// keepInt64 keeps a computed number from state while a plan does not
// change it.
var keepInt64 = []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}

var pathProjectID = core.PathProjectID

// plannedModel reads the plan that ModifyPlan shapes; ok is false for a
// destroy (there is no plan) or when the plan cannot be read.
func plannedModel[M any](ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (plan M, ok bool) {
	if req.Plan.Raw.IsNull() {
		return plan, false
	}
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	return plan, !resp.Diagnostics.HasError()
}

// known reports a value that is neither null nor unknown.
func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
