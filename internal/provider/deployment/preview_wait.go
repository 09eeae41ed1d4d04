package deployment

import (
	"fmt"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// What the preview's calls and waits say: its trigger (403 names previews
// not on the plan), and what to do when a wait for its deployment ends
// early or on a failure.

// TriggerPreviewOp is "Trigger preview deployment" of a branch.
func TriggerPreviewOp(projectID, branch string) core.APIOperation {
	return core.APIOperation{Call: CallTriggerPreview, ProjectID: projectID,
		Doing: fmt.Sprintf("deploying the preview of branch %q of project %s", branch, projectID)}
}

// causePreviewsNotOnPlan is the 403 the API documents for "Trigger preview
// deployment", named first among its causes (CallTriggerPreview).
var causePreviewsNotOnPlan = core.NotOnPlan("Previews Not On The Mintlify Plan",
	"preview deployments are not on the Mintlify plan of the organization of the API key",
	"Upgrade the plan on the Mintlify dashboard, or contact Mintlify, then apply again.")

var CallTriggerPreview = core.APICall{OperationID: "triggerPreviewDeployment", Text: core.CallText{
	// Previews not on the plan is the 403 the API documents for this call:
	// the most likely cause, so the first.
	Forbidden:  core.Refusals{Possible: []core.RefusalCause{causePreviewsNotOnPlan}}.Or(core.WriteRefused.Possible...),
	BadRequest: branchRejected,
	Conflict:   core.CallOfProject.Conflict,
	NotStarted: "No preview was deployed.",
	MayHaveStarted: func(op core.APIOperation) (summary, next string) {
		return "Preview Deployment May Have Started", "The request reached the Mintlify API but no definite " +
			"answer came back, so the preview may be deploying; its status id is unknown. The provider did not " +
			"retry, and nothing new was saved in state. Applying again deploys the preview again, which Mintlify " +
			"does in place: the branch never gets a second preview."
	},
}.InProject()}

func branchRejected(op core.APIOperation, f mintlify.Fault) (summary, detail string) {
	return "Mintlify Rejected The Preview",
		fmt.Sprintf("The Mintlify API rejected the request while %s (HTTP 400: %s). Check `branch`: it must name "+
			"a branch of the docs repository connected to the project.", op.Doing, core.APIMessage(f))
}

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
