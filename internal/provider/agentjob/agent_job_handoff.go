package agentjob

import (
	"context"
	"github.com/hashicorp/terraform-plugin-framework/attr"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// A create that timed out or was interrupted taints the agent job; the
// next plain apply replaces it, and the replacement takes over the job
// the tainted resource started instead of starting another
// (core.Handoffs): its destroy leaves a job that was still active at the
// last refresh, of a resource that waits for its job, and the create that
// follows, with the same project, prompt and triggers, waits for that job.

// agentHandoffArgs are what a replacement must share with the resource it
// replaces to take over its job: every argument whose change starts a new
// job.
func agentHandoffArgs(projectID string, m *agentJobResourceModel) []attr.Value {
	return []attr.Value{types.StringValue(projectID), m.Prompt, m.Triggers}
}

// handoffsKey is the key of the agent jobs' core.Handoffs in the provider's
// data.
type handoffsKey struct{}

// handoffsOf is the hand-over registry of agent jobs of a configured
// provider.
func handoffsOf(d *core.ProviderData) *core.Handoffs {
	return core.FamilyState(d, handoffsKey{}, func() *core.Handoffs { return new(core.Handoffs) })
}

// leaveJob hands the destroyed resource's job to its replacement when it
// was still active and the resource waits for it.
func (r *agentJobResource) leaveJob(ctx context.Context, state *agentJobResourceModel) {
	if r.Provider == nil || state.Status.ValueString() != mintlify.AgentStatusActive || !state.WaitForCompletion.ValueBool() ||
		state.ID.ValueString() == "" {
		return
	}
	handoffsOf(r.Provider).Leave(state.ID.ValueString(), agentHandoffArgs(state.ProjectID.ValueString(), state)...)
	tflog.Info(ctx, "Leaving the active agent job to the resource's replacement, which waits for it instead of "+
		"starting another", map[string]any{"agent_job_id": state.ID.ValueString()})
}

// takeOverJob returns the job a destroyed resource left for this create,
// as the API has it now; nil when none was left or the API no longer has
// it: the create then starts a new job.
func (r *agentJobResource) takeOverJob(ctx context.Context, projectID string, plan *agentJobResourceModel) *mintlify.AgentJob {
	jobID, ok := handoffsOf(r.Provider).Take(agentHandoffArgs(projectID, plan)...)
	if !ok {
		return nil
	}
	job, err := r.Provider.Client.GetAgentJob(ctx, projectID, jobID)
	if err != nil {
		tflog.Info(ctx, "Not resuming the agent job of the replaced resource: starting a new one",
			map[string]any{"agent_job_id": jobID, "reason": err.Error()})
		return nil
	}
	tflog.Info(ctx, LogAgentJobResumed, map[string]any{"agent_job_id": jobID, "status": job.Status})
	return job
}
