package fakeapi

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"
)

// disabledMessage is the 403 message of an organization without static export.
const disabledMessage = "Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan."

// jobJSON is the API's StaticExportJob object.
type jobJSON struct {
	JobID     string  `json:"jobId"`
	Status    string  `json:"status"`
	Progress  float64 `json:"progress"`
	PageCount int     `json:"pageCount"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
	Error     string  `json:"error,omitempty"`
}

// bundleJSON is the API's BundleResponse object.
type bundleJSON struct {
	JobID     string `json:"jobId"`
	BundleURL string `json:"bundleUrl"`
	SizeBytes int64  `json:"sizeBytes"`
	ExpiresAt string `json:"expiresAt"`
}

// staticExport answers 403 for every static export operation when the
// feature is disabled.
func (s *Server) staticExport(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.staticExportDisabled {
			s.refuse(w, http.StatusForbidden, disabledMessage)
			return
		}
		next(w, r)
	}
}

// handleStartJob serves POST /v1/static-export/jobs.
func (s *Server) handleStartJob(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body) // already buffered by ServeHTTP
	req, err := decodeStartRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	plan := s.jobPlan(req).normalized(req)

	s.mu.Lock()
	job := &exportJob{id: s.newJobIDLocked(), req: req, plan: plan, createdAt: s.clock.Now(), settlesIn: s.hostile.status}
	s.jobs[job.id] = job
	s.jobIDs = append(s.jobIDs, job.id)
	view := job.view(job.createdAt)
	s.mu.Unlock()

	writeJSON(w, http.StatusAccepted, view)
}

// handleGetJob serves GET /v1/static-export/jobs/{jobId}.
func (s *Server) handleGetJob(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	job, ok := s.jobs[r.PathValue("jobId")]
	var view jobJSON
	if ok {
		view = job.view(s.clock.Now())
	}
	s.mu.Unlock()

	if !ok {
		writeJobNotFound(w, r.PathValue("jobId"))
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// handleGenerateBundle serves POST /v1/static-export/jobs/{jobId}/bundle.
func (s *Server) handleGenerateBundle(w http.ResponseWriter, r *http.Request) {
	jobID := r.PathValue("jobId")
	now := s.clock.Now()

	s.mu.Lock()
	job, ok := s.jobs[jobID]
	var st jobState
	var size int64
	if ok {
		st = job.stateAt(now)
		if st.Status == statusCompleted {
			size = job.layout(s.archiveFor).announced()
			s.bundles++
		}
	}
	s.mu.Unlock()

	switch {
	case !ok:
		writeJobNotFound(w, jobID)
	case st.Status == statusFailed:
		writeError(w, http.StatusConflict, fmt.Sprintf(
			"Static export job %q failed, so it has no bundle: %s. Start a new export job.", jobID, st.Error))
	case st.Status != statusCompleted:
		writeError(w, http.StatusConflict, fmt.Sprintf(
			"Static export job %q is %s (%.1f%% done); wait until its status is completed before generating a bundle.",
			jobID, st.Status, st.Progress))
	default:
		link, expiresAt := s.presign(s.linkBase(r), jobID, bundleObject, now)
		if s.hostile.unannounced {
			size = 0
		}
		writeJSON(w, http.StatusOK, bundleJSON{
			JobID:     jobID,
			BundleURL: link,
			SizeBytes: size,
			ExpiresAt: formatTime(expiresAt),
		})
	}
}

func writeJobNotFound(w http.ResponseWriter, jobID string) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("No static export job with ID %q", jobID))
}

// view renders the job as the API shows it at now.
func (j *exportJob) view(now time.Time) jobJSON {
	st := j.stateAt(now)
	return jobJSON{
		JobID:     j.id,
		Status:    st.Status,
		Progress:  st.Progress,
		PageCount: st.PageCount,
		CreatedAt: formatTime(j.createdAt),
		UpdatedAt: formatTime(st.UpdatedAt),
		Error:     st.Error,
	}
}

// newJobIDLocked returns an unused id of the form se_<16 hex digits>, or
// the next of HostileOptions.JobIDs.
func (s *Server) newJobIDLocked() string {
	if s.hostile.jobIDs != nil {
		return s.hostile.jobIDs()
	}
	return randomID("se_", 8, func(id string) bool { return s.jobs[id] != nil })
}

// randomID returns prefix and n random bytes in hexadecimal, one that is
// not taken.
func randomID(prefix string, n int, taken func(string) bool) string {
	for {
		b := make([]byte, n)
		_, _ = rand.Read(b) // never fails since Go 1.24
		if id := prefix + hex.EncodeToString(b); !taken(id) {
			return id
		}
	}
}
