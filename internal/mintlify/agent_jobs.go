package mintlify

import (
	"context"
	"net/http"
	"time"
)

// Agent job statuses.
const (
	AgentStatusActive    = "active"
	AgentStatusCompleted = "completed"
	AgentStatusArchived  = "archived"
	AgentStatusFailed    = "failed"
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

// GetAgentJob returns one agent job of a project.
func (c *Client) GetAgentJob(ctx context.Context, projectID, id string) (*AgentJob, error) {
	var job AgentJob
	if err := c.do(ctx, http.MethodGet, []string{"v2", "agent", projectID, "job", id}, nil, &job); err != nil {
		return nil, err
	}
	return &job, nil
}

// WaitForAgentJob polls an agent job until it is completed, archived or
// failed, or ctx ends. Agent jobs report no progress, so the client's
// PollPolicy backs off between requests. onChange, when not nil, is called
// with each job whose status differs from the previous one. The returned
// job is the last one seen, also on error; an ended ctx returns ctx.Err().
func (c *Client) WaitForAgentJob(ctx context.Context, projectID, id string, onChange func(AgentJob)) (*AgentJob, error) {
	var last *AgentJob
	err := c.wait(ctx, nil, func(ctx context.Context) (Observation, bool, error) {
		job, err := c.GetAgentJob(ctx, projectID, id)
		if err != nil {
			return Observation{}, false, err
		}
		if onChange != nil && (last == nil || last.Status != job.Status) {
			onChange(*job)
		}
		last = job
		return Observation{Status: job.Status, CreatedAt: job.CreatedAt}, job.Done(), nil
	})
	return last, err
}
