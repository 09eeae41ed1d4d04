package provider

import (
	"fmt"
	"net/http"
)

// The static export calls: a static export call speaks of the
// organization's plan. It names static export not enabled as the cause of
// a 403 when the answer says so: the API documents it for the start only.

var (
	callStartStaticExport = apiCall{"startStaticExportJob", staticExportCall.
				whenNotFound("Mintlify API Endpoint Not Found", nil, baseURLAdvice).
				onForbidden(writeRefused.or(causeStaticExportNotEnabled)).
				starting("No static export job was started.", exportMayHaveStarted)}
	callGetStaticExportJob = apiCall{"getStaticExportJob", staticExportCall}
	callGenerateBundle     = apiCall{"generateStaticExportBundle", staticExportCall.onConflict(exportNotFinished).
				onForbidden(writeRefused.orIfNamed(causeStaticExportNotEnabled))}
)

// staticExportCall is the text of a GET of a static export job.
var staticExportCall = callText{
	notFound: "Static Export Job Not Found", missing: missingExportJob, notFoundAdvice: checkJobIDAdvice,
	forbidden: readRefused.orIfNamed(causeStaticExportNotEnabled), badRequest: requestRejected, conflict: apiConflict,
}

const (
	baseURLAdvice    = "Check that the provider's `base_url` is the root of the Mintlify API."
	checkJobIDAdvice = "Check the job ID. If every request answers 404, check that `base_url` is the root of the " +
		"Mintlify API."
)

// startStaticExportOp is "Start static export job" for a domain.
func startStaticExportOp(domain string) apiOperation {
	return apiOperation{call: callStartStaticExport, doing: fmt.Sprintf("starting the static export of %s", domain)}
}

// getStaticExportJobOp is "Get static export job status".
func getStaticExportJobOp(jobID string) apiOperation {
	return apiOperation{call: callGetStaticExportJob, jobID: jobID, doing: fmt.Sprintf("reading static export job %s", jobID)}
}

// generateBundleOp is "Generate bundle" for a job.
func generateBundleOp(jobID string) apiOperation {
	return apiOperation{call: callGenerateBundle, jobID: jobID,
		doing: fmt.Sprintf("generating the bundle link of static export job %s", jobID)}
}

func missingExportJob(op apiOperation) string {
	return fmt.Sprintf("it has no static export job %q, at least not for the organization of the API key", op.jobID)
}

// exportNotFinished explains a 409 of a bundle link: a job that has not
// completed.
func exportNotFinished(op apiOperation, err error) (summary, detail string) {
	return "Static Export Not Finished",
		fmt.Sprintf("The Mintlify API answered that static export job %s has not completed, so no link can be "+
			"generated for it yet (HTTP 409: %s). %s", op.jobID, apiMessage(err),
			op.advice(http.StatusConflict, "Apply again once the job completes."))
}

func exportMayHaveStarted(apiOperation) (summary, next string) {
	return "Static Export May Have Started", "The start request reached the Mintlify API but no definite answer " +
		"came back, so a static export job may have started; its id is unknown. The provider did not retry, because " +
		"a retry could start a second export, and nothing was saved in state. Apply again to start a new export: a " +
		"job started by the lost request finishes on its own and is never used."
}
