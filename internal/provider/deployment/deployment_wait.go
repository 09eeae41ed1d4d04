package deployment

import (
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The resource's waits for its deployment: after the create that
// triggered it (or took it over, see deploymentHandoffs), and in an update
// that resumes waiting for the deployment in state (see core.PlanResume).

// deploymentWaitOnCreate is the wait of a create, which Terraform taints
// when it fails.
func deploymentWaitOnCreate(b core.WaitBudget) deploymentWait {
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
func deploymentWaitOnResume(b core.WaitBudget) deploymentWait {
	resume := "The deployment stays in state. Apply again to keep waiting for it; no new deployment is " +
		"triggered."
	return deploymentWaitLonger(b, "deployments", resume,
		"The state records the deployment with this status; no new deployment is triggered by itself.",
		"The state records the failed deployment, and no new deployment is triggered by itself. To deploy "+
			"again, fix the cause in the docs repository, then change `triggers`, or run `terraform apply -replace=` "+
			"with the resource's address, shown above after `with`.")
}

// deploymentWaitLonger is the wait of a resource's operation, whose advice
// after a failed status request is the same as after a timeout or an
// interruption (resume): apply again; after a timeout (never after an
// interrupt) it advises raising b; what names the jobs ("deployments",
// "previews").
func deploymentWaitLonger(b core.WaitBudget, what, resume, unknown, failed string) deploymentWait {
	return deploymentWait{Budget: b, Resume: resume, Retry: resume, Unknown: unknown, Failed: failed,
		Longer: takesLonger(b, what)}
}

// takesLonger advises raising b when what usually needs longer.
func takesLonger(b core.WaitBudget, what string) string {
	return "If " + what + " usually take this long, " + b.Raise() + "."
}
