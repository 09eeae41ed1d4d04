package mintlify

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// Agent job statuses.
const (
	AgentStatusActive    = "active"
	AgentStatusCompleted = "completed"
	AgentStatusArchived  = "archived"
	AgentStatusFailed    = "failed"
)

// AgentJobStatuses lists every documented agent job status.
var AgentJobStatuses = []string{AgentStatusActive, AgentStatusCompleted, AgentStatusArchived, AgentStatusFailed}

// What StartError names for the agent job calls.
const (
	agentJob        = "agent job"
	followUpMessage = "follow-up message"
)

// AgentJob is the API's AgentJob object.
type AgentJob struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Source struct {
		Repository string `json:"repository"`
		// Ref is the branch, or nil.
		Ref *string `json:"ref"`
	} `json:"source"`
	Model string `json:"model"`
	// PRLink is nil while the job is active or when no file changed.
	PRLink     *string    `json:"prLink"`
	CreatedAt  time.Time  `json:"createdAt"`
	ArchivedAt *time.Time `json:"archivedAt"`
}

// Done reports whether the agent job reached a final status.
func (j AgentJob) Done() bool {
	return j.Status == AgentStatusCompleted || j.Status == AgentStatusArchived || j.Status == AgentStatusFailed
}

// agentPrompt is the body of "Create agent job" and "Send follow-up message".
type agentPrompt struct {
	Prompt string `json:"prompt"`
}

// CreateAgentJob starts the documentation agent on prompt in a project. The
// job runs on the Mintlify side and opens a pull request if it changes
// files; follow it with WaitForStartedAgentJob or GetAgentJob.
//
// Creating a job is not idempotent: the request is repeated only when the
// API certainly did not take it, so a retry never starts a second agent
// job. Every error is a *StartError that says whether a job may have
// started anyway.
func (c *Client) CreateAgentJob(ctx context.Context, projectID, prompt string) (*AgentJob, error) {
	var job AgentJob
	if err := c.doOnce(ctx, http.MethodPost, []string{"v2", "agent", projectID, "job"}, agentPrompt{prompt}, &job); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: agentJob}
	}
	job.Status = c.serverText(job.Status)
	return &job, nil
}

// SendAgentJobMessage sends a follow-up prompt to an existing agent job,
// which works on it in the background; the answer is the job as it stands.
// Like CreateAgentJob it is never repeated when the API may have taken it,
// and every error is a *StartError.
func (c *Client) SendAgentJobMessage(ctx context.Context, projectID, id, prompt string) (*AgentJob, error) {
	var job AgentJob
	segments := []string{"v2", "agent", projectID, "job", id, "message"}
	if err := c.doOnce(ctx, http.MethodPost, segments, agentPrompt{prompt}, &job); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: followUpMessage}
	}
	job.Status = c.serverText(job.Status)
	return &job, nil
}

// GetAgentJob returns one agent job of a project.
func (c *Client) GetAgentJob(ctx context.Context, projectID, id string) (*AgentJob, error) {
	var job AgentJob
	if err := c.do(ctx, http.MethodGet, []string{"v2", "agent", projectID, "job", id}, nil, &job); err != nil {
		return nil, err
	}
	job.Status = c.serverText(job.Status)
	return &job, nil
}

// WaitForAgentJob polls an agent job until it is completed, archived or
// failed, or in a status the API does not document, or ctx ends. Agent jobs
// report no progress, so the client's PollPolicy backs off between
// requests. The first request goes out at once. onChange, when not nil, is
// called with each job whose status differs from the previous one. The
// returned job is the last one seen, also on error; an ended ctx returns
// ctx.Err(), an undocumented status an *UnknownStatusError. A failed job is
// not an error here: the caller reads its status.
func (c *Client) WaitForAgentJob(ctx context.Context, projectID, id string, onChange func(AgentJob)) (*AgentJob, error) {
	return c.waitForAgentJob(ctx, projectID, id, nil, onChange)
}

// WaitForStartedAgentJob is WaitForAgentJob for the job that CreateAgentJob
// or SendAgentJobMessage has just returned: that answer is the wait's first
// status (onChange is not called for it), so the first request goes out
// only when the PollPolicy asks for one.
func (c *Client) WaitForStartedAgentJob(ctx context.Context, projectID string, started *AgentJob, onChange func(AgentJob)) (*AgentJob, error) {
	if started == nil {
		return nil, fmt.Errorf("no started agent job to wait for")
	}
	return c.waitForAgentJob(ctx, projectID, started.ID, started, onChange)
}

func (c *Client) waitForAgentJob(ctx context.Context, projectID, id string, started *AgentJob, onChange func(AgentJob)) (*AgentJob, error) {
	last := started
	var first *poll.Observation
	if started != nil {
		if done, err := agentDone(started); done {
			return started, err
		}
		first = &poll.Observation{Status: started.Status, CreatedAt: started.CreatedAt}
	}
	err := c.wait(ctx, first, func(ctx context.Context) (poll.Observation, bool, error) {
		job, err := c.GetAgentJob(ctx, projectID, id)
		if err != nil {
			return poll.Observation{}, false, err
		}
		if onChange != nil && (last == nil || last.Status != job.Status) {
			onChange(*job)
		}
		last = job
		done, err := agentDone(job)
		return poll.Observation{Status: job.Status, CreatedAt: job.CreatedAt}, done, err
	})
	return last, err
}

// agentDone reports whether a wait for an agent job has ended: a job that
// completed, was archived or failed ends it, and so does one in a status
// the API does not document (an *UnknownStatusError).
func agentDone(job *AgentJob) (bool, error) {
	if job.Status == AgentStatusActive {
		return false, nil
	}
	if job.Done() {
		return true, nil
	}
	return true, &UnknownStatusError{What: agentJob, JobID: job.ID, Status: job.Status, Known: AgentJobStatuses}
}
