package provider

import "fmt"

// The deployment calls, under the deployment's project.

var (
	callTriggerDeployment = apiCall{"triggerDeployment", deploymentCall.onForbidden(writeRefused).inProject().
				starting("No deployment was started.", deploymentMayHaveStarted)}
	callGetDeployment = apiCall{"getDeploymentStatus", deploymentCall}
)

// deploymentCall is the text of a GET of a deployment's status.
var deploymentCall = callOfProject.whenNotFound("Deployment Not Found", missingDeployment,
	"Check the status ID (the `statusId` that triggering the deployment answered), and that the API key belongs "+
		"to the organization of its project.")

// triggerDeploymentOp is "Trigger update" of a project's deployment branch.
func triggerDeploymentOp(projectID string) apiOperation {
	return apiOperation{call: callTriggerDeployment, projectID: projectID,
		doing: fmt.Sprintf("triggering a deployment of project %s", projectID)}
}

// getDeploymentOp is "Get deployment status".
func getDeploymentOp(projectID, statusID string) apiOperation {
	return apiOperation{call: callGetDeployment, projectID: projectID, jobID: statusID,
		doing: "reading " + deploymentName(statusID, projectID)}
}

// deploymentName names a deployment, with its project when known.
func deploymentName(statusID, projectID string) string {
	if projectID == "" {
		return "deployment " + statusID
	}
	return fmt.Sprintf("deployment %s of project %s", statusID, projectID)
}

func missingDeployment(op apiOperation) string {
	return fmt.Sprintf("it has no deployment status %q", op.jobID)
}

func deploymentMayHaveStarted(op apiOperation) (summary, next string) {
	return "Deployment May Have Started", fmt.Sprintf("The request reached the Mintlify API but no definite "+
		"answer came back, so a deployment of project %s may have started; its status id is unknown. The provider "+
		"did not retry, because a retry could deploy twice, and nothing was saved in state. Check the deployments "+
		"of project %s in the Mintlify dashboard: applying again triggers a new deployment.", op.projectID, op.projectID)
}
