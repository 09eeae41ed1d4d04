package mintlify

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// APIError is an answer from the API with a non-2xx status.
type APIError struct {
	// Route is the method and path template of the call, such as
	// "GET /v1/static-export/jobs/se_123".
	Route string
	// StatusCode is the HTTP status code.
	StatusCode int
	// Message is the API's own "error" text, or a short description of the
	// body when it was not the documented JSON shape.
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s: %d %s: %s", e.Route, e.StatusCode, http.StatusText(e.StatusCode), e.Message)
}

func newAPIError(route string, status int, body []byte) *APIError {
	var payload struct {
		Error string `json:"error"`
	}
	msg := ""
	if err := json.Unmarshal(body, &payload); err == nil {
		msg = payload.Error
	}
	if msg == "" {
		msg = "the response carried no error message"
	}
	return &APIError{Route: route, StatusCode: status, Message: msg}
}

// TransportError is a failure to get a usable answer: a refused or dropped
// connection, a timeout, or a body that is not the documented JSON.
type TransportError struct {
	Route string
	Err   error
}

func (e *TransportError) Error() string { return fmt.Sprintf("%s: %v", e.Route, e.Err) }
func (e *TransportError) Unwrap() error { return e.Err }

// JobFailedError reports a static export job that ended in `failed`.
type JobFailedError struct {
	Job StaticExportJob
}

func (e *JobFailedError) Error() string {
	msg := "the API gave no reason"
	if e.Job.Error != nil && strings.TrimSpace(*e.Job.Error) != "" {
		msg = *e.Job.Error
	}
	return fmt.Sprintf("static export job %s failed at %s%% (%d pages exported): %s",
		e.Job.JobID, FormatProgress(e.Job.Progress), e.Job.PageCount, msg)
}

// StatusCode returns the HTTP status of an *APIError in err's chain, or 0.
func StatusCode(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// IsNotFound reports whether err is the API's 404.
func IsNotFound(err error) bool { return StatusCode(err) == http.StatusNotFound }

// IsUnauthorized reports whether err is the API's 401: a missing, wrong or
// revoked API key.
func IsUnauthorized(err error) bool { return StatusCode(err) == http.StatusUnauthorized }

// IsForbidden reports whether err is the API's 403: static export is not
// enabled for the organization.
func IsForbidden(err error) bool { return StatusCode(err) == http.StatusForbidden }

// IsConflict reports whether err is the API's 409: a bundle was requested
// before the job completed.
func IsConflict(err error) bool { return StatusCode(err) == http.StatusConflict }

// IsBadRequest reports whether err is the API's 400.
func IsBadRequest(err error) bool { return StatusCode(err) == http.StatusBadRequest }
