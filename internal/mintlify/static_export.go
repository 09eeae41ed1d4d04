package mintlify

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// StartStaticExportRequest is the body of "Start static export job".
type StartStaticExportRequest struct {
	// Domain is the deployment's bare hostname, such as docs.example.com.
	Domain string `json:"domain"`
	// Version optionally tags the export; the API defaults to the latest.
	Version string `json:"version,omitempty"`
	// Paths optionally limits the export to these pages.
	Paths []string `json:"paths,omitempty"`
}

// StaticExportJob is the API's job object.
type StaticExportJob struct {
	JobID     string    `json:"jobId"`
	Status    string    `json:"status"`
	Progress  float64   `json:"progress"`
	PageCount int64     `json:"pageCount"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Error is the API's reason, present only when Status is "failed".
	Error *string `json:"error,omitempty"`
}

// Bundle is a presigned download link for a completed job's archive.
type Bundle struct {
	JobID     string    `json:"jobId"`
	BundleURL string    `json:"bundleUrl"`
	SizeBytes int64     `json:"sizeBytes"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// StartStaticExport starts a static export job. The job runs on the Mintlify
// side; poll it with GetStaticExportJob or WaitForStaticExport.
//
// Starting a job is not idempotent: the request is repeated only when the API
// certainly did not take it. Every error is a *StartError that says whether
// a job may have started anyway.
func (c *Client) StartStaticExport(ctx context.Context, req StartStaticExportRequest) (*StaticExportJob, error) {
	var job StaticExportJob
	segments := []string{"v1", "static-export", "jobs"}
	if err := c.postOnce(ctx, segments, req, &job); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err}
	}
	if err := c.cleanExportJob(callRoute(http.MethodPost, segments), &job); err != nil {
		// The API took the request, but its job cannot be followed.
		return nil, &StartError{MayHaveStarted: true, Err: err}
	}
	return &job, nil
}

// GetStaticExportJob returns a job's current status and progress.
func (c *Client) GetStaticExportJob(ctx context.Context, jobID string) (*StaticExportJob, error) {
	var job StaticExportJob
	segments := []string{"v1", "static-export", "jobs", jobID}
	if err := c.do(ctx, http.MethodGet, segments, &job); err != nil {
		return nil, err
	}
	if err := c.cleanExportJob(callRoute(http.MethodGet, segments), &job); err != nil {
		return nil, err
	}
	return &job, nil
}

// GenerateBundle returns a fresh presigned link to a completed job's archive.
// Calling it again on the same job returns a new link; the export is not
// repeated. A link that is not an absolute http(s) URL, or that uses plain
// http while the API is not on a loopback address, is refused with an
// *UnsafeLinkError; a jobId that is not an identifier with an
// *InvalidValueError.
func (c *Client) GenerateBundle(ctx context.Context, jobID string) (*Bundle, error) {
	var b Bundle
	segments := []string{"v1", "static-export", "jobs", jobID, "bundle"}
	if err := c.do(ctx, http.MethodPost, segments, &b); err != nil {
		return nil, err
	}
	if err := checkID(callRoute(http.MethodPost, segments), "jobId", b.JobID); err != nil {
		return nil, err
	}
	if err := c.checkBundleLink(jobID, b.BundleURL); err != nil {
		return nil, err
	}
	return &b, nil
}

// WaitForStaticExport polls a static export job until it is completed or
// failed, or in a status the API does not document, or ctx ends, spacing
// the requests with the client's poll policy (by default poll.Adaptive,
// which sleeps towards the finish that the job's progress predicts). The
// first request goes out at once, unless Started hands the wait the start's
// answer; OnChange follows the job's progress.
//
// The returned job is the last one seen, also on error (nil if none was
// seen). A failed job returns a *JobFailedError, an undocumented status an
// *UnknownStatusError; an ended ctx returns ctx.Err().
func (c *Client) WaitForStaticExport(ctx context.Context, jobID string, opts ...WaitOption[StaticExportJob]) (*StaticExportJob, error) {
	get := func(ctx context.Context) (*StaticExportJob, error) { return c.GetStaticExportJob(ctx, jobID) }
	return waitFor(ctx, c, exportJobs, jobID, get, opts)
}

// exportJobs is what a wait knows about static export jobs.
var exportJobs = jobKind[StaticExportJob]{
	what:   "static export job",
	known:  StaticExportStatuses,
	going:  []string{StatusQueued, StatusRunning},
	failed: StatusFailed,
	id:     func(j *StaticExportJob) string { return j.JobID },
	observe: func(j *StaticExportJob) poll.Observation {
		return poll.Observation{Status: j.Status, Progress: j.Progress, HasProgress: j.Status == StatusRunning,
			CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt}
	},
	changed: func(prev, next *StaticExportJob) bool {
		return prev.Status != next.Status || prev.Progress != next.Progress || prev.PageCount != next.PageCount
	},
}

// failure implements Job: the job's progress, and the API's reason.
func (j StaticExportJob) failure() string {
	return fmt.Sprintf("static export job %s failed at %s%% (%d pages exported): %s",
		j.JobID, FormatProgress(j.Progress), j.PageCount, failureReason(j.Error))
}

// failureReason is a failed export job's error, or says that it has none.
func failureReason(reason *string) string {
	if reason == nil || strings.TrimSpace(*reason) == "" {
		return "the API gave no reason"
	}
	return *reason
}

// FormatProgress renders a percentage without trailing zeros: 42, 42.5.
func FormatProgress(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64)
}
