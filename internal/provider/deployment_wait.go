package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The one wait for a deployment, which the resource, the data source and
// the action share. Each says, in a deploymentWait, what bounds its wait
// and what the person at the terminal should do next when it ends early.

// defaultDeploymentWaitTimeout bounds a wait for a deployment when no
// timeout is set. A Mintlify deployment takes minutes; half an hour is far
// beyond a normal build, yet short enough that a stuck one fails the CI job
// that waits for it instead of holding it for hours.
const defaultDeploymentWaitTimeout = 30 * time.Minute

// deploymentType is the resource's type name, for advice.
const deploymentType = "mintlify_deployment"

// failureLogLines is how many of a failed deployment's last log lines its
// diagnostic shows.
const failureLogLines = 10

// deploymentWait is one caller's wait for a deployment; its onChange hears
// of each new status or log line of the deployment, and nil logs it at INFO
// (LogDeploymentStatus).
type deploymentWait = jobWait[mintlify.Deployment]

// waitForDeployment waits for a deployment until it is no longer queued
// or in progress. It returns the deployment as last seen (nil if it was
// never read), even with an error diagnostic: a wait that ended before the
// deployment did, or a deployment that ended in `failure` when w says what
// to do about one. `failure` is a status like the others here, never an
// error of the client.
func waitForDeployment(ctx context.Context, client *mintlify.Client, projectID, statusID string, w deploymentWait) (*mintlify.Deployment, diag.Diagnostics) {
	onChange := w.onChange
	if onChange == nil {
		onChange = logDeploymentStatus(ctx)
	}
	d, err := client.WaitForDeployment(ctx, statusID, mintlify.OnChange(onChange))
	if mintlify.IsJobFailed(err) {
		err = nil // the deployment's status says it
	}
	switch {
	case err != nil:
		return d, diag.Diagnostics{deploymentWaitDiagnostic(err, getDeploymentOp(projectID, statusID).at(w.attr), d, w)}
	case d.Status == mintlify.DeployStatusFailure && w.failed != "":
		return d, diag.Diagnostics{deploymentFailedDiagnostic(projectID, d, w.failed)}
	}
	return d, nil
}

// deploymentWaitDiagnostic explains why waiting for a deployment ended
// before the deployment did. last is the deployment as last seen, nil if it
// was never read.
func deploymentWaitDiagnostic(err error, op apiOperation, last *mintlify.Deployment, w deploymentWait) diag.Diagnostic {
	status := ""
	if last != nil {
		status = last.Status
	}
	job := waitedJob{name: deploymentName(op.jobID, op.projectID), stillRunning: "Deployment Still Running",
		interrupted: "Deployment Wait Interrupted", goesOn: "The deployment goes on on the Mintlify side."}
	return w.endedEarly(err, op, job, status)
}

// deploymentFailedDiagnostic reports a deployment that ended in `failure`,
// with its summary and its last log lines (each already one clean, capped
// line: the client cleans every text of the API); next says what to do.
func deploymentFailedDiagnostic(projectID string, d *mintlify.Deployment, next string) diag.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "The Mintlify %s failed", deploymentName(d.ID, projectID))
	if d.Summary != "" {
		fmt.Fprintf(&b, ": %s", d.Summary)
	}
	b.WriteString(".")
	if d.Commit.SHA != "" {
		fmt.Fprintf(&b, " It deployed commit %s.", d.Commit.SHA)
	}
	logs := d.Logs
	switch {
	case len(logs) == 0:
		b.WriteString(" The deployment wrote no log lines; the Mintlify dashboard may show more.")
	case len(logs) > failureLogLines:
		fmt.Fprintf(&b, "\n\nIts last %d log lines (%d earlier lines left out; the Mintlify dashboard shows them "+
			"all):\n", failureLogLines, len(logs)-failureLogLines)
		logs = logs[len(logs)-failureLogLines:]
	default:
		b.WriteString("\n\nIts log:\n")
	}
	for _, line := range logs {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	return diag.NewErrorDiagnostic("Deployment Failed", strings.TrimRight(b.String(), "\n")+"\n\n"+next)
}
