package deployment

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Delete forgets the deployment: the API has no way to delete one. A
// deployment that still runs, of a resource that waits for its deployment,
// is left to the resource's replacement (see deploymentHandoffs).
func (r *deploymentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state deploymentResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	statusID, status := state.ID.ValueString(), state.Status.ValueString()
	tflog.Info(ctx, "Forgetting deployment; the Mintlify API has no delete", map[string]any{"deployment_id": statusID})
	projectID := state.ProjectID.ValueString()
	left := handoffsOf(r.Provider).forget(ctx, forgotten{status: status, waits: state.WaitForCompletion.ValueBool(),
		history: historyKey(projectID), took: state.took(),
		key: handoffKey(projectID, state.Triggers), left: handoff{StatusID: statusID}})
	if left {
		tflog.Info(ctx, "Leaving the running deployment to the resource's replacement, which waits for it instead of "+
			"triggering another", map[string]any{"deployment_id": statusID, "status": status})
	}
}
