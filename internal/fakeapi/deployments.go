package fakeapi

import (
	"crypto/sha1" //nolint:gosec // a fake commit sha, not a security boundary
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Deployment statuses, as the API spells them.
const (
	deployQueued     = "queued"
	deployInProgress = "in_progress"
	deploySuccess    = "success"
	deployFailure    = "failure"
)

// DeploymentRequest is a deployment as the fake received it: of the
// project's deployment branch ("Trigger update") or of a preview ("Trigger
// preview deployment", with Branch set).
type DeploymentRequest struct {
	// ProjectID is the project in the request's path.
	ProjectID string
	// Branch is the preview's branch; empty for the deployment branch.
	Branch string
	// N counts the deployments of the server, from 1.
	N int
}

// DeploymentPlan decides how a deployment behaves: `queued` for QueuedFor,
// `in_progress` for RunFor, then `success` or, with Fail, `failure`.
type DeploymentPlan struct {
	QueuedFor time.Duration
	RunFor    time.Duration
	// Fail ends the deployment in `failure`, with Summary and Logs.
	Fail bool
	// Summary is the deployment's summary once it has ended; a default
	// sentence when empty.
	Summary string
	// Logs are the deployment's log lines, shown once it runs.
	Logs []string
	// Commit is the commit deployed: its sha, ref and message. A sha derived
	// from the request, ref "main" and "Update docs" when left empty.
	CommitSHA, CommitRef, CommitMessage string
}

// DefaultDeploymentPlan is the plan of every deployment on a server
// without DeploymentOptions.Plan: 5 seconds queued, 40 seconds building, then
// success.
var DefaultDeploymentPlan = func(DeploymentRequest) DeploymentPlan {
	return DeploymentPlan{QueuedFor: 5 * time.Second, RunFor: 40 * time.Second}
}

// deployment is one deployment. Its status is never stored: it is computed
// from its plan and the clock at every request.
type deployment struct {
	id        string
	projectID string
	branch    string
	createdAt time.Time
	plan      DeploymentPlan
	// forgotten is set by ForgetDeployment: the status answers 404, and
	// the request is still counted.
	forgotten bool
}

// deploymentJSON is the API's status object.
type deploymentJSON struct {
	ID        string            `json:"_id"`
	ProjectID string            `json:"projectId"`
	CreatedAt string            `json:"createdAt"`
	EndedAt   string            `json:"endedAt,omitempty"`
	Status    string            `json:"status"`
	Summary   string            `json:"summary"`
	Logs      []string          `json:"logs"`
	Subdomain string            `json:"subdomain"`
	Author    *deployAuthorJSON `json:"author"`
	Commit    deployCommitJSON  `json:"commit"`
	Source    string            `json:"source"`
}

type deployAuthorJSON struct {
	Name         string  `json:"name"`
	GitHubUserID float64 `json:"githubUserId"`
}

type deployCommitJSON struct {
	SHA          string          `json:"sha"`
	Ref          string          `json:"ref"`
	Message      string          `json:"message"`
	FilesChanged deployFilesJSON `json:"filesChanged"`
}

type deployFilesJSON struct {
	Added    []string `json:"added"`
	Modified []string `json:"modified"`
	Removed  []string `json:"removed"`
}

// view is the deployment as the API shows it at now.
func (d *deployment) view(now time.Time) deploymentJSON {
	started := d.createdAt.Add(d.plan.QueuedFor)
	ended := started.Add(d.plan.RunFor)
	v := deploymentJSON{
		ID: d.id, ProjectID: d.projectID, CreatedAt: formatTime(d.createdAt),
		Status: deployQueued, Summary: "Waiting for a builder", Logs: []string{},
		Subdomain: d.projectID, Source: "api",
		Author: &deployAuthorJSON{Name: "Mintlify API", GitHubUserID: 0},
		Commit: deployCommitJSON{SHA: d.plan.CommitSHA, Ref: d.plan.CommitRef, Message: d.plan.CommitMessage,
			FilesChanged: deployFilesJSON{Added: []string{}, Modified: []string{"index.mdx"}, Removed: []string{}}},
	}
	switch {
	case now.Before(started):
		return v
	case now.Before(ended):
		v.Status, v.Summary = deployInProgress, "Building the site"
		v.Logs = d.logsUntil(now.Sub(started), d.plan.RunFor)
		return v
	}
	v.EndedAt = formatTime(ended)
	v.Logs = append([]string{}, d.plan.Logs...) // never null, even for a plan without logs
	v.Status, v.Summary = deploySuccess, "Deployed"
	if d.plan.Fail {
		v.Status, v.Summary = deployFailure, "The build failed"
	}
	if d.plan.Summary != "" {
		v.Summary = d.plan.Summary
	}
	return v
}

// logsUntil is the part of the plan's log lines written after ran of run.
func (d *deployment) logsUntil(ran, run time.Duration) []string {
	n := len(d.plan.Logs)
	if run > 0 {
		n = int(int64(len(d.plan.Logs)) * int64(ran) / int64(run))
	}
	return append([]string{}, d.plan.Logs[:n]...)
}

// DeploymentStatusAt returns the status of deployment id at t, and whether
// the server has it.
func (s *Server) DeploymentStatusAt(id string, t time.Time) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deployments[id]
	if !ok || d.forgotten {
		return "", false
	}
	return d.view(t).Status, true
}

// DeploymentRequests returns the deployments the server was asked for,
// oldest first.
func (s *Server) DeploymentRequests() []DeploymentRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]DeploymentRequest, 0, len(s.deploymentIDs))
	for i, id := range s.deploymentIDs {
		d := s.deployments[id]
		out = append(out, DeploymentRequest{ProjectID: d.projectID, Branch: d.branch, N: i + 1})
	}
	return out
}

// ForgetDeployment removes a deployment, as when Mintlify no longer keeps
// its status: reading it answers 404. DeploymentRequests still counts it.
func (s *Server) ForgetDeployment(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.deployments[id]; ok {
		d.forgotten = true
	}
}

// handleTriggerDeployment serves "Trigger update".
func (s *Server) handleTriggerDeployment(w http.ResponseWriter, r *http.Request) {
	projectID := r.PathValue("projectId")
	if !s.projectExists(projectID) {
		writeError(w, http.StatusNotFound, "Project not found")
		return
	}
	d := s.newDeployment(projectID, "")
	writeJSON(w, http.StatusAccepted, struct {
		StatusID string `json:"statusId"`
	}{d.id})
}

// newDeployment records a deployment of projectID (of branch's preview
// when branch is set) planned by the server's plan.
func (s *Server) newDeployment(projectID, branch string) *deployment {
	s.mu.Lock()
	n := len(s.deploymentIDs) + 1
	s.mu.Unlock()
	req := DeploymentRequest{ProjectID: projectID, Branch: branch, N: n}
	plan := s.deploymentPlan(req) // outside the lock: the test's function
	fillCommit(&plan, req)

	s.mu.Lock()
	defer s.mu.Unlock()
	id := objectID(s.deploymentCounter())
	if s.hostile.jobIDs != nil {
		id = s.hostile.jobIDs()
	}
	d := &deployment{id: id, projectID: projectID, branch: branch, createdAt: s.clock.Now(), plan: plan}
	s.deployments[d.id] = d
	s.deploymentIDs = append(s.deploymentIDs, d.id)
	return d
}

// deploymentCounter numbers ids; called with s.mu held.
func (s *Server) deploymentCounter() int {
	s.idCounter++
	return s.idCounter
}

// fillCommit gives plan the default commit where it names none.
func fillCommit(plan *DeploymentPlan, req DeploymentRequest) {
	if plan.CommitRef == "" {
		plan.CommitRef = "main"
		if req.Branch != "" {
			plan.CommitRef = req.Branch
		}
	}
	if plan.CommitSHA == "" {
		sum := sha1.Sum(fmt.Appendf(nil, "%s/%s/%d", req.ProjectID, plan.CommitRef, req.N)) //nolint:gosec // a fake sha
		plan.CommitSHA = hex.EncodeToString(sum[:])
	}
	if plan.CommitMessage == "" {
		plan.CommitMessage = "Update docs"
	}
}

// objectID renders n as a 24-hex-digit id, as the API's ids look.
func objectID(n int) string { return fmt.Sprintf("6650f1c2a0b1c2d3%08x", n) }

// handleGetDeployment serves "Get update status".
func (s *Server) handleGetDeployment(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("statusId")
	s.mu.Lock()
	d, ok := s.deployments[id]
	ok = ok && !d.forgotten
	var v deploymentJSON
	if ok {
		v = d.view(s.clock.Now())
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "Deployment status not found")
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// previewSlug is how a branch name appears in its preview's host name.
var previewSlug = regexp.MustCompile(`[^a-z0-9]+`)

// PreviewURL is the address of projectID's preview of branch.
func PreviewURL(projectID, branch string) string {
	slug := strings.Trim(previewSlug.ReplaceAllString(strings.ToLower(branch), "-"), "-")
	return "https://" + projectID + "-" + slug + ".mintlify.app"
}
