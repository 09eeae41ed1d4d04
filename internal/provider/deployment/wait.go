package deployment

import (
	"time"

	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// defaultDeploymentWaitTimeout bounds a wait for a deployment (or a
// preview) when no timeout is set. A Mintlify deployment takes minutes;
// half an hour is far beyond a normal build, yet short enough that a stuck
// one fails the CI job that waits for it instead of holding it for hours.
const defaultDeploymentWaitTimeout = 30 * time.Minute

// The one wait for a deployment, which the resource, the data source and
// the action share. Each says, in a deploymentWait, what bounds its wait
// and what the person at the terminal should do next when it ends early.

// deploymentType is the resource's type name, for advice.
const deploymentType = "mintlify_deployment"

// failureLogLines is how many of a failed deployment's last log lines its
// diagnostic shows.
const failureLogLines = 10

// deploymentWait is one caller's wait for a deployment; its OnChange hears
// of each new status or log line of the deployment, and nil logs it at INFO
// (LogDeploymentStatus).
type deploymentWait = core.JobWait[mintlify.Deployment]

// deploymentJob is how a wait for a deployment (or a preview) ends and names
// it (core.JobWait.Ended); waitForDeployment polls the deployment itself.
var deploymentJob = core.JobKind[mintlify.Deployment]{
	Status:  func(d *mintlify.Deployment) string { return d.Status },
	Failure: mintlify.DeployStatusFailure,
	Read:    GetDeploymentOp,
	Describe: func(op core.APIOperation) core.WaitedJob {
		return core.WaitedJob{Name: deploymentName(op.JobID, op.ProjectID), StillRunning: "Deployment Still Running",
			Interrupted: "Deployment Wait Interrupted", GoesOn: "The deployment goes on on the Mintlify side."}
	},
	Failed: deploymentFailedDiagnostic,
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

// waitForDeployment waits for a deployment until it is no longer queued or
// in progress, timing its status requests by f, and tells each change to
// w.OnChange (nil logs it at INFO); core.JobWait.Ended explains an early end
// or a failure.
func waitForDeployment(ctx context.Context, client *mintlify.Client, projectID, statusID string, w deploymentWait, f foretold) (*mintlify.Deployment, diag.Diagnostics) {
	heard := w.Heard(logDeploymentStatus(ctx))
	d, err := client.WaitForDeployment(ctx, statusID, mintlify.OnChange(heard), f.option())
	return d, w.Ended(deploymentJob, projectID, statusID, d, err)
}
