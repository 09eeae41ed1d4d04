package fakeapi

import (
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Agent job statuses, as the API spells them.
const (
	agentActive    = "active"
	agentCompleted = "completed"
	agentFailed    = "failed"
	agentArchived  = "archived"
)

// finalAgentStatuses lists the statuses an agent job can settle in.
var finalAgentStatuses = []string{agentCompleted, agentFailed, agentArchived}

// AgentJobSeed describes an agent job to add with AddAgentJob. The job is
// created at the server clock's Now and is `active` for ActiveFor, then
// settles in FinalStatus.
type AgentJobSeed struct {
	// ID is the job id; required.
	ID string
	// Repository is the full URL of the job's GitHub repository.
	Repository string
	// Ref is the Git branch the agent works on; nil shows as null.
	Ref *string
	// Model defaults to "sonnet".
	Model string
	// ActiveFor is how long the job stays `active`, with a null prLink.
	ActiveFor time.Duration
	// FinalStatus is "completed" (the default), "failed" or "archived". An
	// archived job's archivedAt is the moment it stopped being active.
	FinalStatus string
	// PRLink is shown once the job is no longer active; nil means no file
	// changed, so prLink stays null.
	PRLink *string
}

type agentJobKey struct{ projectID, id string }

// agentJob is one agent job. Its status is never stored: it is computed
// from its turns and the clock at every request.
type agentJob struct {
	id         string
	repository string
	ref        *string
	model      string
	createdAt  time.Time
	// turns are the job's runs, oldest first: the first from its creation
	// (or seed), one more for each follow-up message.
	turns []agentTurn
}

// agentTurn is one run of the agent on a prompt: `active` from at for
// activeFor, then settled in final, showing prLink.
type agentTurn struct {
	at        time.Time
	activeFor time.Duration
	final     string
	prLink    *string
}

// agentJobJSON is the API's AgentJob object.
type agentJobJSON struct {
	ID         string          `json:"id"`
	Status     string          `json:"status"`
	Source     agentSourceJSON `json:"source"`
	Model      string          `json:"model"`
	PRLink     *string         `json:"prLink"`
	CreatedAt  string          `json:"createdAt"`
	ArchivedAt *string         `json:"archivedAt"`
}

type agentSourceJSON struct {
	Repository string  `json:"repository"`
	Ref        *string `json:"ref"`
}

// AddAgentJob adds an agent job to project projectID, replacing any job
// with the same id there. It panics on a seed without an ID or with an
// unknown FinalStatus, which are mistakes in the calling test.
func (s *Server) AddAgentJob(projectID string, job AgentJobSeed) {
	if job.ID == "" {
		panic("fakeapi: AgentJobSeed.ID is required")
	}
	if job.Model == "" {
		job.Model = "sonnet"
	}
	if job.FinalStatus == "" {
		job.FinalStatus = agentCompleted
	}
	if !slices.Contains(finalAgentStatuses, job.FinalStatus) {
		panic(fmt.Sprintf("fakeapi: AgentJobSeed.FinalStatus must be one of %q, got %q", finalAgentStatuses, job.FinalStatus))
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	s.agentJobs[agentJobKey{projectID, job.ID}] = &agentJob{
		id:         job.ID,
		repository: job.Repository,
		ref:        clonePtr(job.Ref),
		model:      job.Model,
		createdAt:  now,
		turns: []agentTurn{{at: now, activeFor: job.ActiveFor, final: s.hostile.settledStatus(job.FinalStatus),
			prLink: clonePtr(job.PRLink)}},
	}
}

// SeedDemo adds the demo fixtures: one agent job (project "proj_demo", id
// "aj_demo_0001", repository "https://github.com/acme/docs", ref "main",
// model "sonnet", active for 3s, then completed with PR link
// "https://github.com/acme/docs/pull/42").
func (s *Server) SeedDemo() {
	ref, pr := "main", "https://github.com/acme/docs/pull/42"
	s.AddAgentJob("proj_demo", AgentJobSeed{
		ID:          "aj_demo_0001",
		Repository:  "https://github.com/acme/docs",
		Ref:         &ref,
		Model:       "sonnet",
		ActiveFor:   3 * time.Second,
		FinalStatus: agentCompleted,
		PRLink:      &pr,
	})
}

// ForgetAgentJob deletes an agent job, as if the platform had purged it:
// from now on it answers 404. It still counts in AgentJobsCreated.
func (s *Server) ForgetAgentJob(projectID, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.agentJobs, agentJobKey{projectID, id})
}

// handleGetAgentJob serves GET /v2/agent/{projectId}/job/{id}.
func (s *Server) handleGetAgentJob(w http.ResponseWriter, r *http.Request) {
	key := agentJobKey{r.PathValue("projectId"), r.PathValue("id")}
	s.mu.Lock()
	job, ok := s.agentJobs[key]
	var view agentJobJSON
	if ok {
		view = job.view(s.clock.Now())
	}
	s.mu.Unlock()

	if !ok {
		writeError(w, http.StatusNotFound, agentJobNotFound)
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// agentJobNotFound is the 404 message of an unknown agent job.
const agentJobNotFound = "Job not found"

// view renders the agent job as the API shows it at now: its latest turn
// decides the status. prLink is null while the job is active.
func (j *agentJob) view(now time.Time) agentJobJSON {
	v := agentJobJSON{
		ID:        j.id,
		Status:    agentActive,
		Source:    agentSourceJSON{Repository: j.repository, Ref: clonePtr(j.ref)},
		Model:     j.model,
		CreatedAt: formatTime(j.createdAt),
	}
	turn := j.turns[len(j.turns)-1]
	settledAt := turn.at.Add(turn.activeFor)
	if now.Before(settledAt) {
		return v
	}
	v.Status, v.PRLink = turn.final, clonePtr(turn.prLink)
	if v.Status == agentArchived {
		archivedAt := formatTime(settledAt)
		v.ArchivedAt = &archivedAt
	}
	return v
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
