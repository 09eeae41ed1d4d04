package provider

import (
	"fmt"
	"net/http"
)

// apiCall names one documented operation of the Mintlify API, by its
// operationId in the API's description (mintlify.openapi.yaml).
type apiCall string

const (
	callStartStaticExport   apiCall = "startStaticExportJob"
	callGetStaticExportJob  apiCall = "getStaticExportJob"
	callGenerateBundle      apiCall = "generateStaticExportBundle"
	callCreateAgentJob      apiCall = "createAgentJob"
	callGetAgentJob         apiCall = "getAgentJob"
	callSendAgentJobMessage apiCall = "sendAgentJobMessage"
	callTriggerPreview      apiCall = "triggerPreviewDeployment"
	callTriggerAutomation   apiCall = "triggerAutomation"
	callTriggerDeployment   apiCall = "triggerDeployment"
	callGetDeployment       apiCall = "getDeploymentStatus"
)

// isStaticExport reports whether the call is one of the static export
// operations, which the API refuses with 403 when the organization has no
// static export.
func (c apiCall) isStaticExport() bool {
	return c == callStartStaticExport || c == callGetStaticExportJob || c == callGenerateBundle
}

// callText is what the diagnostics of one call say where calls differ:
// what a 400, 403, 404 or 409 means for it, and, for a call that starts
// something (an export, an agent job, the agent's work on a follow-up),
// what a refused or unanswered start means.
type callText struct {
	// notFound is the summary of a 404; missing says what the API lacks
	// ("it has no static export job …"), nil when the 404 names nothing.
	notFound       string
	missing        func(op apiOperation) string
	notFoundAdvice string
	// forbidden are the causes of a 403 (diagnostic_refusals.go).
	forbidden  refusals
	badRequest func(op apiOperation, err error) (summary, detail string)
	conflict   func(op apiOperation, err error) (summary, detail string)
	// notStarted says what a start the API certainly refused did not do;
	// "" for a call that starts nothing.
	notStarted string
	// mayHaveStarted is the summary, and what to do, when a start got no
	// definite answer.
	mayHaveStarted func(op apiOperation) (summary, next string)
}

// callTexts holds the text of every call: a static export call speaks of
// the organization's plan, an agent job call of its project. A 403 names
// the causes possible for the call's method (readRefused for a GET,
// writeRefused for a POST) and the call's feature: a preview deployment
// names previews not on the plan first (triggerPreviewCall).
var callTexts = map[apiCall]callText{
	callStartStaticExport: staticExportCall.
		whenNotFound("Mintlify API Endpoint Not Found", nil, baseURLAdvice).
		onForbidden(writeRefused.or(causeStaticExportNotEnabled)).
		starting("No static export job was started.", exportMayHaveStarted),
	callGetStaticExportJob: staticExportCall,
	callGenerateBundle: staticExportCall.onConflict(exportNotFinished).
		onForbidden(writeRefused.orIfNamed(causeStaticExportNotEnabled)),
	callCreateAgentJob: agentJobCall.onForbidden(writeRefused).
		whenNotFound("Mintlify Project Not Found", missingProject, fmt.Sprintf("Check the project ID (`project_id` "+
			"here, or the provider's `project_id` or `%s`): copy it from the API keys page of the Mintlify dashboard. "+
			"If every request answers 404, check that `base_url` is the root of the Mintlify API.", envProjectID)).
		onBadRequest(promptRejected).
		starting("No agent job was started.", agentJobMayHaveStarted),
	callGetAgentJob: agentJobCall,
	callSendAgentJobMessage: agentJobCall.onBadRequest(promptRejected).onForbidden(writeRefused).
		starting("The follow-up message was not sent.", followUpMayHaveBeenSent),
	callTriggerPreview:    triggerPreviewCall,
	callTriggerAutomation: triggerAutomationCall,
	callTriggerDeployment: deploymentCall.onForbidden(writeRefused).
		whenNotFound("Mintlify Project Not Found", missingProject, fmt.Sprintf("Check the project ID (`project_id` "+
			"here, or the provider's `project_id` or `%s`): copy it from the API keys page of the Mintlify dashboard. "+
			"If every request answers 404, check that `base_url` is the root of the Mintlify API.", envProjectID)).
		starting("No deployment was started.", deploymentMayHaveStarted),
	callGetDeployment: deploymentCall,
}

// staticExportCall and agentJobCall are the text of a GET of a job of each
// kind; callTexts varies them. A static export call names static export
// not enabled as the cause of a 403 when the answer says so: the API
// documents it for the start only.
var (
	staticExportCall = callText{
		notFound: "Static Export Job Not Found", missing: missingExportJob, notFoundAdvice: checkJobIDAdvice,
		forbidden: readRefused.orIfNamed(causeStaticExportNotEnabled), badRequest: requestRejected, conflict: apiConflict,
	}
	agentJobCall = callText{
		notFound: "Agent Job Not Found", missing: missingAgentJob, notFoundAdvice: checkAgentJobAdvice,
		forbidden: readRefused, badRequest: requestRejected, conflict: apiConflict,
	}
	deploymentCall = callText{
		notFound: "Deployment Not Found", missing: missingDeployment, notFoundAdvice: checkDeploymentAdvice,
		forbidden: readRefused, badRequest: requestRejected, conflict: apiConflict,
	}
)

func (t callText) whenNotFound(summary string, missing func(op apiOperation) string, advice string) callText {
	t.notFound, t.missing, t.notFoundAdvice = summary, missing, advice
	return t
}

func (t callText) onForbidden(r refusals) callText {
	t.forbidden = r
	return t
}

func (t callText) onBadRequest(f func(op apiOperation, err error) (summary, detail string)) callText {
	t.badRequest = f
	return t
}

func (t callText) onConflict(f func(op apiOperation, err error) (summary, detail string)) callText {
	t.conflict = f
	return t
}

func (t callText) starting(notStarted string, mayHaveStarted func(op apiOperation) (summary, next string)) callText {
	t.notStarted, t.mayHaveStarted = notStarted, mayHaveStarted
	return t
}

const (
	baseURLAdvice    = "Check that the provider's `base_url` is the root of the Mintlify API."
	checkJobIDAdvice = "Check the job ID. If every request answers 404, check that `base_url` is the root of the " +
		"Mintlify API."
	checkAgentJobAdvice   = "Check the job ID, and that the job belongs to this project."
	checkDeploymentAdvice = "Check the status ID (the `statusId` that triggering the deployment answered), and that " +
		"the API key belongs to the organization of its project."
)

func missingExportJob(op apiOperation) string {
	return fmt.Sprintf("it has no static export job %q, at least not for the organization of the API key", op.jobID)
}

func missingAgentJob(op apiOperation) string {
	return fmt.Sprintf("it has no agent job %q in project %q", op.jobID, op.projectID)
}

func missingDeployment(op apiOperation) string {
	return fmt.Sprintf("it has no deployment status %q", op.jobID)
}

func missingProject(op apiOperation) string { return fmt.Sprintf("it has no project %q", op.projectID) }

func requestRejected(op apiOperation, err error) (summary, detail string) {
	return "Mintlify Rejected The Request",
		fmt.Sprintf("The Mintlify API rejected the request while %s (HTTP 400: %s). Correct the argument "+
			"the message names and apply again.", op.doing, apiMessage(err))
}

func promptRejected(op apiOperation, err error) (summary, detail string) {
	return "Mintlify Rejected The Prompt",
		fmt.Sprintf("The Mintlify API rejected the prompt while %s (HTTP 400: %s). Correct `prompt` and try "+
			"again.", op.doing, apiMessage(err))
}

// exportNotFinished explains a 409 of a bundle link: a job that has not
// completed.
func exportNotFinished(op apiOperation, err error) (summary, detail string) {
	return "Static Export Not Finished",
		fmt.Sprintf("The Mintlify API answered that static export job %s has not completed, so no link can be "+
			"generated for it yet (HTTP 409: %s). %s", op.jobID, apiMessage(err),
			op.advice(http.StatusConflict, "Apply again once the job completes."))
}

// apiConflict explains any other 409, in the API's own words.
func apiConflict(op apiOperation, err error) (summary, detail string) {
	return "Mintlify API Conflict",
		fmt.Sprintf("The Mintlify API answered HTTP 409 while %s: %s. %s", op.doing, apiMessage(err),
			op.advice(http.StatusConflict, "Apply again once the operation the message names has finished."))
}

func exportMayHaveStarted(apiOperation) (summary, next string) {
	return "Static Export May Have Started", "The start request reached the Mintlify API but no definite answer " +
		"came back, so a static export job may have started; its id is unknown. The provider did not retry, because " +
		"a retry could start a second export, and nothing was saved in state. Apply again to start a new export: a " +
		"job started by the lost request finishes on its own and is never used."
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

func deploymentMayHaveStarted(op apiOperation) (summary, next string) {
	return "Deployment May Have Started", fmt.Sprintf("The request reached the Mintlify API but no definite "+
		"answer came back, so a deployment of project %s may have started; its status id is unknown. The provider "+
		"did not retry, because a retry could deploy twice, and nothing was saved in state. Check the deployments "+
		"of project %s in the Mintlify dashboard: applying again triggers a new deployment.", op.projectID, op.projectID)
}
