package mintlify

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// Static export job statuses.
const (
	StatusQueued    = "queued"
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// StaticExportStatuses lists every documented static export job status.
var StaticExportStatuses = []string{StatusQueued, StatusRunning, StatusCompleted, StatusFailed}

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

// Done reports whether the job reached a final status.
func (j StaticExportJob) Done() bool {
	return j.Status == StatusCompleted || j.Status == StatusFailed
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
	if err := c.doOnce(ctx, http.MethodPost, []string{"v1", "static-export", "jobs"}, req, &job); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err}
	}
	c.cleanExportJob(&job)
	return &job, nil
}

// GetStaticExportJob returns a job's current status and progress.
func (c *Client) GetStaticExportJob(ctx context.Context, jobID string) (*StaticExportJob, error) {
	var job StaticExportJob
	if err := c.do(ctx, http.MethodGet, []string{"v1", "static-export", "jobs", jobID}, nil, &job); err != nil {
		return nil, err
	}
	c.cleanExportJob(&job)
	return &job, nil
}

// GenerateBundle returns a fresh presigned link to a completed job's archive.
// Calling it again on the same job returns a new link; the export is not
// repeated. A link that is not an absolute http(s) URL, or that uses plain
// http while the API is not on a loopback address, is refused with an
// *UnsafeLinkError.
func (c *Client) GenerateBundle(ctx context.Context, jobID string) (*Bundle, error) {
	var b Bundle
	if err := c.do(ctx, http.MethodPost, []string{"v1", "static-export", "jobs", jobID, "bundle"}, nil, &b); err != nil {
		return nil, err
	}
	if err := c.checkBundleLink(jobID, b.BundleURL); err != nil {
		return nil, err
	}
	return &b, nil
}

// WaitForStaticExport polls a job until it is completed or failed, or in a
// status the API does not document, or ctx ends, spacing the requests with the client's PollPolicy (by default an
// AdaptivePolicy, which sleeps towards the finish that the job's progress
// predicts). The first request goes out at once. onChange, when not nil, is
// called with each status that differs from the previous one in status,
// progress or page count.
//
// The returned job is the last one seen, also on error (nil if none was
// seen). A failed job returns a *JobFailedError, an undocumented status an
// *UnknownStatusError; an ended ctx returns ctx.Err().
func (c *Client) WaitForStaticExport(ctx context.Context, jobID string, onChange func(StaticExportJob)) (*StaticExportJob, error) {
	return c.waitForStaticExport(ctx, jobID, nil, onChange)
}

// WaitForStartedExport is WaitForStaticExport for the job StartStaticExport
// has just returned: that answer is the wait's first status, so the first
// request goes out only when the PollPolicy asks for one (a couple of
// seconds later for a queued job) rather than at once.
func (c *Client) WaitForStartedExport(ctx context.Context, started *StaticExportJob, onChange func(StaticExportJob)) (*StaticExportJob, error) {
	return c.waitForStaticExport(ctx, started.JobID, started, onChange)
}

func (c *Client) waitForStaticExport(ctx context.Context, jobID string, started *StaticExportJob, onChange func(StaticExportJob)) (*StaticExportJob, error) {
	last := started
	var first *poll.Observation
	if started != nil {
		if done, err := exportDone(started); done {
			return started, err
		}
		obs := exportObservation(started)
		first = &obs
	}
	err := c.wait(ctx, first, func(ctx context.Context) (poll.Observation, bool, error) {
		job, err := c.GetStaticExportJob(ctx, jobID)
		if err != nil {
			return poll.Observation{}, false, err
		}
		if onChange != nil && (last == nil || last.Status != job.Status ||
			last.Progress != job.Progress || last.PageCount != job.PageCount) {
			onChange(*job)
		}
		last = job
		if done, err := exportDone(job); done {
			return poll.Observation{}, true, err
		}
		return exportObservation(job), false, nil
	})
	return last, err
}

// exportDone reports whether a wait for a job has ended, and how: a job
// that completed, failed, or is in a status the API does not document
// (an *UnknownStatusError) ends it.
func exportDone(job *StaticExportJob) (bool, error) {
	switch job.Status {
	case StatusQueued, StatusRunning:
		return false, nil
	case StatusCompleted:
		return true, nil
	case StatusFailed:
		return true, &JobFailedError{Job: *job}
	}
	return true, &UnknownStatusError{What: "static export job", JobID: job.JobID, Status: job.Status, Known: StaticExportStatuses}
}

// exportObservation is what a poll policy learns from a job's status.
func exportObservation(job *StaticExportJob) poll.Observation {
	return poll.Observation{
		Status:      job.Status,
		Progress:    job.Progress,
		HasProgress: job.Status == StatusRunning,
		CreatedAt:   job.CreatedAt,
		UpdatedAt:   job.UpdatedAt,
	}
}

// FormatProgress renders a percentage without trailing zeros: 42, 42.5.
func FormatProgress(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64)
}
