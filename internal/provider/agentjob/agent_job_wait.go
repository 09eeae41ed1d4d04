package agentjob

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The resource's waits for its job: after the create that started it, and
// in an update that resumes waiting for the job in state (see core.PlanResume).

// agentWaitOnCreate is the wait of a create, which Terraform taints when it
// fails.
func agentWaitOnCreate(b core.WaitBudget) agentWait {
	resume := "The resource is tainted but keeps the job. Run `terraform apply` again: the plan shows the " +
		"resource replaced, and while the job is still `active`, the replacement waits for this same job instead " +
		"of starting another (as long as `project_id`, `prompt` and `triggers` stay the same, and without " +
		"`create_before_destroy`)."
	return agentWaitLonger(b, resume,
		replacedAfterTaint("starts a new agent job and may open another pull request",
			"this job"),
		replacedAfterTaint("starts a new agent job (change `prompt` first if it was the cause)",
			"the failed job"))
}

// agentWaitOnResume is the wait of an update that resumes waiting for the
// job in state, which stays there whatever happens.
func agentWaitOnResume(b core.WaitBudget) agentWait {
	resume := "The job stays in state. Apply again to keep waiting for it; no new agent job starts."
	return agentWaitLonger(b, resume,
		"The state records the job with this status; no new agent job starts by itself.",
		"The state records the failed job, and no new job starts by itself. To start a new agent job, change "+
			"`prompt` or `triggers`, or run `terraform apply -replace=` with the resource's address, shown above after "+
			"`with`.")
}

// agentWaitLonger is the wait of a resource's operation, whose advice
// after a failed status request is the same as after a timeout or an
// interruption (resume): apply again; after a timeout (never after an
// interrupt) it advises raising b.
func agentWaitLonger(b core.WaitBudget, resume, unknown, failed string) agentWait {
	return agentWait{Budget: b, Resume: resume, Retry: resume, Unknown: unknown, Failed: failed, Longer: agentTakesLonger(b)}
}

// agentTakesLonger advises raising b when the agent usually needs longer.
func agentTakesLonger(b core.WaitBudget) string {
	return "If the agent usually takes this long, " + b.Raise() + "."
}

// wait waits for the model's job until it is no longer active, keeping the
// model current with whatever was learned, also on failure. started is the
// answer of the create that just made the job, nil to begin with a read.
func (r *agentJobResource) wait(ctx context.Context, m *agentJobResourceModel, started *mintlify.AgentJob, w agentWait) diag.Diagnostics {
	job, waitDiags := waitForAgentJob(ctx, r.Provider.Client, m.ProjectID.ValueString(), m.ID.ValueString(), started, w)
	var diags diag.Diagnostics
	if job != nil {
		diags.Append(m.set(job)...)
	}
	return append(diags, waitDiags...)
}

// replacedAfterTaint tells what follows a create that ended on a job that
// cannot be resumed (failed, or in a status nobody knows): the next apply
// replaces the tainted resource, unless untainted to keep the job. The
// protocol never tells a provider the resource's address (neither
// Terraform nor OpenTofu sends it); both print it above the message, after
// "with", so the advice points there instead of naming a placeholder.
func replacedAfterTaint(replacement, keep string) string {
	return fmt.Sprintf("The resource is tainted and keeps the job id: the next apply replaces it, which %s. To keep "+
		"%s in state instead, run `terraform untaint` with the resource's address, shown above after `with`.",
		replacement, keep)
}
