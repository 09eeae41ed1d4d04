package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// ModifyPlan settles the project (the configured one or the provider's, and
// a replacement when it changes) and decides whether the apply waits for a
// job that is still active. The decision reaches Update in planned private
// state, as the bundle's does.
func (r *agentJobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planProjectID(ctx, r.provider, "Starting an agent job", req, resp) {
		// An apply after `terraform untaint` (or after importing an active
		// job) resumes the same job.
		planResume[agentJobResourceModel](ctx, func(status string) bool { return status == mintlify.AgentStatusActive },
			"Planning to wait for the agent job, which is still active", req, resp)
	}
}
