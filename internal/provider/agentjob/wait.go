package agentjob

import (
	"time"

	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// defaultAgentWaitTimeout bounds a wait for an agent job when no timeout is
// set.
const defaultAgentWaitTimeout = 30 * time.Minute

// The one wait for an agent job, which the resource, the data source and
// the action share. Each says, in an agentWait, what bounds its wait and
// what the person at the terminal should do next when it ends early.

// agentWait is one caller's wait for an agent job; its OnChange hears of
// each new status of the job, and nil logs it at INFO (LogAgentJobStatus).
type agentWait = core.JobWait[mintlify.AgentJob]

// agentJob is how a wait for an agent job ends and names it
// (core.JobWait.Ended).
var agentJob = core.JobKind[mintlify.AgentJob]{
	Status:  func(j *mintlify.AgentJob) string { return j.Status },
	Failure: mintlify.AgentStatusFailed,
	Read:    GetAgentJobOp,
	Describe: func(op core.APIOperation) core.WaitedJob {
		return core.WaitedJob{Name: fmt.Sprintf("agent job %s in project %s", op.JobID, op.ProjectID),
			StillRunning: "Agent Job Still Running", Interrupted: "Agent Job Interrupted", GoesOn: core.KeepsRunning}
	},
	Failed: func(projectID string, job *mintlify.AgentJob, next string) diag.Diagnostic {
		return agentFailedDiagnostic(projectID, job.ID, next)
	},
}

// agentFailedDiagnostic reports an agent job that ended `failed`; next says
// what to do about it.
func agentFailedDiagnostic(projectID, jobID, next string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Agent Job Failed",
		fmt.Sprintf("The Mintlify documentation agent job %s in project %s failed: the agent could not carry out "+
			"the prompt. The API gives no reason; the job's page in the Mintlify "+
			"dashboard shows what the agent did.\n\n%s", jobID, projectID, next))
}

// waitForAgentJob waits for an agent job until it is no longer active,
// telling each change to w.OnChange (nil logs it at INFO); core.JobWait.Ended
// explains an early end or a failure. started is the answer of the call
// that just started the job, nil to begin with a read.
func waitForAgentJob(ctx context.Context, client *mintlify.Client, projectID, jobID string, started *mintlify.AgentJob, w agentWait) (*mintlify.AgentJob, diag.Diagnostics) {
	heard := w.Heard(logAgentJobStatus(ctx))
	job, err := client.WaitForAgentJob(ctx, projectID, jobID, mintlify.Started(started), mintlify.OnChange(heard))
	return job, w.Ended(agentJob, projectID, jobID, job, err)
}
