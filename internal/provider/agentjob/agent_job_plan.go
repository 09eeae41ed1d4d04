package agentjob

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// ModifyPlan settles the project (the configured one or the provider's, and
// a replacement when it changes) and decides whether the apply waits for a
// job that is still active. The decision reaches Update in planned private
// state, as the bundle's does.
func (r *agentJobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer core.CheckKeyOnCreate(ctx, r.Provider, req, resp)
	// The first plan after an import, with the configuration that
	// `-generate-config-out` wrote (`prompt = null`), changes nothing.
	if core.PlanImportUnchanged(ctx, []string{"prompt", "project_id", "triggers", "timeouts"}, req, resp) {
		return
	}
	settled := core.PlanProjectID(ctx, r.Provider, "Starting an agent job", req, resp)
	requirePrompt(ctx, req, resp)
	if settled && !resp.Diagnostics.HasError() {
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

// requirePrompt refuses, at plan, a plan that starts an agent job (a create
// or a replacement) without `prompt`. Only an imported job may lack one:
// the API does not return a job's prompt, so the configuration generated on
// import has `prompt = null`, and a job without one is never started.
func requirePrompt(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() && len(resp.RequiresReplace) == 0 {
		return // a destroy, or no job to start
	}
	var prompt types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("prompt"), &prompt)...)
	if !prompt.IsNull() {
		return
	}
	doing := "This plan starts a new agent job"
	if !req.State.Raw.IsNull() {
		doing = "This plan replaces the agent job, which starts a new one,"
	}
	resp.Diagnostics.AddAttributeError(path.Root("prompt"), "Missing Agent Job Prompt",
		doing+" but `prompt` is not set. Set `prompt` to what the agent should do, such as `prompt = "+
			"\"Document the new CLI flags\"`. Only an imported job may leave `prompt` out: the API does not return "+
			"the prompt of a job.")
}
