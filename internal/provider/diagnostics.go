package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
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
)

// apiCalls lists every call, for tests.
var apiCalls = []apiCall{callStartStaticExport, callGetStaticExportJob, callGenerateBundle, callCreateAgentJob,
	callGetAgentJob, callSendAgentJobMessage}

// isStaticExport reports whether the call is one of the static export
// operations, which the API refuses with 403 when the organization has no
// static export.
func (c apiCall) isStaticExport() bool {
	return c == callStartStaticExport || c == callGetStaticExportJob || c == callGenerateBundle
}

// starts reports whether the call starts something that a lost answer
// leaves in doubt: an export, an agent job, or the agent's work on a
// follow-up.
func (c apiCall) starts() bool {
	return c == callStartStaticExport || c == callCreateAgentJob || c == callSendAgentJobMessage
}

// apiOperation is one call of the Mintlify API as a diagnostic speaks of it:
// which operation, on what, and what the user can do when it fails. Build
// it with the constructor of the call (startStaticExportOp,
// getAgentJobOp, ...), then turn any error of the call into a diagnostic
// with diagnostic(err), which maps each status by what that operation
// means by it:
//
//	op := getAgentJobOp(projectID, id).at(path.Root("id"))
//	job, err := client.GetAgentJob(ctx, projectID, id)
//	if err != nil {
//		resp.Diagnostics.Append(op.diagnostic(err))
//		return
//	}
type apiOperation struct {
	call apiCall
	// doing completes "... while <doing>".
	doing string
	// jobID and projectID are the call's subject, when it has one.
	jobID, projectID string
	// attr is the configuration attribute that names the subject, which a
	// not-found diagnostic points at; empty for none.
	attr path.Path
	// next replaces the default advice of a not-found (404) or conflict
	// (409) diagnostic; see advise.
	next map[int]string
	// limit names the setting that bounds the operation, such as
	// `timeouts.read`, and timeout is its value; see within.
	limit   string
	timeout time.Duration
}

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

// while returns the operation described as a part of something longer,
// such as "waiting for static export job se_1 (`running` at 40%)".
func (op apiOperation) while(doing string) apiOperation {
	op.doing = doing
	return op
}

// at returns the operation with the attribute that names its subject, so
// that a diagnostic about the subject (404, 409) points at it.
func (op apiOperation) at(attr path.Path) apiOperation {
	op.attr = attr
	return op
}

// within returns the operation bounded by the setting limit (such as
// "timeouts.read"), whose value is timeout, so that a diagnostic about the
// deadline names them.
func (op apiOperation) within(limit string, timeout time.Duration) apiOperation {
	op.limit, op.timeout = limit, timeout
	return op
}

// raiseLimit advises raising the setting that bounds the operation.
func (op apiOperation) raiseLimit() string {
	if op.limit == "" {
		return "raise the resource's `timeouts`"
	}
	name := strings.TrimPrefix(op.limit, "timeouts.")
	if name == op.limit {
		return fmt.Sprintf("raise `%s`, such as `%s = \"5m\"`", op.limit, op.limit)
	}
	return fmt.Sprintf("raise `%s`, such as `timeouts = { %s = \"5m\" }`", op.limit, name)
}

// advise returns the operation with next as the advice of its diagnostic
// for status (404 or 409), in place of the default one.
func (op apiOperation) advise(status int, next string) apiOperation {
	n := make(map[int]string, len(op.next)+1)
	for k, v := range op.next {
		n[k] = v
	}
	n[status] = next
	op.next = n
	return op
}

// diagnostic turns an error of the operation into a diagnostic for the
// person at the terminal: what failed, the API's own words, and what to do
// next, about this operation only. An error of StartStaticExport also says
// whether a job may have started.
func (op apiOperation) diagnostic(err error) diag.Diagnostic {
	if mintlify.IsNotFound(err) {
		return op.notFound(err)
	}
	summary, detail := op.describe(err)
	if mintlify.IsConflict(err) {
		return op.pointed(diag.NewErrorDiagnostic(summary, detail))
	}
	var startErr *mintlify.StartError
	if !errors.As(err, &startErr) || !op.call.starts() {
		return diag.NewErrorDiagnostic(summary, detail)
	}
	// A call that starts something (an export, an agent job, the agent's
	// work on a follow-up) says whether it may have.
	if startErr.MayHaveStarted {
		summary, next := op.mayHaveStarted()
		return diag.NewErrorDiagnostic(summary, detail+"\n\n"+next)
	}
	switch op.call {
	case callCreateAgentJob:
		detail += " No agent job was started."
	case callSendAgentJobMessage:
		detail += " The follow-up message was not sent."
	default:
		detail += " No static export job was started."
	}
	return diag.NewErrorDiagnostic(summary, detail)
}

// mayHaveStarted is the summary, and what to do, when a call that starts
// something got no definite answer.
func (op apiOperation) mayHaveStarted() (summary, next string) {
	switch op.call {
	case callCreateAgentJob:
		return "Agent Job May Have Started", fmt.Sprintf("The request reached the Mintlify API but no definite "+
			"answer came back, so an agent job may have started in project %s; its id is unknown. The provider did "+
			"not retry, because a retry could start a second agent job and open a second pull request, and nothing "+
			"was saved in state. Check the agent jobs of project %s in the Mintlify dashboard: applying again starts "+
			"a new job.", op.projectID, op.projectID)
	case callSendAgentJobMessage:
		return "Follow-Up Message May Have Been Sent", fmt.Sprintf("The follow-up message reached the Mintlify API "+
			"but no definite answer came back, so agent job %s may be working on it. The provider did not send it "+
			"again, because the agent would get the prompt twice. Read the job (the `mintlify_agent_job` data "+
			"source, or the Mintlify dashboard) before you send it again.", op.jobID)
	}
	return "Static Export May Have Started", "The start request reached the Mintlify API but no definite answer " +
		"came back, so a static export job may have started; its id is unknown. The provider did not retry, because " +
		"a retry could start a second export, and nothing was saved in state. Apply again to start a new export: a " +
		"job started by the lost request finishes on its own and is never used."
}

// notFound is the one builder of every diagnostic for an HTTP 404: it names
// what was not found, quotes the API, and gives the advice of the
// operation (see advise).
func (op apiOperation) notFound(err error) diag.Diagnostic {
	var summary, detail string
	switch op.call {
	case callGetStaticExportJob, callGenerateBundle:
		summary = "Static Export Job Not Found"
		detail = fmt.Sprintf("The Mintlify API answered HTTP 404 (%s) while %s: it has no static export job %q, at "+
			"least not for the organization of the API key. %s", apiMessage(err), op.doing, op.jobID,
			op.advice(http.StatusNotFound, "Check the job ID. If every request answers 404, check that `base_url` "+
				"is the root of the Mintlify API."))
	case callGetAgentJob, callSendAgentJobMessage:
		summary = "Agent Job Not Found"
		detail = fmt.Sprintf("The Mintlify API answered HTTP 404 (%s) while %s: it has no agent job %q in project "+
			"%q. %s", apiMessage(err), op.doing, op.jobID, op.projectID, op.advice(http.StatusNotFound,
			"Check the job ID, and that the job belongs to this project."))
	case callCreateAgentJob:
		summary = "Mintlify Project Not Found"
		detail = fmt.Sprintf("The Mintlify API answered HTTP 404 (%s) while %s: it has no project %q. %s",
			apiMessage(err), op.doing, op.projectID, op.advice(http.StatusNotFound, fmt.Sprintf("Check the project "+
				"ID (`project_id` here, or the provider's `project_id` or `%s`): copy it from the API keys page of the "+
				"Mintlify dashboard. If every request answers 404, check that `base_url` is the root of the Mintlify "+
				"API.", envProjectID)))
	default:
		summary = "Mintlify API Endpoint Not Found"
		detail = fmt.Sprintf("The Mintlify API answered HTTP 404 (%s) while %s. %s", apiMessage(err), op.doing,
			op.advice(http.StatusNotFound, "Check that the provider's `base_url` is the root of the Mintlify API."))
	}
	return op.pointed(diag.NewErrorDiagnostic(summary, detail))
}

// pointed attaches the attribute that names the operation's subject, if
// any, to a diagnostic about that subject.
func (op apiOperation) pointed(d diag.Diagnostic) diag.Diagnostic {
	if len(op.attr.Steps()) == 0 {
		return d
	}
	return diag.WithPath(op.attr, d)
}

// advice is the operation's advice for status, or else def.
func (op apiOperation) advice(status int, def string) string {
	if next, ok := op.next[status]; ok {
		return next
	}
	return def
}

// describe is diagnostic's summary and detail for every failure but a 404,
// one case per kind of failure; 403 and 409 depend on the operation.
func (op apiOperation) describe(err error) (summary, detail string) {
	doing := op.doing
	var apiErr *mintlify.APIError
	var transportErr *mintlify.TransportError
	var retryErr *mintlify.RetryError
	var unsafeLink *mintlify.UnsafeLinkError
	var unknownStatus *mintlify.UnknownStatusError
	after := ""
	if n := mintlify.Attempts(err); n > 1 {
		after = fmt.Sprintf(", after %d attempts", n)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "Operation Interrupted", fmt.Sprintf("Terraform was interrupted while %s.", doing)
	case errors.As(err, &unsafeLink):
		return unsafeLinkDiagnostic(unsafeLink, doing)
	case errors.As(err, &unknownStatus):
		return unknownStatusDiagnostic(unknownStatus)
	case errors.As(err, &retryErr) && retryErr.Wait > 0 && errors.Is(err, context.DeadlineExceeded) && mintlify.IsRateLimited(err):
		return rateLimitOutlastsTimeout(retryErr, doing)
	case errors.As(err, &retryErr) && retryErr.Wait > 0 && errors.Is(err, context.DeadlineExceeded):
		return "Mintlify API Retry Would Outlast The Timeout",
			fmt.Sprintf("A request failed while %s (%s). The next retry was due in %s, but the operation's "+
				"timeout ends in %s, so the provider stopped instead of waiting in vain. Apply again later, or "+
				"%s if the API keeps asking clients to wait this long.",
				doing, lastFailure(retryErr.Err), retryErr.Wait, retryErr.Left.Round(time.Second), op.raiseLimit())
	case errors.Is(err, context.DeadlineExceeded) && op.limit != "":
		return "Mintlify Operation Timed Out",
			fmt.Sprintf("`%s` (%s) ran out while %s%s: the Mintlify API did not answer in time. Check that the "+
				"provider's `base_url` is reachable and apply again, or %s.", op.limit, op.timeout, doing, after,
				op.raiseLimit())
	case errors.Is(err, context.DeadlineExceeded):
		return "Mintlify Operation Timed Out",
			fmt.Sprintf("The operation's timeout ran out while %s. Raise the resource's `timeouts` and apply again.", doing)
	case mintlify.IsUnauthorized(err):
		return "Mintlify API Key Rejected",
			fmt.Sprintf("The Mintlify API rejected the API key while %s (HTTP 401: %s). Check the provider's "+
				"`api_key` argument or the `%s` environment variable: it must be a current admin API key, "+
				"which begins with `mint_`.", doing, apiMessage(err), envAPIKey)
	case mintlify.IsForbidden(err):
		return op.forbidden(err)
	case mintlify.IsBadRequest(err) && (op.call == callCreateAgentJob || op.call == callSendAgentJobMessage):
		return "Mintlify Rejected The Prompt",
			fmt.Sprintf("The Mintlify API rejected the prompt while %s (HTTP 400: %s). Correct `prompt` and try "+
				"again.", doing, apiMessage(err))
	case mintlify.IsBadRequest(err):
		return "Mintlify Rejected The Request",
			fmt.Sprintf("The Mintlify API rejected the request while %s (HTTP 400: %s). Correct the argument "+
				"the message names and apply again.", doing, apiMessage(err))
	case mintlify.IsConflict(err):
		return op.conflict(err)
	case mintlify.IsRateLimited(err):
		return "Mintlify API Rate Limit Exceeded",
			fmt.Sprintf("The Mintlify API kept answering HTTP 429 (%s) while %s%s. Wait a few minutes and apply "+
				"again, run fewer Mintlify operations at once (`terraform apply -parallelism=2`), or raise the "+
				"provider's `max_retries`.", apiMessage(err), doing, after)
	case mintlify.IsServerError(err):
		retries := ""
		if after != "" {
			retries = ", or raise the provider's `max_retries`"
		}
		return "Mintlify API Unavailable",
			fmt.Sprintf("The Mintlify API answered HTTP %d (%s) while %s%s. The problem is on the Mintlify side: "+
				"apply again later%s.", mintlify.StatusCode(err), apiMessage(err), doing, after, retries)
	case errors.As(err, &apiErr):
		return "Mintlify API Error",
			fmt.Sprintf("The Mintlify API answered HTTP %d while %s: %s.", apiErr.StatusCode, doing, apiMessage(err))
	case errors.As(err, &transportErr):
		return "Mintlify API Unreachable",
			fmt.Sprintf("No usable answer came from the Mintlify API while %s%s: %v. Check that the provider's "+
				"`base_url` is reachable from this machine and apply again; if answers are slow, raise the "+
				"provider's `request_timeout`.", doing, after, transportErr.Err)
	default:
		return "Mintlify Request Failed", fmt.Sprintf("The request failed while %s: %v.", doing, err)
	}
}

// forbidden explains a 403: for static export, a feature the organization
// does not have; for agent jobs, a project the key cannot reach.
func (op apiOperation) forbidden(err error) (summary, detail string) {
	if op.call.isStaticExport() {
		return "Static Export Not Enabled",
			fmt.Sprintf("The Mintlify API refused %s (HTTP 403: %s). Static export is available on Mintlify "+
				"Enterprise plans and must be enabled for your organization: contact Mintlify to enable it, "+
				"then apply again.", op.doing, apiMessage(err))
	}
	return "No Access To The Mintlify Project",
		fmt.Sprintf("The Mintlify API refused %s (HTTP 403: %s): the API key has no access to project %s. Check "+
			"the project ID (`project_id` here, or the provider's `project_id` or `%s`) on the API keys page of the "+
			"Mintlify dashboard, and use an admin API key of the organization that owns the project.",
			op.doing, apiMessage(err), op.projectID, envProjectID)
}

// conflict explains a 409: for a bundle, a job that has not completed;
// elsewhere, in the API's own words.
func (op apiOperation) conflict(err error) (summary, detail string) {
	if op.call == callGenerateBundle {
		return "Static Export Not Finished",
			fmt.Sprintf("The Mintlify API answered that static export job %s has not completed, so no link can be "+
				"generated for it yet (HTTP 409: %s). %s", op.jobID, apiMessage(err),
				op.advice(http.StatusConflict, "Apply again once the job completes."))
	}
	return "Mintlify API Conflict",
		fmt.Sprintf("The Mintlify API answered HTTP 409 while %s: %s. %s", op.doing, apiMessage(err),
			op.advice(http.StatusConflict, "Apply again once the operation the message names has finished."))
}

// lastFailure describes one failed attempt in a few words.
func lastFailure(err error) string {
	var apiErr *mintlify.APIError
	var transportErr *mintlify.TransportError
	switch {
	case errors.As(err, &apiErr):
		return fmt.Sprintf("HTTP %d: %s", apiErr.StatusCode, apiMessage(err))
	case errors.As(err, &transportErr):
		return transportErr.Err.Error()
	}
	return err.Error()
}

// apiMessage returns the API's own error text, without a final period so
// that it reads well inside a sentence.
func apiMessage(err error) string {
	var apiErr *mintlify.APIError
	if errors.As(err, &apiErr) {
		return strings.TrimRight(apiErr.Message, ".")
	}
	return err.Error()
}

// notConfiguredDiagnostic is reported by anything that needs the client
// while the provider could not be configured, because one of its arguments
// is only known after apply.
func notConfiguredDiagnostic() diag.Diagnostic {
	return diag.NewErrorDiagnostic("Mintlify Provider Not Configured",
		"The mintlify provider has no API client yet: one of its arguments (such as `api_key`, `base_url` "+
			"or `project_id`) depends on a value that is only known after apply. Set them from values known at "+
			"plan time (variables or environment variables), or apply the resource that produces them first "+
			"with `-target`.")
}
