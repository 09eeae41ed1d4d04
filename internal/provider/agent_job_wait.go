package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The one wait for an agent job, which the resource, the data source and
// the action share. Each says, in an agentWait, what bounds its wait and
// what the person at the terminal should do next when it ends early.

// agentJobType is the resource's type name, for advice.
const agentJobType = "mintlify_agent_job"

// agentWait is one caller's wait for an agent job; its onChange hears of
// each new status of the job, and nil logs it at INFO (LogAgentJobStatus).
type agentWait = jobWait[mintlify.AgentJob]

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
// the job did. op reads the job; last is the job as last seen, nil if it
// was never read.
func agentWaitDiagnostic(err error, op apiOperation, last *mintlify.AgentJob, w agentWait) diag.Diagnostic {
	status := ""
	if last != nil {
		status = last.Status
	}
	job := waitedJob{name: fmt.Sprintf("agent job %s in project %s", op.jobID, op.projectID),
		stillRunning: "Agent Job Still Running", interrupted: "Agent Job Interrupted", goesOn: keepsRunning}
	return w.endedEarly(err, op, job, status)
}

// agentFailedDiagnostic reports an agent job that ended `failed`; next says
// what to do about it.
func agentFailedDiagnostic(projectID, jobID, next string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Agent Job Failed",
		fmt.Sprintf("The Mintlify documentation agent job %s in project %s failed: the agent could not carry out "+
			"the prompt. The API gives no reason; the job's page in the Mintlify "+
			"dashboard shows what the agent did.\n\n%s", jobID, projectID, next))
}
