package provider

import (
	"fmt"
	"net/http"
)

// apiCall is one documented operation of the Mintlify API: its operationId
// in the API's description (mintlify.openapi.yaml), and what its
// diagnostics say where calls differ. Each family declares the calls it
// makes, beside the operations (apiOperation) that make them.
type apiCall struct {
	operationID string
	text        callText
}

// String is the call's operationId.
func (c apiCall) String() string { return c.operationID }

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

// inProject is the text of a call under a project whose 404 means that the
// project does not exist, or is not the API key's.
func (t callText) inProject() callText {
	return t.whenNotFound("Mintlify Project Not Found", missingProject, fmt.Sprintf("Check the project ID "+
		"(`project_id` here, or the provider's `project_id` or `%s`): copy it from the API keys page of the "+
		"Mintlify dashboard. If every request answers 404, check that `base_url` is the root of the Mintlify API.",
		envProjectID))
}

// callOfProject is the text of a call under a project that the families
// vary: a 403 names the key's causes, a 400 and a 409 quote the API.
var callOfProject = callText{forbidden: readRefused, badRequest: requestRejected, conflict: apiConflict}

func missingProject(op apiOperation) string { return fmt.Sprintf("it has no project %q", op.projectID) }

func requestRejected(op apiOperation, err error) (summary, detail string) {
	return "Mintlify Rejected The Request",
		fmt.Sprintf("The Mintlify API rejected the request while %s (HTTP 400: %s). Correct the argument "+
			"the message names and apply again.", op.doing, apiMessage(err))
}

// apiConflict explains any other 409, in the API's own words.
func apiConflict(op apiOperation, err error) (summary, detail string) {
	return "Mintlify API Conflict",
		fmt.Sprintf("The Mintlify API answered HTTP 409 while %s: %s. %s", op.doing, apiMessage(err),
			op.advice(http.StatusConflict, "Apply again once the operation the message names has finished."))
}
