package agentjob

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// ModifyPlan settles the project (the configured one or the provider's, and
// a replacement when it changes) and decides whether the apply waits for a
// job that is still active. The decision reaches Update in planned private
// state, as the bundle's does.
func (r *agentJobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if core.PlanProjectID(ctx, r.Provider, "Starting an agent job", req, resp) {
		// An apply after `terraform untaint` (or after importing an active
		// job) resumes the same job.
		core.PlanResume[agentJobResourceModel](ctx, core.Resume[agentJobResourceModel]{
			Running: func(status string) bool { return status == mintlify.AgentStatusActive },
			Logged:  "Planning to wait for the agent job, which is still active",
		}, req, resp)
	}
}

// JobStatus and MarkRedeploying make the model one that PlanResume plans.
func (m *agentJobResourceModel) JobStatus() string { return m.Status.ValueString() }
func (m *agentJobResourceModel) MarkRedeploying()  {} // an update never starts another job
