package mintlify

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// What StartError names for the deployment and automation calls.
const (
	deploymentWhat = "deployment"
	previewWhat    = "preview deployment"
	automationWhat = "automation run"
)

// Deployment is the API's status object of a deployment: of the project's
// deployment branch, or of a preview. Every field may be missing.
type Deployment struct {
	ID        string   `json:"_id"`
	ProjectID string   `json:"projectId"`
	CreatedAt string   `json:"createdAt"`
	EndedAt   string   `json:"endedAt"`
	Status    string   `json:"status"`
	Summary   string   `json:"summary"`
	Logs      []string `json:"logs"`
	Source    string   `json:"source"`
	Commit    struct {
		SHA     string `json:"sha"`
		Ref     string `json:"ref"`
		Message string `json:"message"`
	} `json:"commit"`
}

// failure implements Job.
func (d Deployment) failure() string {
	if d.Summary == "" {
		return fmt.Sprintf("deployment %s failed", d.ID)
	}
	return fmt.Sprintf("deployment %s failed: %s", d.ID, d.Summary)
}

// createdTime is CreatedAt as a time, or the zero time when the API sent
// none or something that is not an ISO 8601 time.
func (d Deployment) createdTime() time.Time {
	t, err := time.Parse(time.RFC3339Nano, d.CreatedAt)
	if err != nil {
		return time.Time{}
	}
	return t
}

// PreviewDeployment is what triggering a preview answers.
type PreviewDeployment struct {
	StatusID   string `json:"statusId"`
	PreviewURL string `json:"previewUrl"`
}

// AutomationRun is what triggering an automation answers: the run is
// queued, and the API has no call to follow it.
type AutomationRun struct {
	SchemaID   string `json:"schemaId"`
	InstanceID string `json:"instanceId"`
	JobID      string `json:"jobId"`
}

// TriggerDeployment deploys the project's deployment branch and returns the
// status id to follow the deployment by. Like every trigger it is paced
// within the API's documented limits and never repeated when the API may
// have taken it: every error is a *StartError.
func (c *Client) TriggerDeployment(ctx context.Context, projectID string) (string, error) {
	var out struct {
		StatusID string `json:"statusId"`
	}
	segments := []string{"v1", "project", "update", projectID}
	if err := c.trigger(ctx, c.limits.triggers, segments, nil, &out); err != nil {
		return "", &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: deploymentWhat}
	}
	if err := checkID(callRoute(http.MethodPost, segments), "statusId", out.StatusID); err != nil {
		return "", &StartError{MayHaveStarted: true, Err: err, What: deploymentWhat}
	}
	return out.StatusID, nil
}

// TriggerPreview deploys a preview of branch, or redeploys the branch's
// existing preview, and returns its status id and address. An address that
// is not an https URL is refused with an *InvalidValueError.
func (c *Client) TriggerPreview(ctx context.Context, projectID, branch string) (*PreviewDeployment, error) {
	var out PreviewDeployment
	body := struct {
		Branch string `json:"branch"`
	}{branch}
	segments := []string{"v1", "project", "preview", projectID}
	if err := c.trigger(ctx, c.limits.previews, segments, body, &out); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: previewWhat}
	}
	route := callRoute(http.MethodPost, segments)
	for _, err := range []error{checkID(route, "statusId", out.StatusID), checkLinkValue(route, "previewUrl", out.PreviewURL)} {
		if err != nil {
			return nil, &StartError{MayHaveStarted: true, Err: err, What: previewWhat}
		}
	}
	return &out, nil
}

// TriggerAutomation queues a run of an automation with a custom schedule.
func (c *Client) TriggerAutomation(ctx context.Context, projectID, automationID string) (*AutomationRun, error) {
	var out AutomationRun
	segments := []string{"v1", "workflow", projectID, automationID, "trigger"}
	if err := c.trigger(ctx, c.limits.triggers, segments, nil, &out); err != nil {
		return nil, &StartError{MayHaveStarted: mayHaveActed(err), Err: err, What: automationWhat}
	}
	route := callRoute(http.MethodPost, segments)
	for _, err := range []error{checkID(route, "schemaId", out.SchemaID), checkID(route, "instanceId", out.InstanceID),
		checkID(route, "jobId", out.JobID)} {
		if err != nil {
			return nil, &StartError{MayHaveStarted: true, Err: err, What: automationWhat}
		}
	}
	return &out, nil
}

// GetDeployment returns a deployment (or a preview's) by its status id.
func (c *Client) GetDeployment(ctx context.Context, statusID string) (*Deployment, error) {
	var d Deployment
	segments := []string{"v1", "project", "update-status", statusID}
	if err := c.do(ctx, http.MethodGet, segments, &d); err != nil {
		return nil, err
	}
	if d.ID != "" { // every field may be missing
		if err := checkID(callRoute(http.MethodGet, segments), "_id", d.ID); err != nil {
			return nil, err
		}
	}
	c.cleanDeployment(&d)
	return &d, nil
}

// WaitForDeployment polls a deployment until it is `success` or `failure`
// (a *JobFailedError[Deployment]), or in a status the API does not
// document, or ctx ends, like WaitForAgentJob.
//
// The wait spaces its requests with a poll.Foretold, by the duration that
// Foretell gives; without Foretell, as Mintlify's own 10-second loop, or
// with the client's policy if it was given one (WithPollPolicy).
func (c *Client) WaitForDeployment(ctx context.Context, statusID string, opts ...WaitOption[Deployment]) (*Deployment, error) {
	if !c.pollPolicySet {
		opts = append([]WaitOption[Deployment]{Foretell(0, false)}, opts...)
	}
	get := func(ctx context.Context) (*Deployment, error) { return c.GetDeployment(ctx, statusID) }
	return waitFor(ctx, c, deployments, statusID, get, opts)
}

// Foretell tells a deployment's wait how long an earlier deployment of the
// same resource took, from creation to end (zero when none is known), and
// whether the wait starts as the deployment was just triggered (fresh): its
// first request then waits until shortly before the deployment is due to
// end, rather than going out at once. See poll.Foretold.
func Foretell(took time.Duration, fresh bool) WaitOption[Deployment] {
	return func(o *waitOptions[Deployment]) { o.policy = poll.Foretold{Took: took, Fresh: fresh} }
}

// Took is how long the deployment took, from creation to end, when the API
// gave both times; zero otherwise.
func (d Deployment) Took() time.Duration {
	ended, err := time.Parse(time.RFC3339Nano, d.EndedAt)
	created := d.createdTime()
	if err != nil || created.IsZero() || !ended.After(created) {
		return 0
	}
	return ended.Sub(created)
}

// deployments is what a wait knows about deployments.
var deployments = jobKind[Deployment]{
	what:   deploymentWhat,
	known:  DeploymentStatuses,
	going:  []string{DeployStatusQueued, DeployStatusInProgress},
	failed: DeployStatusFailure,
	id:     func(d *Deployment) string { return d.ID },
	observe: func(d *Deployment) poll.Observation {
		return poll.Observation{Status: d.Status, CreatedAt: d.createdTime()}
	},
	changed: func(prev, next *Deployment) bool {
		return prev.Status != next.Status || len(prev.Logs) != len(next.Logs)
	},
}

// cleanDeployment cleans every text of d that reaches state, errors and
// diagnostics.
func (c *Client) cleanDeployment(d *Deployment) {
	for _, s := range []*string{&d.ID, &d.ProjectID, &d.CreatedAt, &d.EndedAt, &d.Status, &d.Summary, &d.Source,
		&d.Commit.SHA, &d.Commit.Ref, &d.Commit.Message} {
		*s = c.serverText(*s)
	}
	for i := range d.Logs {
		d.Logs[i] = c.serverText(d.Logs[i])
	}
}
