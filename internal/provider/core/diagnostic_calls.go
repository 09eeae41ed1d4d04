package core

import (
	"fmt"
	"net/http"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// APICall is one documented operation of the Mintlify API: its operationId
// in the API's description (mintlify.openapi.yaml), and what its
// diagnostics say where calls differ. Each family declares the calls it
// makes, beside the operations (APIOperation) that make them.
type APICall struct {
	OperationID string
	Text        CallText
}

// String is the call's operationId.
func (c APICall) String() string { return c.OperationID }

// CallText is what the diagnostics of one call say where calls differ:
// what a 400, 403, 404 or 409 means for it, and, for a call that starts
// something (an export, an agent job, the agent's work on a follow-up),
// what a refused or unanswered start means.
type CallText struct {
	// NotFound is the summary of a 404; missing says what the API lacks
	// ("it has no static export job …"), nil when the 404 names nothing.
	NotFound       string
	Missing        func(op APIOperation) string
	NotFoundAdvice string
	// Forbidden are the causes of a 403 (diagnostic_refusals.go).
	Forbidden Refusals
	// BadRequest and Conflict explain a 400 and a 409; CallOfProject's
	// quote the API.
	BadRequest func(op APIOperation, f mintlify.Fault) (summary, detail string)
	Conflict   func(op APIOperation, f mintlify.Fault) (summary, detail string)
	// NotStarted says what a start the API certainly refused did not do;
	// "" for a call that starts nothing.
	NotStarted string
	// MayHaveStarted is the summary, and what to do, when a start got no
	// definite answer.
	MayHaveStarted func(op APIOperation) (summary, next string)
}

func (t CallText) WhenNotFound(summary string, missing func(op APIOperation) string, advice string) CallText {
	t.NotFound, t.Missing, t.NotFoundAdvice = summary, missing, advice
	return t
}

func (t CallText) OnForbidden(r Refusals) CallText {
	t.Forbidden = r
	return t
}

func (t CallText) OnBadRequest(f func(op APIOperation, f mintlify.Fault) (summary, detail string)) CallText {
	t.BadRequest = f
	return t
}

func (t CallText) OnConflict(f func(op APIOperation, f mintlify.Fault) (summary, detail string)) CallText {
	t.Conflict = f
	return t
}

func (t CallText) Starting(notStarted string, mayHaveStarted func(op APIOperation) (summary, next string)) CallText {
	t.NotStarted, t.MayHaveStarted = notStarted, mayHaveStarted
	return t
}

// InProject is the text of a call under a project whose 404 means that the
// project does not exist, or is not the API key's.
func (t CallText) InProject() CallText {
	return t.WhenNotFound("Mintlify Project Not Found", missingProject, fmt.Sprintf("Check the project ID "+
		"(`project_id` here, or the provider's `project_id` or `%s`): copy it from the API keys page of the "+
		"Mintlify dashboard. If every request answers 404, check that `base_url` is the root of the Mintlify API.",
		Env.ProjectID))
}

// CallOfProject is the text of a call under a project that the families
// vary: a 403 names the key's causes, a 400 and a 409 quote the API.
var CallOfProject = CallText{Forbidden: readRefused, BadRequest: requestRejected, Conflict: apiConflict}

func missingProject(op APIOperation) string { return fmt.Sprintf("it has no project %q", op.ProjectID) }

func requestRejected(op APIOperation, f mintlify.Fault) (summary, detail string) {
	return "Mintlify Rejected The Request",
		fmt.Sprintf("The Mintlify API rejected the request while %s (HTTP 400: %s). Correct the argument "+
			"the message names and apply again.", op.Doing, APIMessage(f))
}

// apiConflict explains any other 409, in the API's own words.
func apiConflict(op APIOperation, f mintlify.Fault) (summary, detail string) {
	return "Mintlify API Conflict",
		fmt.Sprintf("The Mintlify API answered HTTP 409 while %s: %s. %s", op.Doing, APIMessage(f),
			op.Advice(http.StatusConflict, "Apply again once the operation the message names has finished."))
}
