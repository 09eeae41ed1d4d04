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
// plans. The failures that are the same for every operation (a rejected
// key, rate limits, an unavailable API, a lost connection, a timeout) come
// from describeAPIError; the rest are worded here.

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

// doing completes "... while <doing>".
func (c agentCall) doing() string {
	switch c.op {
	case agentOpCreate:
		return fmt.Sprintf("starting an agent job in project %s", c.projectID)
	case agentOpMessage:
		return fmt.Sprintf("sending a follow-up message to agent job %s in project %s", c.jobID, c.projectID)
	}
	return fmt.Sprintf("reading agent job %s in project %s", c.jobID, c.projectID)
}

// agentErrorDiagnostic turns an error of an agent job call into a
// diagnostic about that call alone.
func agentErrorDiagnostic(err error, c agentCall) diag.Diagnostic {
	if d := agentStartDiagnostic(err, c); d != nil {
		return d
	}
	summary, detail := describeAgentError(err, c)
	var startErr *mintlify.StartError
	if errors.As(err, &startErr) {
		if c.op == agentOpMessage {
			detail += " The follow-up message was not sent."
		} else {
			detail += " No agent job was started."
		}
	}
	return diag.NewErrorDiagnostic(summary, detail)
}

// agentStartDiagnostic reports a create or a follow-up that the API may
// have taken although no definite answer came back; nil for any other
// error.
func agentStartDiagnostic(err error, c agentCall) diag.Diagnostic {
	if !mintlify.MayHaveStarted(err) {
		return nil
	}
	_, detail := describeAPIError(err, c.doing())
	if c.op == agentOpMessage {
		return diag.NewErrorDiagnostic("Follow-Up Message May Have Been Sent",
			detail+fmt.Sprintf("\n\nThe follow-up message reached the Mintlify API but no definite answer came back, "+
				"so agent job %s may be working on it. The provider did not send it again, because the agent would "+
				"get the prompt twice. Read the job (the `mintlify_agent_job` data source, or the Mintlify dashboard) "+
				"before you send it again.", c.jobID))
	}
	return diag.NewErrorDiagnostic("Agent Job May Have Started",
		detail+fmt.Sprintf("\n\nThe request reached the Mintlify API but no definite answer came back, so an agent "+
			"job may have started in project %s; its id is unknown. The provider did not retry, because a retry could "+
			"start a second agent job and open a second pull request, and nothing was saved in state. Check the "+
			"agent jobs of project %s in the Mintlify dashboard: applying again starts a new job.", c.projectID, c.projectID))
}

// describeAgentError is agentErrorDiagnostic's summary and detail: the
// statuses whose meaning depends on the agent job operation, then the
// failures common to every operation.
func describeAgentError(err error, c agentCall) (summary, detail string) {
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return describeAPIError(err, c.doing())
	case mintlify.IsForbidden(err):
		return "No Access To The Mintlify Project",
			fmt.Sprintf("The Mintlify API refused %s (HTTP 403: %s): the API key has no access to project %s. "+
				"Check the project ID (`project_id` here, or the provider's `project_id` or `%s`) on the API keys "+
				"page of the Mintlify dashboard, and use an admin API key of the organization that owns the project.",
				c.doing(), apiMessage(err), c.projectID, envProjectID)
	case mintlify.IsNotFound(err) && c.op == agentOpCreate:
		return "Mintlify Project Not Found",
			fmt.Sprintf("The Mintlify API found no project %s while starting an agent job (HTTP 404: %s). Check the "+
				"project ID (`project_id` here, or the provider's `project_id` or `%s`): copy it from the API keys "+
				"page of the Mintlify dashboard.", c.projectID, apiMessage(err), envProjectID)
	case mintlify.IsNotFound(err):
		return "Agent Job Not Found",
			fmt.Sprintf("The Mintlify API found no agent job %s in project %s (HTTP 404: %s). Check the job ID, and "+
				"that the job belongs to this project.", c.jobID, c.projectID, apiMessage(err))
	case mintlify.IsConflict(err):
		return "Mintlify API Refused The Request",
			fmt.Sprintf("The Mintlify API refused %s (HTTP 409: %s): the request conflicts with the job's current "+
				"state. Read the job with the `mintlify_agent_job` data source, then try again.", c.doing(), apiMessage(err))
	case mintlify.IsBadRequest(err) && c.op != agentOpRead:
		return "Mintlify Rejected The Prompt",
			fmt.Sprintf("The Mintlify API rejected the prompt while %s (HTTP 400: %s). Correct `prompt` and try "+
				"again.", c.doing(), apiMessage(err))
	}
	return describeAPIError(err, c.doing())
}

// agentWait describes one wait for an agent job, for the diagnostics of a
// wait that ended early: the setting that bounded it (`timeouts.create`,
// `timeout`) and its value, and how to pick the same job up again.
type agentWait struct {
	limit   string
	timeout time.Duration
	resume  string
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
	return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+w.resume)
}

// isRetryDeadline reports a retry that was not attempted because its wait
// would have ended after the deadline: describeAPIError explains that one.
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
