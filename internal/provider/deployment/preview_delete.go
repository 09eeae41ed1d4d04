package deployment

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// What a destroy of a preview says: the Mintlify API cannot delete a
// preview, so destroying the resource only forgets it, and a warning says
// what stays online and what the user can do instead (the deployment's
// warning is planned: warnDeploymentStays).

// Delete forgets the preview: the API has no way to delete one. It warns
// that the preview stays online, at its address, unless it leaves a
// deployment that still runs, of a resource that waits for its deployment,
// to the resource's replacement (see deploymentHandoffs), which then waits
// for it: the preview goes on in the replacement.
func (r *previewDeploymentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state previewDeploymentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	statusID, status := state.ID.ValueString(), state.Status.ValueString()
	tflog.Info(ctx, "Forgetting preview deployment; it stays online until Mintlify removes it",
		map[string]any{"status_id": statusID, "preview_url": state.PreviewURL.ValueString()})
	projectID, branch := state.ProjectID.ValueString(), state.Branch.ValueString()
	left := handoffsOf(r.Provider).forget(ctx, forgotten{status: status, waits: state.WaitForCompletion.ValueBool(),
		history: previewHistoryKey(projectID, branch), took: state.took(),
		key:  previewHandoffKey(projectID, branch, state.Triggers),
		left: handoff{StatusID: statusID, PreviewURL: state.PreviewURL.ValueString()}})
	if !left {
		resp.Diagnostics.Append(previewStaysOnlineWarning(state))
		return
	}
	tflog.Info(ctx, "Leaving the running preview deployment to the resource's replacement, which waits for it "+
		"instead of deploying the preview again", map[string]any{"status_id": statusID, "status": status})
}

// previewStaysOnlineWarning tells, on destroy (or on the replacement of a
// preview by one of another branch), that the preview in the former state
// stays online, and how to keep strangers out of it.
func previewStaysOnlineWarning(state previewDeploymentModel) diag.Diagnostic {
	where := "at its address (which the state did not hold: the resource was imported and never deployed since)"
	if url := state.PreviewURL.ValueString(); url != "" {
		where = "at " + url
	}
	return diag.NewWarningDiagnostic("Preview Stays Online",
		fmt.Sprintf("Terraform forgot the preview of branch %s (%s), but the Mintlify API cannot delete a "+
			"preview: it stays online %s, for anyone who has the address, until Mintlify removes it. Nothing "+
			"else needs to be done if that is fine. To keep it from the public (a preview of an unreleased "+
			"branch), password-protect it, or turn on preview authentication for every preview, in the Previews "+
			"section of the Add-ons page of the Mintlify dashboard.", escaped(state.Branch.ValueString()),
			deploymentName(state.ID.ValueString(), state.ProjectID.ValueString()), where))
}
