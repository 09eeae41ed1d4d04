package deployment

import (
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The resource's waits for its deployment: after the create that
// triggered it (or took it over, see deploymentHandoffs), and in an update
// that resumes waiting for the deployment in state (see planResume).

// deploymentWaitOnCreate is the wait of a create, which Terraform taints
// when it fails.
func deploymentWaitOnCreate(timeout time.Duration) deploymentWait {
	b := core.Budget("timeouts.create", timeout)
	resume := "The resource is tainted but keeps the deployment. Run `terraform apply` again: the plan shows the " +
		"resource replaced, and while the deployment still runs, the replacement waits for this same deployment " +
		"instead of triggering another (as long as `project_id` and `triggers` stay the same, and without " +
		"`create_before_destroy`)."
	return deploymentWaitLonger(b, "deployments", resume,
		resume+" To trigger a new deployment instead, change `triggers`.",
		"The resource is tainted and keeps the failed deployment: the next apply replaces it, which "+
			"triggers a new deployment of the deployment branch's latest commit, so fix the cause in the docs "+
			"repository first. To keep the failed deployment in state instead, run `terraform untaint` with the "+
			"resource's address, shown above after `with`.")
}

// deploymentWaitOnResume is the wait of an update that resumes waiting for
// the deployment in state, which stays there whatever happens.
func deploymentWaitOnResume(timeout time.Duration) deploymentWait {
	b := core.Budget("timeouts.create", timeout)
	resume := "The deployment stays in state. Apply again to keep waiting for it; no new deployment is " +
		"triggered."
	return deploymentWaitLonger(b, "deployments", resume,
		"The state records the deployment with this status; no new deployment is triggered by itself.",
		"The state records the failed deployment, and no new deployment is triggered by itself. To deploy "+
			"again, fix the cause in the docs repository, then change `triggers`, or run `terraform apply -replace=` "+
			"with the resource's address, shown above after `with`.")
}

// deploymentWaitLonger is core.ResourceWait, with the advice to raise b
// after a timeout (never after an interrupt); what names the jobs
// ("deployments", "previews").
func deploymentWaitLonger(b core.WaitBudget, what, resume, unknown, failed string) deploymentWait {
	w := core.ResourceWait[mintlify.Deployment](b, resume, unknown, failed)
	w.Longer = takesLonger(b, what)
	return w
}

// takesLonger advises raising b when what usually needs longer.
func takesLonger(b core.WaitBudget, what string) string {
	return "If " + what + " usually take this long, " + b.Raise() + "."
}
