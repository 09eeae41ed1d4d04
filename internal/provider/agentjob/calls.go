package agentjob

import (
	"fmt"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The agent job calls, under the job's project.

var (
	callCreateAgentJob = core.APICall{OperationID: "createAgentJob", Text: agentJobCall.OnForbidden(core.WriteRefused).InProject().
				OnBadRequest(promptRejected).Starting("No agent job was started.", agentJobMayHaveStarted)}
	callGetAgentJob         = core.APICall{OperationID: "getAgentJob", Text: agentJobCall}
	callSendAgentJobMessage = core.APICall{OperationID: "sendAgentJobMessage", Text: agentJobCall.OnBadRequest(promptRejected).
				OnForbidden(core.WriteRefused).Starting("The follow-up message was not sent.", followUpMayHaveBeenSent)}
)

// agentJobCall is the text of a GET of an agent job.
var agentJobCall = core.CallOfProject.WhenNotFound("Agent Job Not Found", missingAgentJob,
	"Check the job ID, and that the job belongs to this project.")

// CreateAgentJobOp is "Create agent job" in a project.
func CreateAgentJobOp(projectID string) core.APIOperation {
	return core.APIOperation{Call: callCreateAgentJob, ProjectID: projectID,
		Doing: fmt.Sprintf("starting an agent job in project %s", projectID)}
}

// GetAgentJobOp is "Get agent job".
func GetAgentJobOp(projectID, id string) core.APIOperation {
	return core.APIOperation{Call: callGetAgentJob, ProjectID: projectID, JobID: id,
		Doing: fmt.Sprintf("reading agent job %s in project %s", id, projectID)}
}

// SendAgentJobMessageOp is "Send follow-up message" to an agent job.
func SendAgentJobMessageOp(projectID, id string) core.APIOperation {
	return core.APIOperation{Call: callSendAgentJobMessage, ProjectID: projectID, JobID: id,
		Doing: fmt.Sprintf("sending a follow-up message to agent job %s in project %s", id, projectID)}
}

func missingAgentJob(op core.APIOperation) string {
	return fmt.Sprintf("it has no agent job %q in project %q", op.JobID, op.ProjectID)
}

func promptRejected(op core.APIOperation, f mintlify.Fault) (summary, detail string) {
	return "Mintlify Rejected The Prompt",
		fmt.Sprintf("The Mintlify API rejected the prompt while %s (HTTP 400: %s). Correct `prompt` and try "+
			"again.", op.Doing, core.APIMessage(f))
}

func agentJobMayHaveStarted(op core.APIOperation) (summary, next string) {
	return "Agent Job May Have Started", fmt.Sprintf("The request reached the Mintlify API but no definite "+
		"answer came back, so an agent job may have started in project %s; its id is unknown. The provider did "+
		"not retry, because a retry could start a second agent job and open a second pull request, and nothing "+
		"was saved in state. Check the agent jobs of project %s in the Mintlify dashboard: applying again starts "+
		"a new job.", op.ProjectID, op.ProjectID)
}

func followUpMayHaveBeenSent(op core.APIOperation) (summary, next string) {
	return "Follow-Up Message May Have Been Sent", fmt.Sprintf("The follow-up message reached the Mintlify API "+
		"but no definite answer came back, so agent job %s may be working on it. The provider did not send it "+
		"again, because the agent would get the prompt twice. Read the job (the `mintlify_agent_job` data "+
		"source, or the Mintlify dashboard) before you send it again.", op.JobID)
}
