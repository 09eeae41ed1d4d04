package staticexport

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

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

// The project-scoped static export calls (API.md, "Static export, the next
// contract"): a start and a status read under a project, whose refusals
// say more than today's: 409 another job active, 429 the hourly limit of
// starts, 401 and 403 the key, the plan or static export not enabled, 400
// the base path or the project id, 404 the project or the job.

var (
	callStartProjectExport = core.APICall{OperationID: "startProjectStaticExportJob", Text: core.CallOfProject.InProject().
				OnForbidden(core.WriteRefused.Or(causeStaticExportNotEnabled)).OnBadRequest(projectRequestRejected).
				OnConflict(anotherExportActive).
				Starting("No static export job was started.", exportMayHaveStarted)}
	callGetProjectExportJob = core.APICall{OperationID: "getProjectStaticExportJob", Text: core.CallOfProject.
				WhenNotFound("Static Export Job Not Found", missingProjectExportJob, checkJobIDAdvice).
				OnForbidden(core.CallOfProject.Forbidden.OrIfNamed(causeStaticExportNotEnabled)).OnBadRequest(projectRequestRejected)}
)

// StartProjectExportOp is "Start static export job" of a project.
func StartProjectExportOp(projectID string) core.APIOperation {
	return core.APIOperation{Call: callStartProjectExport, ProjectID: projectID, Attr: pathProjectID,
		Doing: fmt.Sprintf("starting the static export of project %s", projectID)}
}

// GetProjectExportJobOp is "Get static export job status" of a project.
func GetProjectExportJobOp(projectID, jobID string) core.APIOperation {
	return core.APIOperation{Call: callGetProjectExportJob, ProjectID: projectID, JobID: jobID,
		Doing: fmt.Sprintf("reading static export job %s of project %s", jobID, projectID)}
}

func missingProjectExportJob(op core.APIOperation) string {
	return fmt.Sprintf("project %s has no static export job %q, at least not for the organization of the API key",
		op.ProjectID, op.JobID)
}

// projectRequestRejected explains a 400: a base path or a project id the
// API does not take.
func projectRequestRejected(op core.APIOperation, f mintlify.Fault) (summary, detail string) {
	switch mintlify.ProjectExportProblemOf(f.Err) {
	case mintlify.ProblemBasePath:
		return "Unsupported Base Path", fmt.Sprintf("The Mintlify API rejected the `base_path` while %s (HTTP 400: %s). "+
			"Set `base_path` to one of %s, or remove it for the root.", op.Doing, core.APIMessage(f),
			strings.Join(basePathChoices, ", "))
	case mintlify.ProblemProjectID:
		return "Malformed Project ID", fmt.Sprintf("The Mintlify API rejected the project id %q while %s (HTTP 400: %s). "+
			"Copy the project ID from the API keys page of the Mintlify dashboard into `project_id`.", op.ProjectID,
			op.Doing, core.APIMessage(f))
	}
	return core.CallOfProject.BadRequest(op, f)
}

// anotherExportActive explains a 409 of a start that was waited for until
// the timeout: another job of the deployment is queued or running.
func anotherExportActive(op core.APIOperation, f mintlify.Fault) (summary, detail string) {
	return "Another Static Export Is Running",
		fmt.Sprintf("The Mintlify API refused a new export while %s: another static export job of the project's "+
			"deployment is queued or running, and the API runs one at a time (HTTP 409: %s). The provider waited "+
			"for it to end, repeating the start, until the timeout. No job was started. Apply again once the other "+
			"export has ended (another Terraform run, or the dashboard, may have started it), or raise "+
			"`timeouts.create` to wait longer.", op.Doing, core.APIMessage(f))
}

// projectCallDiagnostic explains an error of a project-scoped call: the
// refusals this contract adds (the hourly limit, 401 and 403 by their
// causes), then what every call says.
func projectCallDiagnostic(op core.APIOperation, err error, now time.Time) diag.Diagnostic {
	if mintlify.IsProjectExportNotServed(err) {
		return notServedDiagnostic(op, err)
	}
	if at, ok := mintlify.RetryAt(err); ok && mintlify.ProjectExportProblemOf(err) == mintlify.ProblemStartLimit {
		return diag.NewErrorDiagnostic("Static Export Start Limit Reached",
			fmt.Sprintf("The Mintlify API allows 10 static export starts per organization per hour, and refused "+
				"this one while %s (HTTP 429: %s). A start is possible again at %s (in %s), after the remaining "+
				"`timeouts.create`, so the provider stopped at once instead of waiting in vain. No job was started. "+
				"Apply again after %[3]s.", op.Doing, core.APIMessage(mintlify.Classify(err)), at.UTC().Format(time.RFC3339),
				roughly(at.Sub(now))))
	}
	if mintlify.IsAnotherExportActive(err) {
		summary, detail := anotherExportActive(op, mintlify.Classify(err))
		return diag.NewErrorDiagnostic(summary, detail)
	}
	if refusal, ok := mintlify.ReadProjectExportRefusal(err); ok {
		return projectRefusalDiagnostic(op, err, refusal)
	}
	return op.Diagnostic(err)
}

// getProjectJob reads a project-scoped job for a data source or an
// ephemeral link, a failure pointing at `job_id`.
func getProjectJob(ctx context.Context, data *core.ProviderData, projectID, jobID string, budget core.WaitBudget) (*mintlify.ProjectExportJob, diag.Diagnostics) {
	job, err := data.Client.GetProjectExportJob(ctx, projectID, jobID)
	if err != nil {
		op := GetProjectExportJobOp(projectID, jobID).At(path.Root("job_id")).Within(budget)
		return nil, diag.Diagnostics{projectCallDiagnostic(op, err, data.Client.Clock().Now())}
	}
	return job, nil
}

// notServedDiagnostic explains a project-scoped call that the API answered
// as a path it has no route for: it does not serve the project-scoped
// contract (yet), whatever the project.
func notServedDiagnostic(op core.APIOperation, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(pathProjectID, "Project-Scoped Static Export Not Served",
		fmt.Sprintf("The Mintlify API at the provider's `base_url` has no route for the project-scoped static export "+
			"call made while %s (HTTP %d: %s): it does not serve the project-scoped contract yet, so project %s is "+
			"not the cause. Until it does, export with today's contract: set `domain` (and remove `project_id` and "+
			"`base_path` from the resource). If `base_url` points at a proxy or a stand-in, check that it serves "+
			"`/v1/static-export/{projectId}/jobs`. No job was started or changed.",
			op.Doing, mintlify.StatusCode(err), core.APIMessage(mintlify.Classify(err)), op.ProjectID))
}

// currentLink says until when the link of job jobID that a renewal would
// have replaced works (it expires at expiresAt; now is the provider's
// clock), for the diagnostic of a failed renewal.
func currentLink(jobID string, expiresAt, now time.Time) string {
	at := expiresAt.UTC().Format(time.RFC3339)
	if !now.Before(expiresAt) {
		return fmt.Sprintf("The current link of static export job %s expired at %s: nothing can download the bundle "+
			"until a renewal succeeds.", jobID, at)
	}
	return fmt.Sprintf("The current link of static export job %s keeps working until %s (in %s): fix the key before "+
		"then, and apply again to renew it.", jobID, at, roughly(expiresAt.Sub(now)))
}

// roughly is d to the minute ("1h47m"), or "less than a minute".
func roughly(d time.Duration) string {
	if d < time.Minute {
		return "less than a minute"
	}
	s := strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	return strings.Replace(s, "h0m", "h", 1)
}
