package deployment

import (
	"fmt"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The deployment calls, under the deployment's project.

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
