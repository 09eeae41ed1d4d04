package staticexport

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// ModifyPlan refuses at plan a create over a file the resource did not
// write, and plans the restore of an archive that the last refresh found
// missing or changed: an in-place update, with a warning, that keeps every
// hash known (only downloaded_at is unknown).
func (r *staticExportArchiveResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer core.CheckKeyOnCreate(ctx, r.Provider, req, resp)
	plan, ok := plannedModel[staticExportArchiveModel](ctx, req, resp)
	if !ok {
		return
	}
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(planCreate(ctx, req, plan)...)
		return
	}
	var state staticExportArchiveModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	var priv core.PrivateState[archiveFacts]
	diags := priv.Read(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || replaced(plan, state) {
		return
	}
	restore := priv.Facts.FileDrift != nil
	if restore {
		if d := driftDiagnostic(*priv.Facts.FileDrift, state, plan.Overwrite); d != nil {
			resp.Diagnostics.Append(d)
		}
		if resp.Diagnostics.HasError() {
			return
		}
		plan.DownloadedAt = types.StringUnknown()
	}
	plan.Format = plannedFormat(state.Format, restore)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planCreate refuses a create whose output_path, known at plan, holds
// something other than a regular file, whatever overwrite says, or a file
// the resource did not write, except an archive (gzip or ZIP), which
// Create refuses instead (before downloading anything).
//
// The exception is for create_before_destroy. Terraform plans the create
// half of a replacement with the private state of the instance it
// replaces, so the old instance's file passes here at plan (and without
// create_before_destroy it is deleted before the create). But at apply,
// Terraform sets the old instance aside and plans the create again with no
// private state: an error here would then leave the old instance set aside
// (deposed) instead of current, while an error of Create makes Terraform
// restore it. The old instance's file is an archive, gzip or ZIP.
func planCreate(ctx context.Context, req resource.ModifyPlanRequest, plan staticExportArchiveModel) diag.Diagnostics {
	if plan.OutputPath.IsUnknown() {
		return nil
	}
	p := plan.OutputPath.ValueString()
	var priv core.PrivateState[archiveFacts]
	diags := priv.Read(ctx, req.Private)
	// Unknown, overwrite may be true: only what it never allows is refused.
	overwrite := plan.Overwrite.IsUnknown() || plan.Overwrite.ValueBool()
	var occupied *occupiedError
	var notRegular *notRegularError
	switch err := checkOutputPath(p, priv.Facts.Written, overwrite); {
	case errors.As(err, &notRegular):
		diags.Append(notRegularDiagnostic(notRegular, "Nothing was downloaded."))
	case errors.As(err, &occupied) && !isArchiveFile(p):
		diags.Append(occupiedDiagnostic(occupied, "Nothing was downloaded."))
	}
	return diags
}

// replaced reports whether the plan replaces the resource.
func replaced(plan, state staticExportArchiveModel) bool {
	return !plan.JobID.Equal(state.JobID) || !plan.ProjectID.Equal(state.ProjectID) || !plan.OutputPath.Equal(state.OutputPath)
}

// plannedFormat is `format` in a plan that keeps the resource: the state's.
// A state written before `format` existed has none: it stays null, so that
// such a state plans no change, until a restore downloads the archive
// again and tells it (unknown until then).
func plannedFormat(state types.String, restore bool) types.String {
	if state.IsNull() && restore {
		return types.StringUnknown()
	}
	return state
}
