package deployment

import (
	"fmt"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The deployment calls, under the deployment's project, and the preview's
// trigger (whose 403 names previews not on the plan).

var (
	callTriggerDeployment = core.APICall{OperationID: "triggerDeployment", Text: deploymentCall.OnForbidden(core.WriteRefused).InProject().
				Starting("No deployment was started.", deploymentMayHaveStarted)}
	callGetDeployment = core.APICall{OperationID: "getDeploymentStatus", Text: deploymentCall}
)

// deploymentCall is the text of a GET of a deployment's status.
var deploymentCall = core.CallOfProject.WhenNotFound("Deployment Not Found", missingDeployment,
	"Check the status ID (the `statusId` that triggering the deployment answered), and that the API key belongs "+
		"to the organization of its project.")

// TriggerDeploymentOp is "Trigger update" of a project's deployment branch.
func TriggerDeploymentOp(projectID string) core.APIOperation {
	return core.APIOperation{Call: callTriggerDeployment, ProjectID: projectID,
		Doing: fmt.Sprintf("triggering a deployment of project %s", projectID)}
}

// GetDeploymentOp is "Get deployment status".
func GetDeploymentOp(projectID, statusID string) core.APIOperation {
	return core.APIOperation{Call: callGetDeployment, ProjectID: projectID, JobID: statusID,
		Doing: "reading " + deploymentName(statusID, projectID)}
}

// deploymentName names a deployment, with its project when known.
func deploymentName(statusID, projectID string) string {
	if projectID == "" {
		return "deployment " + statusID
	}
	return fmt.Sprintf("deployment %s of project %s", statusID, projectID)
}

func missingDeployment(op core.APIOperation) string {
	return fmt.Sprintf("it has no deployment status %q", op.JobID)
}

func deploymentMayHaveStarted(op core.APIOperation) (summary, next string) {
	return "Deployment May Have Started", fmt.Sprintf("The request reached the Mintlify API but no definite "+
		"answer came back, so a deployment of project %s may have started; its status id is unknown. The provider "+
		"did not retry, because a retry could deploy twice, and nothing was saved in state. Check the deployments "+
		"of project %s in the Mintlify dashboard: applying again triggers a new deployment.", op.ProjectID, op.ProjectID)
}

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
