package staticexport

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The static export calls: a static export call speaks of the
// organization's plan. It names static export not enabled as the cause of
// a 403 when the answer says so: the API documents it for the start only.

var (
	callStartStaticExport = core.APICall{OperationID: "startStaticExportJob", Text: staticExportCall.
				WhenNotFound("Mintlify API Endpoint Not Found", nil, baseURLAdvice).
				OnForbidden(core.WriteRefused.Or(causeStaticExportNotEnabled)).
				Starting("No static export job was started.", exportMayHaveStarted)}
	callGetStaticExportJob = core.APICall{OperationID: "getStaticExportJob", Text: staticExportCall}
	callGenerateBundle     = core.APICall{OperationID: "generateStaticExportBundle", Text: staticExportCall.OnConflict(exportNotFinished).
				OnForbidden(core.WriteRefused.OrIfNamed(causeStaticExportNotEnabled))}
)

// staticExportCall is the text of a GET of a static export job.
var staticExportCall = core.CallOfProject.WhenNotFound("Static Export Job Not Found", missingExportJob, checkJobIDAdvice).
	OnForbidden(core.CallOfProject.Forbidden.OrIfNamed(causeStaticExportNotEnabled))

// causeStaticExportNotEnabled is the 403 of an organization without static
// export, which the API's text names.
var causeStaticExportNotEnabled = core.NotOnPlan("Static Export Not Enabled",
	"static export is not enabled for the organization of the API key (it is available on Mintlify "+
		"Enterprise plans, as a private beta)",
	"Contact Mintlify to enable it, then apply again.")

const (
	baseURLAdvice    = "Check that the provider's `base_url` is the root of the Mintlify API."
	checkJobIDAdvice = "Check the job ID. If every request answers 404, check that `base_url` is the root of the " +
		"Mintlify API."
)

// StartStaticExportOp is "Start static export job" for a domain.
func StartStaticExportOp(domain string) core.APIOperation {
	return core.APIOperation{Call: callStartStaticExport, Doing: fmt.Sprintf("starting the static export of %s", domain)}
}

// GetStaticExportJobOp is "Get static export job status".
func GetStaticExportJobOp(jobID string) core.APIOperation {
	return core.APIOperation{Call: callGetStaticExportJob, JobID: jobID, Doing: fmt.Sprintf("reading static export job %s", jobID)}
}

// GenerateBundleOp is "Generate bundle" for a job.
func GenerateBundleOp(jobID string) core.APIOperation {
	return core.APIOperation{Call: callGenerateBundle, JobID: jobID,
		Doing: fmt.Sprintf("generating the bundle link of static export job %s", jobID)}
}

// RenewBundleOp is GenerateBundleOp renewing a link that expires at
// expiresAt (now is the provider's clock): a refusal says until when that
// link works.
func RenewBundleOp(jobID string, expiresAt, now time.Time) core.APIOperation {
	return GenerateBundleOp(jobID).Renewing(currentLink(jobID, expiresAt, now))
}

func missingExportJob(op core.APIOperation) string {
	return fmt.Sprintf("it has no static export job %q, at least not for the organization of the API key", op.JobID)
}

// exportNotFinished explains a 409 of a bundle link: a job that has not
// completed.
func exportNotFinished(op core.APIOperation, f mintlify.Fault) (summary, detail string) {
	return "Static Export Not Finished",
		fmt.Sprintf("The Mintlify API answered that static export job %s has not completed, so no link can be "+
			"generated for it yet (HTTP 409: %s). %s", op.JobID, core.APIMessage(f),
			op.Advice(http.StatusConflict, "Apply again once the job completes."))
}

func exportMayHaveStarted(core.APIOperation) (summary, next string) {
	return "Static Export May Have Started", "The start request reached the Mintlify API but no definite answer " +
		"came back, so a static export job may have started; its id is unknown. The provider did not retry, because " +
		"a retry could start a second export, and nothing was saved in state. Apply again to start a new export: a " +
		"job started by the lost request finishes on its own and is never used."
}
