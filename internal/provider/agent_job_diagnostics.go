package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The diagnostics of agent job operations speak of agent jobs and projects
// only: an agent job call never involves static export or Enterprise
// plans. agentCall names the call; its apiOperation (diagnostics.go) maps
// every failure the way that call means it.

// agentOp is one agent job operation, for the wording of its diagnostics.
type agentOp int

const (
	agentOpCreate  agentOp = iota // creating a job
	agentOpMessage                // sending a follow-up message
	agentOpRead                   // reading or waiting for a job
)

// agentCall names the call that failed: the operation, the project and, but
// for a create, the job.
type agentCall struct {
	op        agentOp
	projectID string
	jobID     string
}

// operation is the API operation of the call.
func (c agentCall) operation() apiOperation {
	switch c.op {
	case agentOpCreate:
		return createAgentJobOp(c.projectID)
	case agentOpMessage:
		return sendAgentJobMessageOp(c.projectID, c.jobID)
	}
	return getAgentJobOp(c.projectID, c.jobID)
}

// agentErrorDiagnostic turns an error of an agent job call into a
// diagnostic about that call alone.
func agentErrorDiagnostic(err error, c agentCall) diag.Diagnostic {
	return c.operation().diagnostic(err)
}

// agentWait describes one wait for an agent job, for the diagnostics of a
// wait that ended early: the setting that bounded it (`timeouts.create`,
// `timeout`) and its value, how to pick the same job up again, and what
// follows a job in a status the API does not document.
type agentWait struct {
	limit   string
	timeout time.Duration
	resume  string
	unknown string
}

// agentWaitDiagnostic explains why waiting for an agent job ended before
// the job did: the timeout, an interruption, or a request that failed.
// last is the job as last seen, nil if it was never read.
func agentWaitDiagnostic(err error, c agentCall, last *mintlify.AgentJob, w agentWait) diag.Diagnostic {
	seen := "before its status was read"
	if last != nil {
		seen = fmt.Sprintf("`%s`", last.Status)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) && !isRetryDeadline(err):
		return diag.NewErrorDiagnostic("Agent Job Still Running",
			fmt.Sprintf("The Mintlify agent job %s in project %s did not finish within `%s` (%s); it was %s. The job "+
				"keeps running on the Mintlify side.\n\n%s", c.jobID, c.projectID, w.limit, w.timeout, seen, w.resume))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Agent Job Interrupted",
			fmt.Sprintf("Terraform was interrupted while waiting for the Mintlify agent job %s in project %s; it was %s. "+
				"The job keeps running on the Mintlify side.\n\n%s", c.jobID, c.projectID, seen, w.resume))
	}
	c.op = agentOpRead
	d := agentErrorDiagnostic(err, c)
	next := w.resume
	if unknown := (*mintlify.UnknownStatusError)(nil); errors.As(err, &unknown) {
		next = w.unknown
	}
	return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+next)
}

// isRetryDeadline reports a retry that was not attempted because its wait
// would have ended after the deadline: apiOperation.diagnostic explains
// that one.
func isRetryDeadline(err error) bool {
	var re *mintlify.RetryError
	return errors.As(err, &re) && re.Wait > 0
}

// agentFailedDiagnostic reports an agent job that ended `failed`; next says
// what to do about it.
func agentFailedDiagnostic(c agentCall, next string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Agent Job Failed",
		fmt.Sprintf("The Mintlify documentation agent job %s in project %s failed: the agent could not carry out "+
			"the prompt. The API gives no reason; the job's page in the Mintlify "+
			"dashboard shows what the agent did.\n\n%s", c.jobID, c.projectID, next))
}
