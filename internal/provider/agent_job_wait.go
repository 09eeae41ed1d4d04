package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// defaultAgentWaitTimeout bounds a wait for an agent job when no timeout is
// set.
const defaultAgentWaitTimeout = 30 * time.Minute

// agentJobType is the resource's type name, for advice.
const agentJobType = "mintlify_agent_job"

// agentWait is, for the diagnostics of a wait for an agent job, what bounded
// it and what to do next when it ends before the job does (resume), on a
// status nobody knows (unknown), or on a failed job (failed).
type agentWait struct {
	budget                  waitBudget
	resume, unknown, failed string
}

// agentWaitOnCreate is the wait of a create, which Terraform taints when it
// fails.
func agentWaitOnCreate(timeout time.Duration) agentWait {
	b := budget("timeouts.create", timeout)
	return agentWait{
		budget: b,
		resume: untaintAdvice(agentJobType, "wait for this same job", "starting a new one") +
			" If the agent usually takes this long, " + b.raise() + ".",
		unknown: replacedAfterTaint(agentJobType, "starts a new agent job and may open another pull request", "this job"),
		failed: replacedAfterTaint(agentJobType, "starts a new agent job (change `prompt` first if it was the cause)",
			"the failed job"),
	}
}

// agentWaitOnResume is the wait of an update that resumes waiting for the
// job in state, which stays there whatever happens.
func agentWaitOnResume(timeout time.Duration) agentWait {
	b := budget("timeouts.create", timeout)
	return agentWait{
		budget: b,
		resume: "The job stays in state. Apply again to keep waiting for it; no new agent job starts. If the agent " +
			"usually takes this long, " + b.raise() + ".",
		unknown: "The state records the job with this status; no new agent job starts by itself.",
		failed: "The state records the failed job, and no new job starts by itself. To start a new agent job, change " +
			"`prompt` or `triggers`, or run `terraform apply -replace=" + agentJobType + ".NAME`, with the address shown " +
			"above after `with`.",
	}
}

// wait waits for the job until it is no longer active, keeping the model
// current with whatever was learned, also on failure. started is the
// answer of the create that just made the job, nil to begin with a read.
func (r *agentJobResource) wait(ctx context.Context, m *agentJobResourceModel, started *mintlify.AgentJob, w agentWait) diag.Diagnostics {
	var diags diag.Diagnostics
	client := r.data.client
	projectID, jobID := m.ProjectID.ValueString(), m.ID.ValueString()
	logStatus := func(j mintlify.AgentJob) {
		tflog.Info(ctx, "Agent job status", map[string]any{"status": j.Status})
	}
	job, err := client.WaitForAgentJob(ctx, projectID, jobID, mintlify.Started(started), mintlify.OnChange(logStatus))
	if mintlify.IsJobFailed(err) {
		err = nil // reported from job.Status below
	}
	if job != nil {
		diags.Append(m.set(job)...)
	}
	switch {
	case err != nil:
		diags.Append(agentWaitDiagnostic(err, getAgentJobOp(projectID, jobID), job, w))
	case job.Status == mintlify.AgentStatusFailed:
		diags.Append(agentFailedDiagnostic(projectID, jobID, w.failed))
	}
	return diags
}

// agentWaitDiagnostic explains why waiting for an agent job ended before
// the job did: the timeout, an interruption, or a request that failed. op
// reads the job; last is the job as last seen, nil if it was never read.
func agentWaitDiagnostic(err error, op apiOperation, last *mintlify.AgentJob, w agentWait) diag.Diagnostic {
	seen := "before its status was read"
	if last != nil {
		seen = fmt.Sprintf("`%s`", last.Status)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) && !isRetryDeadline(err):
		return diag.NewErrorDiagnostic("Agent Job Still Running",
			fmt.Sprintf("The Mintlify agent job %s in project %s did not finish within %s; it was %s. %s\n\n%s",
				op.jobID, op.projectID, w.budget, seen, keepsRunning, w.resume))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Agent Job Interrupted",
			fmt.Sprintf("Terraform was interrupted while waiting for the Mintlify agent job %s in project %s; it was %s. "+
				"%s\n\n%s", op.jobID, op.projectID, seen, keepsRunning, w.resume))
	}
	d := op.within(w.budget).diagnostic(err)
	next := w.resume
	if unknown := (*mintlify.UnknownStatusError)(nil); errors.As(err, &unknown) {
		next = w.unknown
	}
	return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+next)
}

// agentFailedDiagnostic reports an agent job that ended `failed`; next says
// what to do about it.
func agentFailedDiagnostic(projectID, jobID, next string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Agent Job Failed",
		fmt.Sprintf("The Mintlify documentation agent job %s in project %s failed: the agent could not carry out "+
			"the prompt. The API gives no reason; the job's page in the Mintlify "+
			"dashboard shows what the agent did.\n\n%s", jobID, projectID, next))
}

// agentJobGoneWarning tells that a refresh got 404 for the job in state,
// which stays as it was last seen.
func agentJobGoneWarning(projectID, jobID string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Agent Job No Longer Found",
		fmt.Sprintf("The Mintlify API answered 404 for the agent job %s in project %s. The state keeps the job "+
			"as it was last seen and does not start it again: running the agent again opens a new pull request, "+
			"which only a change of `prompt`, `project_id` or `triggers`, or `terraform apply -replace`, may "+
			"cause. To stop tracking the job, run `terraform state rm` with the resource's address.", jobID, projectID))
}
