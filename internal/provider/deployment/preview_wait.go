package deployment

import "github.com/mintlify/terraform-provider-mintlify/internal/provider/core"

// What the preview's waits say: what to do when a wait for its deployment
// ends early or on a failure (its trigger's texts: calls.go).

// previewWaitOnCreate is the wait of a create, which Terraform taints when
// it fails. The next apply replaces the resource: it waits for the same
// deployment while it runs (see deploymentHandoffs), and deploys the
// preview again, in place, once it failed.
func previewWaitOnCreate(b core.WaitBudget) deploymentWait {
	resume := "The resource is tainted but keeps the status id. Run `terraform apply` again: the plan shows the " +
		"resource replaced, and while the deployment still runs, the replacement waits for this same deployment " +
		"instead of deploying the preview again (as long as `branch`, `project_id` and `triggers` stay the same, " +
		"and without `create_before_destroy`)."
	return deploymentWaitLonger(b, "previews", resume,
		resume+" To deploy the preview again instead, change `triggers`.",
		"The resource is tainted and keeps the status id: fix what the log shows, push the fix to the "+
			"branch, and apply again, which deploys the preview again (in place, at the same address).")
}

// previewWaitOnUpdate is the wait of an update, which deployed the preview
// again or resumes waiting for its deployment; the state keeps the
// deployment whatever happens.
func previewWaitOnUpdate(b core.WaitBudget) deploymentWait {
	resume := "The state keeps this deployment. Apply again to keep waiting for it; nothing is deployed again."
	return deploymentWaitLonger(b, "previews", resume,
		"The state records the deployment with this status; nothing is deployed again by itself.",
		"The state records the failed deployment, and nothing deploys the preview again by itself. Fix what "+
			"the log shows, push the fix to the branch, then change `triggers` (or run `terraform apply -replace=` "+
			"with the resource's address, shown above after `with`) to deploy it again.")
}
