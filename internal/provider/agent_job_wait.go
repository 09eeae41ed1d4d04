package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The one wait for an agent job, which the resource, the data source and
// the action share. Each says, in an agentWait, what bounds its wait and
// what the person at the terminal should do next when it ends early.

// agentJobType is the resource's type name, for advice.
const agentJobType = "mintlify_agent_job"

// agentWait is one caller's wait for an agent job: what bounds it, where a
// diagnostic about the job points, and what to do next in each way the wait
// can end other than with the job done.
type agentWait struct {
	budget waitBudget
	// attr is the attribute that names the job, which a diagnostic about
	// the job (404) points at; empty for none.
	attr path.Path
	// resume is what to do when the wait ends before the job does: a
	// timeout or an interruption.
	resume string
	// retry is what to do after a status request failed, beside the
	// request's own advice; empty for none.
	retry string
	// unknown is what to do about a job in a status nobody knows.
	unknown string
	// failed is what to do about a job that failed; empty when a failed
	// job is read like any other, without a diagnostic.
	failed string
	// onChange hears of each new status of the job; nil logs it at INFO
	// (LogAgentJobStatus).
	onChange func(mintlify.AgentJob)
}

// waitForAgentJob waits for an agent job until it is no longer active.
// started is the answer of the call that just started the job, nil to
// begin with a read. It returns the job as last seen (nil if it was never
// read), even with an error diagnostic: a wait that ended before the job
// did, or a job that ended `failed` when w says what to do about one.
// `failed` is a status like the others here, never an error of the client.
func waitForAgentJob(ctx context.Context, client *mintlify.Client, projectID, jobID string, started *mintlify.AgentJob, w agentWait) (*mintlify.AgentJob, diag.Diagnostics) {
	onChange := w.onChange
	if onChange == nil {
		onChange = logAgentJobStatus(ctx)
	}
	job, err := client.WaitForAgentJob(ctx, projectID, jobID, mintlify.Started(started), mintlify.OnChange(onChange))
	if mintlify.IsJobFailed(err) {
		err = nil // the job's status says it
	}
	switch {
	case err != nil:
		return job, diag.Diagnostics{agentWaitDiagnostic(err, getAgentJobOp(projectID, jobID).at(w.attr), job, w)}
	case job.Status == mintlify.AgentStatusFailed && w.failed != "":
		return job, diag.Diagnostics{agentFailedDiagnostic(projectID, jobID, w.failed)}
	}
	return job, nil
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
	next := w.retry
	if unknown := (*mintlify.UnknownStatusError)(nil); errors.As(err, &unknown) {
		next = w.unknown
	}
	if next == "" {
		return d
	}
	withNext := diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+next)
	if pointed, ok := d.(diag.DiagnosticWithPath); ok {
		return diag.WithPath(pointed.Path(), withNext)
	}
	return withNext
}

// agentFailedDiagnostic reports an agent job that ended `failed`; next says
// what to do about it.
func agentFailedDiagnostic(projectID, jobID, next string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Agent Job Failed",
		fmt.Sprintf("The Mintlify documentation agent job %s in project %s failed: the agent could not carry out "+
			"the prompt. The API gives no reason; the job's page in the Mintlify "+
			"dashboard shows what the agent did.\n\n%s", jobID, projectID, next))
}
