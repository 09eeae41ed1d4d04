package fakeapi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// AgentRepository is the repository of the agent jobs the fake creates, and
// the base of the pull request links they open.
const AgentRepository = "https://github.com/acme/docs"

// AgentJobRequest is a prompt sent to the agent, as the fake decoded it: the
// body of "Create agent job" or of "Send follow-up message".
type AgentJobRequest struct {
	// ProjectID is the project in the request's path.
	ProjectID string
	// JobID is the job a follow-up message goes to; empty for a new job.
	JobID string
	// Prompt is the request's prompt.
	Prompt string
}

// AgentJobPlan decides how an agent job behaves after it is created or
// given a follow-up message: `active` for ActiveFor, then FinalStatus.
type AgentJobPlan struct {
	// ActiveFor is how long the job stays `active`, with a null prLink.
	ActiveFor time.Duration
	// FinalStatus is "completed" (the default), "failed" or "archived".
	FinalStatus string
	// NoChanges makes the agent change no file: no pull request is opened,
	// so prLink stays null (a follow-up keeps the job's earlier pull
	// request, if it had one). Otherwise a job that does not fail opens a
	// pull request, or a follow-up pushes to the one it has.
	NoChanges bool
}

// DefaultAgentJobPlan is the plan of every agent job on a server without
// AgentJobOptions.Plan: two minutes active, then completed with a pull request.
var DefaultAgentJobPlan = func(AgentJobRequest) AgentJobPlan {
	return AgentJobPlan{ActiveFor: 2 * time.Minute}
}

// agentPromptJSON is the body of both prompt operations.
type agentPromptJSON struct {
	Prompt *string `json:"prompt"`
}

// decodeAgentPrompt decodes and validates a prompt body. Its error messages
// are meant for the API's 400 response.
func decodeAgentPrompt(body []byte) (string, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return "", errors.New(`request body is required: send a JSON object such as {"prompt": "Document the new export API"}`)
	}
	if trimmed[0] != '{' {
		return "", errors.New("request body must be a JSON object")
	}
	var req agentPromptJSON
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&req); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "prompt" {
			return "", errors.New("prompt must be a string")
		}
		return "", fmt.Errorf("request body is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", errors.New("request body must contain a single JSON object")
	}
	if req.Prompt == nil || *req.Prompt == "" {
		return "", errors.New("prompt is required and must not be empty")
	}
	return *req.Prompt, nil
}

// handleCreateAgentJob serves POST /v2/agent/{projectId}/job.
func (s *Server) handleCreateAgentJob(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body) // already buffered by ServeHTTP
	prompt, err := decodeAgentPrompt(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	projectID := r.PathValue("projectId")
	if !s.projectExists(projectID) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("Project %q not found", projectID))
		return
	}
	plan := s.agentJobPlan(AgentJobRequest{ProjectID: projectID, Prompt: prompt})

	s.mu.Lock()
	now := s.clock.Now()
	id := s.newAgentJobIDLocked(projectID)
	ref := "mintlify/docs-agent-" + id[max(0, len(id)-8):]
	job := &agentJob{id: id, repository: AgentRepository, ref: &ref, model: "sonnet", createdAt: now}
	job.turns = []agentTurn{s.turnLocked(now, plan, nil)}
	s.agentJobs[agentJobKey{projectID, id}] = job
	s.agentJobIDs = append(s.agentJobIDs, id)
	view := job.view(now)
	s.mu.Unlock()

	writeJSON(w, http.StatusCreated, view)
}

// handleSendAgentJobMessage serves POST /v2/agent/{projectId}/job/{id}/message:
// the job runs again on the new prompt, from now.
func (s *Server) handleSendAgentJobMessage(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body) // already buffered by ServeHTTP
	prompt, err := decodeAgentPrompt(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	key := agentJobKey{r.PathValue("projectId"), r.PathValue("id")}
	s.mu.Lock()
	_, ok := s.agentJobs[key]
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, agentJobNotFound)
		return
	}
	plan := s.agentJobPlan(AgentJobRequest{ProjectID: key.projectID, JobID: key.id, Prompt: prompt})

	s.mu.Lock()
	job, ok := s.agentJobs[key]
	var view agentJobJSON
	if ok {
		now := s.clock.Now()
		last := job.turns[len(job.turns)-1]
		job.turns = append(job.turns, s.turnLocked(now, plan, last.prLink))
		s.agentMessages++
		view = job.view(now)
	}
	s.mu.Unlock()

	if !ok { // forgotten meanwhile
		writeError(w, http.StatusNotFound, agentJobNotFound)
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// agentJobPlan asks the server's plan function about req, outside the lock,
// and fills its defaults.
func (s *Server) agentJobPlan(req AgentJobRequest) AgentJobPlan {
	plan := s.agentPlan(req)
	plan.ActiveFor = max(plan.ActiveFor, 0)
	if !slices.Contains(finalAgentStatuses, plan.FinalStatus) {
		plan.FinalStatus = agentCompleted
	}
	return plan
}

// turnLocked is the turn that plan starts at now. prior is the pull
// request the job already has, if any: a follow-up pushes to it.
func (s *Server) turnLocked(now time.Time, plan AgentJobPlan, prior *string) agentTurn {
	turn := agentTurn{at: now, activeFor: plan.ActiveFor, final: s.hostile.settledStatus(plan.FinalStatus), prLink: clonePtr(prior)}
	if prior == nil && !plan.NoChanges && plan.FinalStatus != agentFailed {
		s.pullRequests++
		link := fmt.Sprintf("%s/pull/%d", AgentRepository, 100+s.pullRequests)
		turn.prLink = &link
	}
	return turn
}

// projectExists reports whether agent jobs can be created in projectID: any
// project, unless WithProjects named them.
func (s *Server) projectExists(projectID string) bool {
	return s.projects == nil || slices.Contains(s.projects, projectID)
}

// newAgentJobIDLocked returns an id of the form aj_<16 hex digits> that is
// unused in projectID, or the next of HostileOptions.JobIDs.
func (s *Server) newAgentJobIDLocked(projectID string) string {
	if s.hostile.jobIDs != nil {
		return s.hostile.jobIDs()
	}
	for {
		b := make([]byte, 8)
		_, _ = rand.Read(b) // never fails since Go 1.24
		id := "aj_" + hex.EncodeToString(b)
		if _, taken := s.agentJobs[agentJobKey{projectID, id}]; !taken {
			return id
		}
	}
}
