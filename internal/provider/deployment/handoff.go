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
	if r.Provider != nil {
		// For the replacement, if any (see foretold).
		handoffsOf(r.Provider).remember(ctx, historyKey(state.ProjectID.ValueString()), state.took())
	}
	if !deploymentRunning(status) || !state.WaitForCompletion.ValueBool() || r.Provider == nil || statusID == "" {
		return
	}
	handoffsOf(r.Provider).leave(handoffKey(state.ProjectID.ValueString(), state.Triggers), handoff{StatusID: statusID})
	tflog.Info(ctx, "Leaving the running deployment to the resource's replacement, which waits for it instead of "+
		"triggering another", map[string]any{"deployment_id": statusID, "status": status})
}
