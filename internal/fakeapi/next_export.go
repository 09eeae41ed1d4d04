package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// The project-scoped static export contract (api/next/static-export-openapi.json):
// start and status under a project, the link in a completed job's status.
// Its own refusals carry a code beside the error text, as a service's own
// errors do at Mintlify; the key checks (requireAPIKey, keys.go) answer
// with the error text alone, as Mintlify's shared key layer does.

// The codes of the project-scoped contract's own errors.
const (
	codeNotEnabled   = "static_export_not_enabled"
	codeInvalidBody  = "invalid_request"
	codeBasePath     = "invalid_base_path"
	codeProjectID    = "invalid_project_id"
	codeNoProject    = "project_not_found"
	codeNoJob        = "job_not_found"
	codeJobActive    = "export_in_progress"
	codeHourlyLimit  = "rate_limit_exceeded"
	notEnabledText   = "Static export is not enabled for this project. Contact sales@mintlify.com to upgrade."
	exportStartLimit = 10
)

// basePaths are the basePath values a start accepts.
var basePaths = []string{"", "/docs", "/documentation"}

// projectIDPattern is the fake's idea of a well-formed project id; the API
// does not document its own, only that a malformed one answers 400.
var projectIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// serviceError is the error body of the contract's own refusals.
type serviceError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

func writeServiceError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, serviceError{Error: message, Code: code})
}

// projectJobJSON is the next contract's StaticExportJob object.
type projectJobJSON struct {
	JobID     string  `json:"jobId"`
	Status    string  `json:"status"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
	Error     *string `json:"error"`
	BundleURL string  `json:"bundleUrl,omitempty"`
	SizeBytes int64   `json:"sizeBytes,omitempty"`
	ExpiresAt string  `json:"expiresAt,omitempty"`
}

// projectJob is a job of the project-scoped contract: an export job's
// timeline, its project, and its ZIP archive once built.
type projectJob struct {
	exportJob
	start   ProjectStartRequest
	archive []byte // built on the first download or completed status
}

// nextExport refuses every project-scoped call when static export is not
// enabled (NextExport.NotEnabled), and answers 400 or 404 for a malformed
// or unknown project.
func (s *Server) nextExport(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		project := r.PathValue("projectId")
		switch {
		case s.next.NotEnabled == http.StatusUnauthorized || s.next.NotEnabled == http.StatusForbidden:
			if s.bareRefusals {
				s.refuse(w, s.next.NotEnabled, notEnabledText)
				return
			}
			writeServiceError(w, s.next.NotEnabled, codeNotEnabled, notEnabledText)
		case !projectIDPattern.MatchString(project):
			writeServiceError(w, http.StatusBadRequest, codeProjectID, fmt.Sprintf("Malformed project ID %s: copy it "+
				"from the API keys page of the dashboard", strconv.QuoteToASCII(cut(project, 80))))
		case s.projects != nil && !slices.Contains(s.projects, project):
			writeServiceError(w, http.StatusNotFound, codeNoProject, fmt.Sprintf("Project %q not found", project))
		default:
			next(w, r)
		}
	}
}

// cut shortens s to at most n bytes.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// handleStartProjectJob serves POST /v1/static-export/{projectId}/jobs.
func (s *Server) handleStartProjectJob(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body) // already buffered by ServeHTTP
	req := ProjectStartRequest{ProjectID: r.PathValue("projectId")}
	if code, msg := decodeBasePath(body, &req.BasePath); code != "" {
		writeServiceError(w, http.StatusBadRequest, code, msg)
		return
	}
	planFor := s.next.Plan
	if planFor == nil {
		planFor = func(ProjectStartRequest) JobPlan { return DefaultJobPlan(StartRequest{}) }
	}
	plan := planFor(req).normalized(StartRequest{})

	s.mu.Lock()
	now := s.clock.Now()
	if active := s.activeProjectJobLocked(req.ProjectID, now); active != "" {
		s.mu.Unlock()
		writeServiceError(w, http.StatusConflict, codeJobActive, fmt.Sprintf("A static export job is already in "+
			"progress for this deployment (%s). Wait for it to complete before starting a new one.", active))
		return
	}
	if s.windows != nil {
		if wait, ok := s.windows.take(groupExportStarts, req.ProjectID, now); !ok {
			s.mu.Unlock()
			s.writeHourlyLimit(w, wait)
			return
		}
	}
	job := &projectJob{start: req, exportJob: exportJob{id: s.newProjectJobIDLocked(), plan: plan, createdAt: now,
		settlesIn: s.hostile.status}}
	s.projectJobs[job.id] = job
	s.projectJobIDs = append(s.projectJobIDs, job.id)
	// A job that completes at once (a plan without durations) carries its
	// link, as every completed status does.
	view := s.projectJobView(job, s.linkBase(r), now)
	s.mu.Unlock()

	writeJSON(w, http.StatusAccepted, view)
}

// decodeBasePath reads the optional body of a start into basePath, or
// returns the code and text of its 400.
func decodeBasePath(body []byte, basePath *string) (code, message string) {
	if len(bytes.TrimSpace(body)) == 0 {
		return "", ""
	}
	var in struct {
		BasePath *json.RawMessage `json:"basePath"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return codeInvalidBody, "The request body must be a JSON object, such as {\"basePath\": \"/docs\"}"
	}
	if in.BasePath == nil {
		return "", ""
	}
	if err := json.Unmarshal(*in.BasePath, basePath); err != nil || !slices.Contains(basePaths, *basePath) {
		return codeBasePath, `Unsupported basePath: it must be "", "/docs" or "/documentation"`
	}
	return "", ""
}

// writeHourlyLimit answers a start beyond the hourly limit: the API's JSON
// error with a Retry-After, or plain text without one (PlainTextLimit).
func (s *Server) writeHourlyLimit(w http.ResponseWriter, wait time.Duration) {
	if s.next.PlainTextLimit || s.plainLimits {
		writePlainTooMany(w)
		return
	}
	w.Header().Set("Retry-After", strconv.Itoa(max(int((wait+time.Second-1)/time.Second), 1)))
	writeServiceError(w, http.StatusTooManyRequests, codeHourlyLimit, fmt.Sprintf("Rate limit exceeded: at most %d "+
		"static export jobs may be started per organization per hour", exportStartLimit))
}

// activeProjectJobLocked returns the id of project's queued or running job
// at now, or "".
func (s *Server) activeProjectJobLocked(project string, now time.Time) string {
	for _, id := range s.projectJobIDs {
		job, ok := s.projectJobs[id]
		if !ok || job.start.ProjectID != project {
			continue
		}
		if st := job.stateAt(now).Status; st == statusQueued || st == statusRunning {
			return id
		}
	}
	return ""
}

// handleGetProjectJob serves GET /v1/static-export/{projectId}/jobs/{jobId}:
// a completed job carries a link signed now, fresh at every call.
func (s *Server) handleGetProjectJob(w http.ResponseWriter, r *http.Request) {
	jobID := r.PathValue("jobId")
	s.mu.Lock()
	job, ok := s.projectJobs[jobID]
	ok = ok && job.start.ProjectID == r.PathValue("projectId")
	var view projectJobJSON
	if ok {
		view = s.projectJobView(job, s.linkBase(r), s.clock.Now())
	}
	s.mu.Unlock()

	if !ok {
		writeServiceError(w, http.StatusNotFound, codeNoJob, fmt.Sprintf("No static export job with ID %q for this "+
			"deployment", jobID))
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// projectJobView renders the job as the API shows it at now; a completed
// job carries a link under base, signed at now. The caller holds s.mu.
func (s *Server) projectJobView(job *projectJob, base string, now time.Time) projectJobJSON {
	st := job.stateAt(now)
	view := projectJobJSON{JobID: job.id, Status: st.Status, CreatedAt: formatTime(job.createdAt)}
	// updatedAt is the last transition: there is no progress to step.
	switch st.Status {
	case statusQueued:
		view.UpdatedAt = view.CreatedAt
	case statusRunning:
		view.UpdatedAt = formatTime(job.createdAt.Add(job.plan.QueueFor))
	default:
		view.UpdatedAt = formatTime(job.finishedAt())
	}
	if st.Status == statusFailed {
		view.Error = &st.Error
	}
	if st.Status == statusCompleted && base != "" {
		var expiresAt time.Time
		view.BundleURL, expiresAt = s.presign(base, job.id, exportObject, now)
		view.ExpiresAt = formatTime(expiresAt)
		if !s.hostile.unannounced {
			view.SizeBytes = int64(len(s.projectArchiveLocked(job)))
		}
		s.bundles++
	}
	return view
}

// newProjectJobIDLocked returns an unused id of 24 hexadecimal digits, as
// the API's examples show, or the next of HostileOptions.JobIDs.
func (s *Server) newProjectJobIDLocked() string {
	if s.hostile.jobIDs != nil {
		return s.hostile.jobIDs()
	}
	return randomID("", 12, func(id string) bool { return s.projectJobs[id] != nil })
}
