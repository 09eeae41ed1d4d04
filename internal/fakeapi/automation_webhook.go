package fakeapi

import "net/http"

// handleTriggerAutomationWebhook serves "Trigger automation webhook"
// (POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook, API.md
// "Automations by webhook"): a custom automation with a Webhook trigger
// gets a run; any other automation, predefined or custom with another
// trigger, and an automation the project does not have, answer 404, as
// does a malformed id (the docs name no 400). A body is ignored. The
// route shares the limit of the other triggers (limits.go).
func (s *Server) handleTriggerAutomationWebhook(w http.ResponseWriter, r *http.Request) {
	projectID, id := r.PathValue("projectId"), r.PathValue("workflowSchemaId")
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.automations[id]
	switch {
	case !ok || a.ProjectID != projectID:
		writeError(w, http.StatusNotFound, "Automation not found")
		return
	case a.Predefined || a.Trigger != TriggerWebhook:
		writeError(w, http.StatusNotFound, "No webhook automation found")
		return
	}
	run := s.queueRun(projectID, id)
	run.JobID, run.Webhook = "", true
	s.automationRuns[len(s.automationRuns)-1] = run
	writeJSON(w, http.StatusAccepted, struct {
		Success bool   `json:"success"`
		RunID   string `json:"runId"`
	}{true, run.InstanceID})
}
