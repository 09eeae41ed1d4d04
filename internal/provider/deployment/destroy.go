package deployment

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// What a destroy says: the Mintlify API can neither delete a preview nor
// undeploy a site, so destroying either resource only forgets it, and a
// warning says what stays online and what the user can do instead.

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

// warnDeploymentStays warns, in the plan of a destroy (the plan is null),
// that the deployed site stays as it is. The warning is planned rather
// than given by Delete, which cannot tell a destroy from the replacement
// that every change of `triggers` makes: a warning on each deployment would
// teach users to ignore it.
func warnDeploymentStays(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var state deploymentResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Deployed Site Stays As It Is",
		fmt.Sprintf("Destroying %s forgets the %s, but the Mintlify API cannot delete a deployment or undeploy "+
			"a site: the docs site stays online as deployed. Nothing else needs to be done if that is fine. To "+
			"change what is live, push to the deployment branch and deploy again (Mintlify's GitHub app deploys "+
			"each push; a %s triggers a deployment); to take the site offline, use the Mintlify dashboard.",
			deploymentType, deploymentName(state.ID.ValueString(), state.ProjectID.ValueString()), deploymentType))
}
