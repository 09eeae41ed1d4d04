package provider

import "fmt"

// The agent job calls, under the job's project.

var (
	callCreateAgentJob = apiCall{"createAgentJob", agentJobCall.onForbidden(writeRefused).inProject().
				onBadRequest(promptRejected).starting("No agent job was started.", agentJobMayHaveStarted)}
	callGetAgentJob         = apiCall{"getAgentJob", agentJobCall}
	callSendAgentJobMessage = apiCall{"sendAgentJobMessage", agentJobCall.onBadRequest(promptRejected).
				onForbidden(writeRefused).starting("The follow-up message was not sent.", followUpMayHaveBeenSent)}
)

// agentJobCall is the text of a GET of an agent job.
var agentJobCall = callOfProject.whenNotFound("Agent Job Not Found", missingAgentJob,
	"Check the job ID, and that the job belongs to this project.")

// createAgentJobOp is "Create agent job" in a project.
func createAgentJobOp(projectID string) apiOperation {
	return apiOperation{call: callCreateAgentJob, projectID: projectID,
		doing: fmt.Sprintf("starting an agent job in project %s", projectID)}
}

// getAgentJobOp is "Get agent job".
func getAgentJobOp(projectID, id string) apiOperation {
	return apiOperation{call: callGetAgentJob, projectID: projectID, jobID: id,
		doing: fmt.Sprintf("reading agent job %s in project %s", id, projectID)}
}

// sendAgentJobMessageOp is "Send follow-up message" to an agent job.
func sendAgentJobMessageOp(projectID, id string) apiOperation {
	return apiOperation{call: callSendAgentJobMessage, projectID: projectID, jobID: id,
		doing: fmt.Sprintf("sending a follow-up message to agent job %s in project %s", id, projectID)}
}

func missingAgentJob(op apiOperation) string {
	return fmt.Sprintf("it has no agent job %q in project %q", op.jobID, op.projectID)
}

func promptRejected(op apiOperation, err error) (summary, detail string) {
	return "Mintlify Rejected The Prompt",
		fmt.Sprintf("The Mintlify API rejected the prompt while %s (HTTP 400: %s). Correct `prompt` and try "+
			"again.", op.doing, apiMessage(err))
}

func agentJobMayHaveStarted(op apiOperation) (summary, next string) {
	return "Agent Job May Have Started", fmt.Sprintf("The request reached the Mintlify API but no definite "+
		"answer came back, so an agent job may have started in project %s; its id is unknown. The provider did "+
		"not retry, because a retry could start a second agent job and open a second pull request, and nothing "+
		"was saved in state. Check the agent jobs of project %s in the Mintlify dashboard: applying again starts "+
		"a new job.", op.projectID, op.projectID)
}

func followUpMayHaveBeenSent(op apiOperation) (summary, next string) {
	return "Follow-Up Message May Have Been Sent", fmt.Sprintf("The follow-up message reached the Mintlify API "+
		"but no definite answer came back, so agent job %s may be working on it. The provider did not send it "+
		"again, because the agent would get the prompt twice. Read the job (the `mintlify_agent_job` data "+
		"source, or the Mintlify dashboard) before you send it again.", op.jobID)
}
