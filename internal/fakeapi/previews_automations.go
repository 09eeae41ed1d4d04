package fakeapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
)

// Automation is an automation the fake knows, added with WithAutomations.
type Automation struct {
	// ProjectID is the project it belongs to.
	ProjectID string
	// ID is its workflowSchemaId: 24 hexadecimal digits, or any other text
	// to test what the API says of a malformed id.
	ID string
	// Inactive automations cannot be run.
	Inactive bool
	// Trigger is what runs the automation: a custom schedule (the zero
	// value), a webhook, or an event (a push, say).
	Trigger AutomationTrigger
	// Predefined marks one of Mintlify's predefined automations, which
	// neither call runs.
	Predefined bool
}

// AutomationTrigger is what runs a custom automation.
type AutomationTrigger string

const (
	// TriggerSchedule is a custom schedule: "Trigger automation" runs the
	// automation on demand.
	TriggerSchedule AutomationTrigger = ""
	// TriggerWebhook is a Webhook trigger: "Trigger automation webhook"
	// runs it.
	TriggerWebhook AutomationTrigger = "webhook"
	// TriggerEvent is an event such as a push: neither call runs it.
	TriggerEvent AutomationTrigger = "event"
)

// AutomationRun is one run the fake queued.
type AutomationRun struct {
	ProjectID, AutomationID, InstanceID, JobID string
	// Webhook is true for a run that "Trigger automation webhook" queued:
	// InstanceID is then its runId, and JobID is empty.
	Webhook bool
}

// automationIDPattern is the shape of a well-formed automation id.
var automationIDPattern = regexp.MustCompile(`^[0-9a-f]{24}$`)

// handleTriggerPreview serves "Trigger preview deployment".
func (s *Server) handleTriggerPreview(w http.ResponseWriter, r *http.Request) {
	projectID := r.PathValue("projectId")
	if s.previewsDisabled {
		writeError(w, http.StatusForbidden, "Preview deployments are not available on your current plan")
		return
	}
	var body struct {
		Branch *string `json:"branch"`
	}
	if err := json.NewDecoder(bytes.NewReader(mustBody(r))).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "The request body must be a JSON object")
		return
	}
	if body.Branch == nil || *body.Branch == "" {
		writeError(w, http.StatusBadRequest, "The branch field is required")
		return
	}
	if !s.projectExists(projectID) {
		writeError(w, http.StatusNotFound, "Project not found")
		return
	}
	d := s.newDeployment(projectID, *body.Branch)
	writeJSON(w, http.StatusAccepted, struct {
		StatusID   string `json:"statusId"`
		PreviewURL string `json:"previewUrl"`
	}{d.id, PreviewURL(projectID, *body.Branch)})
}

// handleTriggerAutomation serves "Trigger automation".
func (s *Server) handleTriggerAutomation(w http.ResponseWriter, r *http.Request) {
	projectID, id := r.PathValue("projectId"), r.PathValue("workflowSchemaId")
	if !automationIDPattern.MatchString(id) {
		writeError(w, http.StatusBadRequest, "Invalid automation id")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.automations[id]
	switch {
	case !ok || a.ProjectID != projectID:
		writeError(w, http.StatusNotFound, "Automation not found")
		return
	case a.Inactive:
		writeError(w, http.StatusBadRequest, "Automation is not active")
		return
	case a.Predefined || a.Trigger != TriggerSchedule:
		writeError(w, http.StatusBadRequest, "Only automations with a custom schedule can be triggered")
		return
	}
	run := s.queueRun(projectID, id)
	writeJSON(w, http.StatusAccepted, struct {
		SchemaID   string `json:"schemaId"`
		InstanceID string `json:"instanceId"`
		JobID      string `json:"jobId"`
	}{id, run.InstanceID, run.JobID})
}

// queueRun records a run of automation id, with its ids. s.mu is held.
func (s *Server) queueRun(projectID, id string) AutomationRun {
	s.idCounter++
	run := AutomationRun{ProjectID: projectID, AutomationID: id,
		InstanceID: objectID(s.idCounter), JobID: "wf_job_" + objectID(s.idCounter)}
	if s.hostile.jobIDs != nil {
		run.InstanceID = s.hostile.jobIDs()
	}
	s.automationRuns = append(s.automationRuns, run)
	return run
}

// AutomationRuns returns the runs the server queued, oldest first.
func (s *Server) AutomationRuns() []AutomationRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]AutomationRun(nil), s.automationRuns...)
}

// mustBody is the request's body, which ServeHTTP has already read.
func mustBody(r *http.Request) []byte {
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(r.Body)
	return buf.Bytes()
}
