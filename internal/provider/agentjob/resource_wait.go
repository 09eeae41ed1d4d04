package agentjob

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The resource's waits for its job: after the create that started it, and
// in an update that resumes waiting for the job in state (see planResume).

// agentWaitOnCreate is the wait of a create, which Terraform taints when it
// fails.
func agentWaitOnCreate(b core.WaitBudget) agentWait {
	resume := "The resource is tainted but keeps the job. Run `terraform apply` again: the plan shows the " +
		"resource replaced, and while the job is still `active`, the replacement waits for this same job instead " +
		"of starting another (as long as `project_id`, `prompt` and `triggers` stay the same, and without " +
		"`create_before_destroy`)."
	return agentWaitLonger(b, resume,
		core.ReplacedAfterTaint("starts a new agent job and may open another pull request",
			"this job"),
		core.ReplacedAfterTaint("starts a new agent job (change `prompt` first if it was the cause)",
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

// agentWaitLonger is core.ResourceWait, with the advice to raise b after a
// timeout (never after an interrupt).
func agentWaitLonger(b core.WaitBudget, resume, unknown, failed string) agentWait {
	w := core.ResourceWait[mintlify.AgentJob](b, resume, unknown, failed)
	w.Longer = agentTakesLonger(b)
	return w
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
