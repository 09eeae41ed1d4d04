package core

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// APIOperation is one call of the Mintlify API as a diagnostic speaks of it:
// which operation, on what, and what the user can do when it fails. Build
// it with the constructor of the call (StartStaticExportOp,
// GetAgentJobOp, ...), then turn any error of the call into a diagnostic
// with Diagnostic(err), which maps each status by what that operation
// means by it (the call's CallText says where calls differ):
//
//	op := GetAgentJobOp(projectID, id).At(path.Root("id"))
//	job, err := client.GetAgentJob(ctx, projectID, id)
//	if err != nil {
//		resp.Diagnostics.Append(op.Diagnostic(err))
//		return
//	}
type APIOperation struct {
	Call APICall
	// Doing completes "... while <doing>".
	Doing string
	// JobID and projectID are the call's subject, when it has one.
	JobID, ProjectID string
	// Attr is the configuration attribute that names the subject, which a
	// not-found diagnostic points at; empty for none.
	Attr path.Path
	// next replaces the default advice of a not-found (404) or conflict
	// (409) diagnostic; see Advise.
	next map[int]string
	// budget is what bounds the operation (zero when unknown); see Within.
	budget WaitBudget
	// renewal says until when the link that the call would renew works, ""
	// for no renewal; see Renewing.
	renewal string
}

// While returns the operation described as a part of something longer,
// such as "waiting for static export job se_1 (`running` at 40%)".
func (op APIOperation) While(doing string) APIOperation {
	op.Doing = doing
	return op
}

// At returns the operation with the attribute that names its subject, so
// that a diagnostic about the subject (404, 409) points at it.
func (op APIOperation) At(attr path.Path) APIOperation {
	op.Attr = attr
	return op
}

// Within returns the operation bounded by b, so that a diagnostic about the
// deadline names the setting and its value.
func (op APIOperation) Within(b WaitBudget) APIOperation {
	op.budget = b
	return op
}

// Advise returns the operation with next as the advice of its diagnostic
// for status (404 or 409), in place of the default one.
func (op APIOperation) Advise(status int, next string) APIOperation {
	n := make(map[int]string, len(op.next)+1)
	for k, v := range op.next {
		n[k] = v
	}
	n[status] = next
	op.next = n
	return op
}

// Advice is the operation's advice for status, or else def.
func (op APIOperation) Advice(status int, def string) string {
	if next, ok := op.next[status]; ok {
		return next
	}
	return def
}

// text is what the diagnostics of the operation's call say where calls
// differ.
func (op APIOperation) text() CallText { return op.Call.Text }

// Diagnostic turns an error of the operation into a diagnostic for the
// person at the terminal: what failed, the API's own words, and what to do
// next, about this operation only. An error of a call that starts
// something also says whether it may have. The error is classified once
// (mintlify.Classify); everything below reads that one fault.
func (op APIOperation) Diagnostic(err error) diag.Diagnostic {
	f := mintlify.Classify(err)
	if f.Kind == mintlify.FaultNotFound {
		return op.notFound(f)
	}
	summary, detail := op.describe(f)
	text := op.text()
	switch {
	case f.Status == http.StatusConflict:
		return op.pointed(diag.NewErrorDiagnostic(summary, detail))
	case f.Start == nil && f.Deadline:
		return op.budget.Pointed(diag.NewErrorDiagnostic(summary, detail))
	case f.Start == nil || text.NotStarted == "":
		return diag.NewErrorDiagnostic(summary, detail)
	case f.Start.MayHaveStarted:
		summary, next := text.MayHaveStarted(op)
		return diag.NewErrorDiagnostic(summary, detail+"\n\n"+next)
	}
	return diag.NewErrorDiagnostic(summary, followedBy(detail, text.NotStarted))
}

// notFound is the one builder of every diagnostic for an HTTP 404: it names
// what was not found, quotes the API, and gives the advice of the
// operation (see Advise).
func (op APIOperation) notFound(f mintlify.Fault) diag.Diagnostic {
	text := op.text()
	missing := ""
	if text.Missing != nil {
		missing = ": " + text.Missing(op)
	}
	detail := fmt.Sprintf("The Mintlify API answered HTTP 404 (%s) while %s%s. %s", APIMessage(f), op.Doing, missing,
		op.Advice(http.StatusNotFound, text.NotFoundAdvice))
	return op.pointed(diag.NewErrorDiagnostic(text.NotFound, detail))
}

// pointed attaches the attribute that names the operation's subject, if
// any, to a diagnostic about that subject.
func (op APIOperation) pointed(d diag.Diagnostic) diag.Diagnostic {
	if len(op.Attr.Steps()) == 0 {
		return d
	}
	return diag.WithPath(op.Attr, d)
}

// describe is Diagnostic's summary and detail for every fault but a 404:
// first what is not an answer of the API (an interruption, a link or a
// status the provider refuses, a deadline), then the API's answer.
func (op APIOperation) describe(f mintlify.Fault) (summary, detail string) {
	doing := op.Doing
	switch f.Kind {
	case mintlify.FaultInterrupted:
		return "Operation Interrupted", fmt.Sprintf("Terraform was interrupted while %s.", doing)
	case mintlify.FaultUnsafeLink:
		return unsafeLinkDiagnostic(f.UnsafeLink, doing)
	case mintlify.FaultUnknownStatus:
		return unknownStatusDiagnostic(f.UnknownStatus)
	case mintlify.FaultDowngrade:
		return downgradeDiagnostic(f.Downgrade, doing)
	case mintlify.FaultInvalidValue:
		return invalidValueDiagnostic(f.InvalidValue, doing)
	case mintlify.FaultTurnOutlastsTimeout:
		return turnOutlastsTimeout(f, doing, op.budget)
	case mintlify.FaultRateLimitOutlastsTimeout:
		return rateLimitOutlastsTimeout(f, doing, op.budget)
	case mintlify.FaultRetryOutlastsTimeout:
		return "Mintlify API Retry Would Outlast The Timeout",
			fmt.Sprintf("A request failed while %s (%s). The next retry was due in %s, but the operation's "+
				"timeout ends in %s, so the provider stopped instead of waiting in vain. Apply again later, or "+
				"%s if the API keeps asking clients to wait this long.",
				doing, lastFailure(f), f.Retry.Wait, f.Retry.Left.Round(time.Second), op.budget.Raise())
	case mintlify.FaultDeadline:
		if op.budget.limit == "" {
			return "Mintlify Operation Timed Out", fmt.Sprintf("The operation's timeout ran out while %s. %s and "+
				"apply again.", doing, Capitalized(op.budget.Raise()))
		}
		return "Mintlify Operation Timed Out",
			fmt.Sprintf("%s ran out while %s%s: the Mintlify API did not answer in time. Check that the "+
				"provider's `base_url` is reachable and apply again, or %s.", op.budget, doing, afterAttempts(f),
				op.budget.Raise())
	}
	return op.describeAnswer(f)
}

// describeAnswer explains a fault the API (or the network on the way)
// answered, by its kind; 400, 401, 403 and 409 depend on the call (401 and
// 403: diagnostic_refusals.go).
func (op APIOperation) describeAnswer(f mintlify.Fault) (summary, detail string) {
	doing, after := op.Doing, afterAttempts(f)
	switch f.Kind {
	case mintlify.FaultOutOfCredits:
		return outOfCredits(f, doing)
	case mintlify.FaultUnauthorized:
		return op.unauthorized(f)
	case mintlify.FaultForbidden:
		return op.forbidden(f)
	case mintlify.FaultBadRequest:
		return op.text().BadRequest(op, f)
	case mintlify.FaultConflict:
		return op.text().Conflict(op, f)
	case mintlify.FaultRateLimited:
		return "Mintlify API Rate Limit Exceeded",
			fmt.Sprintf("The Mintlify API kept answering HTTP 429 (%s) while %s%s. Wait a few minutes and apply "+
				"again, run fewer Mintlify operations at once (`terraform apply -parallelism=2`), or raise the "+
				"provider's `max_retries`.", APIMessage(f), doing, after)
	case mintlify.FaultServerError:
		retries := ""
		if after != "" {
			retries = ", or raise the provider's `max_retries`"
		}
		return "Mintlify API Unavailable",
			fmt.Sprintf("The Mintlify API answered HTTP %d (%s) while %s%s. The problem is on the Mintlify side: "+
				"apply again later%s.", f.Status, APIMessage(f), doing, after, retries)
	case mintlify.FaultNotFound, mintlify.FaultOtherStatus:
		return "Mintlify API Error",
			fmt.Sprintf("The Mintlify API answered HTTP %d while %s: %s.", f.Status, doing, APIMessage(f))
	case mintlify.FaultUnreachable:
		return "Mintlify API Unreachable",
			fmt.Sprintf("No usable answer came from the Mintlify API while %s%s: %v. Check that the provider's "+
				"`base_url` is reachable from this machine and apply again; if answers are slow, raise the "+
				"provider's `request_timeout`.", doing, after, f.Transport)
	default:
		return "Mintlify Request Failed", fmt.Sprintf("The request failed while %s: %v.", doing, f.Err)
	}
}

// afterAttempts is ", after N attempts" when a call was tried more than
// once, or "".
func afterAttempts(f mintlify.Fault) string {
	if f.Attempts > 1 {
		return fmt.Sprintf(", after %d attempts", f.Attempts)
	}
	return ""
}

// lastFailure describes the last failed attempt of a retried call in a few
// words.
func lastFailure(f mintlify.Fault) string {
	switch {
	case f.Status != 0:
		return fmt.Sprintf("HTTP %d: %s", f.Status, APIMessage(f))
	case f.Transport != nil:
		return f.Transport.Error()
	}
	return f.Retry.Err.Error()
}

// APIMessage returns the API's own error text of a fault, without a final
// period so that it reads well inside a sentence; the error's own text when
// no answer carried one.
func APIMessage(f mintlify.Fault) string {
	if f.Status != 0 {
		return strings.TrimRight(f.Message, ".")
	}
	return f.Err.Error()
}

// NotConfiguredDiagnostic is reported by anything that needs the client
// while the provider could not be configured, because one of its arguments
// is only known after apply.
func NotConfiguredDiagnostic() diag.Diagnostic {
	return diag.NewErrorDiagnostic("Mintlify Provider Not Configured",
		"The mintlify provider has no API client yet: one of its arguments (such as `api_key`, `base_url` "+
			"or `project_id`) depends on a value that is only known after apply. Set them from values known at "+
			"plan time (variables or environment variables), or apply the resource that produces them first "+
			"with `-target`.")
}
