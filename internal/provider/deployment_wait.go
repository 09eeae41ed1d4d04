package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

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

// deploymentWait is one caller's wait for a deployment: what bounds it,
// where a diagnostic about the deployment points, and what to do next in
// each way the wait can end other than with the deployment done.
type deploymentWait struct {
	budget waitBudget
	// attr is the attribute that names the deployment, which a diagnostic
	// about it (404) points at; empty for none.
	attr path.Path
	// resume is what to do when the wait ends before the deployment does:
	// a timeout or an interruption.
	resume string
	// retry is what to do after a status request failed, beside the
	// request's own advice; empty for none.
	retry string
	// unknown is what to do about a deployment in a status nobody knows.
	unknown string
	// failed is what to do about a deployment that failed; empty when a
	// failed deployment is read like any other, without a diagnostic.
	failed string
	// onChange hears of each new status or log line of the deployment; nil
	// logs it at INFO (LogDeploymentStatus).
	onChange func(mintlify.Deployment)
}

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
// before the deployment did: the timeout, an interruption, or a request
// that failed. last is the deployment as last seen, nil if never read.
func deploymentWaitDiagnostic(err error, op apiOperation, last *mintlify.Deployment, w deploymentWait) diag.Diagnostic {
	seen := "before its status was read"
	if last != nil {
		seen = fmt.Sprintf("`%s`", last.Status)
	}
	const runsOn = "The deployment goes on on the Mintlify side."
	switch {
	case errors.Is(err, context.DeadlineExceeded) && !isRetryDeadline(err):
		return diag.NewErrorDiagnostic("Deployment Still Running",
			fmt.Sprintf("The Mintlify %s did not finish within %s; it was %s. %s\n\n%s",
				deploymentName(op.jobID, op.projectID), w.budget, seen, runsOn, w.resume))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Deployment Wait Interrupted",
			fmt.Sprintf("Terraform was interrupted while waiting for the Mintlify %s; it was %s. %s\n\n%s",
				deploymentName(op.jobID, op.projectID), seen, runsOn, w.resume))
	}
	d := op.within(w.budget).diagnostic(err)
	next := w.retry
	if unknown := (*mintlify.UnknownStatusError)(nil); errors.As(err, &unknown) {
		next = w.unknown
	}
	if next == "" {
		return d
	}
	withNext := diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+next)
	if pointed, ok := d.(diag.DiagnosticWithPath); ok {
		return diag.WithPath(pointed.Path(), withNext)
	}
	return withNext
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
