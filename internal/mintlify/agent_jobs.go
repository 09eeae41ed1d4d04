package mintlify

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

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

// agentPrompt is the body of "Create agent job" and "Send follow-up message".
type agentPrompt struct {
	Prompt string `json:"prompt"`
}

// CreateAgentJob starts the documentation agent on prompt in a project. The
// job runs on the Mintlify side and opens a pull request if it changes
// files; follow it with WaitForAgentJob or GetAgentJob.
//
// Creating a job is not idempotent: the request is repeated only when the
// API certainly did not take it, so a retry never starts a second agent
// job. Every error is a *StartError that says whether a job may have
// started anyway.
func (c *Client) CreateAgentJob(ctx context.Context, projectID, prompt string) (*AgentJob, error) {
	var job AgentJob
	segments := []string{"v2", "agent", projectID, "job"}
	if err := c.promptOnce(ctx, segments, agentPrompt{prompt}, &job); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: agentJob}
	}
	if err := c.cleanAgentJob(callRoute(http.MethodPost, segments), &job); err != nil {
		// The API took the request, but its job cannot be followed.
		return nil, &StartError{MayHaveStarted: true, Err: err, What: agentJob}
	}
	return &job, nil
}

// SendAgentJobMessage sends a follow-up prompt to an existing agent job,
// which works on it in the background; the answer is the job as it stands.
// Like CreateAgentJob it is never repeated when the API may have taken it,
// and every error is a *StartError.
func (c *Client) SendAgentJobMessage(ctx context.Context, projectID, id, prompt string) (*AgentJob, error) {
	var job AgentJob
	segments := []string{"v2", "agent", projectID, "job", id, "message"}
	if err := c.promptOnce(ctx, segments, agentPrompt{prompt}, &job); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: followUpMessage}
	}
	if err := c.cleanAgentJob(callRoute(http.MethodPost, segments), &job); err != nil {
		return nil, &StartError{MayHaveStarted: true, Err: err, What: followUpMessage}
	}
	return &job, nil
}

// GetAgentJob returns one agent job of a project.
func (c *Client) GetAgentJob(ctx context.Context, projectID, id string) (*AgentJob, error) {
	var job AgentJob
	segments := []string{"v2", "agent", projectID, "job", id}
	if err := c.do(ctx, http.MethodGet, segments, &job); err != nil {
		return nil, err
	}
	if err := c.cleanAgentJob(callRoute(http.MethodGet, segments), &job); err != nil {
		return nil, err
	}
	return &job, nil
}

// WaitForAgentJob polls an agent job until it is completed, archived or
// failed, or in a status the API does not document, or ctx ends. Agent jobs
// report no progress, so the client's poll policy backs off between
// requests. The first request goes out at once, unless Started hands the
// wait the answer of CreateAgentJob or SendAgentJobMessage; OnChange
// follows the job's status.
//
// The returned job is the last one seen, also on error (nil if none was
// seen). A failed job returns a *JobFailedError, an undocumented status an
// *UnknownStatusError; an ended ctx returns ctx.Err().
func (c *Client) WaitForAgentJob(ctx context.Context, projectID, id string, opts ...WaitOption[AgentJob]) (*AgentJob, error) {
	get := func(ctx context.Context) (*AgentJob, error) { return c.GetAgentJob(ctx, projectID, id) }
	return waitFor(ctx, c, agentJobs, id, get, opts)
}

// agentJobs is what a wait knows about agent jobs.
var agentJobs = jobKind[AgentJob]{
	what:    agentJob,
	known:   AgentJobStatuses,
	going:   []string{AgentStatusActive},
	failed:  AgentStatusFailed,
	id:      func(j *AgentJob) string { return j.ID },
	observe: func(j *AgentJob) poll.Observation { return poll.Observation{Status: j.Status, CreatedAt: j.CreatedAt} },
	changed: func(prev, next *AgentJob) bool { return prev.Status != next.Status },
}

// failure implements Job. The API gives no reason for an agent job.
func (j AgentJob) failure() string { return fmt.Sprintf("agent job %s failed", j.ID) }

// promptOnce sends an agent prompt (a new job, a follow-up) like postOnce,
// within the documented limit of prompts: a 429 is a turn to wait for.
func (c *Client) promptOnce(ctx context.Context, segments []string, in, out any) error {
	return c.send(ctx, call{method: http.MethodPost, segments: segments, in: in, out: out, limit: &LimitAgentPrompts})
}
