package mintlify

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// The project-scoped static export contract, which Mintlify is putting in
// place of the domain-scoped one (static_export.go): a job is started and
// read under a project, one job may be active per deployment (409), an
// organization may start 10 jobs an hour (429), and there is no bundle
// call: every read of a completed job carries a fresh link to its archive,
// a ZIP file.

// ProjectExportBasePaths are the base paths a project-scoped export
// accepts, the default ("") first.
var ProjectExportBasePaths = []string{"", "/docs", "/documentation"}

// conflictPolicy spaces the starts repeated while another job of the
// deployment is active (409): the job that blocks is unknown, so it
// cannot be polled, and each start may count against the hourly limit.
var conflictPolicy poll.Policy = poll.Exponential{Initial: 15 * time.Second, Max: 2 * time.Minute, Multiplier: 2}

// conflictMargin is what a repeated start leaves before the deadline, for
// its own answer to arrive.
const conflictMargin = 5 * time.Second

// ProjectExportRequest is the optional body of a project-scoped start.
type ProjectExportRequest struct {
	// BasePath is the path the site is served under: one of
	// ProjectExportBasePaths. Empty is the API's default.
	BasePath string `json:"basePath"`
}

// ProjectExportJob is the project-scoped contract's job object. A
// completed job carries a link to its archive, fresh at every read.
type ProjectExportJob struct {
	JobID     string    `json:"jobId"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
	// UpdatedAt is the job's last change of status.
	UpdatedAt time.Time `json:"updatedAt"`
	// Error is the API's reason, present only when Status is "failed".
	Error *string `json:"error"`
	// BundleURL, SizeBytes and ExpiresAt are present only when Status is
	// "completed": a presigned link to the ZIP archive (a secret: never
	// log it), its size (0 when not announced), and when the link expires.
	BundleURL string    `json:"bundleUrl"`
	SizeBytes int64     `json:"sizeBytes"`
	ExpiresAt time.Time `json:"expiresAt"`
	// ProjectID is the project the job was read under; the API does not
	// send it.
	ProjectID string `json:"-"`
}

// Bundle returns the completed job's link in the shape of GenerateBundle's
// answer, and false for a job that has none (any other status).
func (j *ProjectExportJob) Bundle() (*Bundle, bool) {
	if j.Status != StatusCompleted || j.BundleURL == "" {
		return nil, false
	}
	return &Bundle{JobID: j.JobID, BundleURL: j.BundleURL, SizeBytes: j.SizeBytes, ExpiresAt: j.ExpiresAt}, true
}

// StartProjectExport starts a static export job of a project. The job runs
// on the Mintlify side; poll it with GetProjectExportJob or
// WaitForProjectExport.
//
// Starting a job is not idempotent: the request is repeated only when the
// API certainly did not take it, and every error is a *StartError that
// says whether a job may have started anyway. Two refusals are waited out
// within ctx:
//   - 409, another job of the deployment is active: the start is repeated
//     (15 seconds, then doubling to every 2 minutes), with an Info log
//     each time, until it is taken. When ctx's deadline comes first, the
//     error is a *RetryError stopped by context.DeadlineExceeded around the
//     409 (IsConflict and IsAnotherExportActive hold).
//   - 429, the hourly limit of starts (LimitExportStarts): a turn to wait
//     for. A Retry-After is waited out when it ends before ctx's deadline
//     (up to an hour), otherwise the call fails at once, the *RetryError
//     saying so, and RetryAt telling when a start may go again. Without a
//     Retry-After, the start is repeated an hour later, or once shortly
//     before the deadline.
func (c *Client) StartProjectExport(ctx context.Context, projectID string, req ProjectExportRequest) (*ProjectExportJob, error) {
	segments := []string{"v1", "static-export", projectID, "jobs"}
	cl := call{method: http.MethodPost, segments: segments, limit: &LimitExportStarts}
	if req.BasePath != "" {
		cl.in = req // the body is optional; an API without basePath takes a start without one
	}
	var schedule poll.Schedule
	sent := 0
	for {
		var job ProjectExportJob
		cl.out = &job
		err := c.send(ctx, cl)
		sent += Attempts(err)
		if err == nil {
			if err := c.cleanProjectJob(callRoute(http.MethodPost, segments), projectID, &job); err != nil {
				// The API took the request, but its job cannot be followed.
				return nil, &StartError{MayHaveStarted: true, Err: err}
			}
			return &job, nil
		}
		if !IsConflict(err) {
			return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err}
		}
		if schedule == nil {
			schedule = conflictPolicy.Start(c.clock.Now())
		}
		if err := c.waitOutConflict(ctx, projectID, sent, schedule.Next(poll.Observation{Now: c.clock.Now()}), err); err != nil {
			return nil, &StartError{Err: err}
		}
	}
}

// waitOutConflict sleeps before a start refused with 409 (conflict) is
// repeated: wait, shortened so that the repeat goes conflictMargin before
// ctx's deadline. When no repeat fits, or ctx ends, it returns a
// *RetryError around the conflict.
func (c *Client) waitOutConflict(ctx context.Context, projectID string, sent int, wait time.Duration, conflict error) error {
	now := c.clock.Now()
	if deadline, ok := clock.Deadline(ctx); ok {
		left := deadline.Sub(now)
		if left-conflictMargin <= 0 {
			return &RetryError{Attempts: sent, Err: conflict, Stop: context.DeadlineExceeded, Wait: wait, Left: left}
		}
		wait = min(wait, left-conflictMargin)
	}
	c.logger.Info(ctx, "Another static export job is active for the project's deployment; waiting for it to end "+
		"before starting a new one", map[string]any{"project_id": projectID, "wait": wait.String(), "attempts": sent})
	if err := c.clock.Sleep(ctx, wait); err != nil {
		return &RetryError{Attempts: sent, Err: conflict, Stop: err}
	}
	return nil
}

// GetProjectExportJob returns a project-scoped job's current status. A
// completed job's answer carries a fresh link to its archive every time:
// renewing a link is a read, which a read-only key may do. A link that is
// not an absolute http(s) URL, or uses plain http while the API is not on
// a loopback address, is refused with an *UnsafeLinkError.
func (c *Client) GetProjectExportJob(ctx context.Context, projectID, jobID string) (*ProjectExportJob, error) {
	var job ProjectExportJob
	segments := []string{"v1", "static-export", projectID, "jobs", jobID}
	if err := c.do(ctx, http.MethodGet, segments, &job); err != nil {
		return nil, err
	}
	if err := c.cleanProjectJob(callRoute(http.MethodGet, segments), projectID, &job); err != nil {
		return nil, err
	}
	return &job, nil
}

// WaitForProjectExport polls a project-scoped job until it is completed or
// failed, or in a status the API does not document, or ctx ends, as
// WaitForStaticExport does. The job reports no progress, so the client's
// poll policy backs off between requests. The job returned when it
// completed carries the link of the last read.
func (c *Client) WaitForProjectExport(ctx context.Context, projectID, jobID string,
	opts ...WaitOption[ProjectExportJob]) (*ProjectExportJob, error) {
	get := func(ctx context.Context) (*ProjectExportJob, error) {
		return c.GetProjectExportJob(ctx, projectID, jobID)
	}
	return waitFor(ctx, c, projectExportJobs, jobID, get, opts)
}

// projectExportJobs is what a wait knows about project-scoped jobs.
var projectExportJobs = jobKind[ProjectExportJob]{
	what:   "static export job",
	known:  StaticExportStatuses,
	going:  []string{StatusQueued, StatusRunning},
	failed: StatusFailed,
	id:     func(j *ProjectExportJob) string { return j.JobID },
	observe: func(j *ProjectExportJob) poll.Observation {
		return poll.Observation{Status: j.Status, CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt}
	},
	changed: func(prev, next *ProjectExportJob) bool { return prev.Status != next.Status },
}

// failure implements Job: the job, its project, and the API's reason.
func (j ProjectExportJob) failure() string {
	return fmt.Sprintf("static export job %s of project %s failed: %s", j.JobID, j.ProjectID, failureReason(j.Error))
}

// cleanProjectJob refuses a job whose id is not an identifier, or whose
// link is missing (a completed job) or unsafe, and cleans its status and
// failure reason, which reach errors and diagnostics.
func (c *Client) cleanProjectJob(route, projectID string, job *ProjectExportJob) error {
	if err := checkID(route, "jobId", job.JobID); err != nil {
		return err
	}
	job.ProjectID = projectID
	job.Status = c.serverText(job.Status)
	if job.Error != nil {
		reason := c.serverText(*job.Error)
		job.Error = &reason
	}
	if job.Status != StatusCompleted {
		return nil
	}
	if job.BundleURL == "" {
		return &InvalidValueError{Route: route, Field: "bundleUrl", Shown: `""`,
			Rule: "a completed job carries the link to its archive"}
	}
	return c.checkBundleLink(job.JobID, job.BundleURL)
}
