package mintlify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"time"
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
	// RetryAfter is how long the API asked the client to wait before trying
	// again (the Retry-After header of a 429 or 503, in seconds or as an HTTP
	// date), or 0 when it did not say.
	RetryAfter time.Duration
	// RetryAt is when the API said a new attempt may go, on the client's
	// clock: the answer's arrival plus RetryAfter; zero when it did not say.
	RetryAt time.Time
	// Code is the API's own code for the error (the "code" beside "error"),
	// or "". Mintlify's services put one in their own refusals; its shared
	// API-key layer (invalid or expired key, scope, allowlist, and some
	// 429s) does not.
	Code string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s: %d %s: %s", e.Route, e.StatusCode, http.StatusText(e.StatusCode), e.Message)
}

// newAPIError reads an error body: the API's JSON shape, or a plain-text
// one (as Mintlify's organization-wide 429s may be), whose text becomes the
// message; neither is a decoding failure. The API's message is server
// text: it is cleaned, and secrets (such as the API key) are masked in it.
func newAPIError(route string, status int, contentType string, body []byte, secrets []string) *APIError {
	var payload struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}
	msg := ""
	if err := json.Unmarshal(body, &payload); err == nil {
		msg = serverText(payload.Error, secrets)
	} else if mediaType, _, _ := mime.ParseMediaType(contentType); mediaType == "text/plain" {
		msg = serverText(string(body), secrets)
	}
	if msg == "" {
		msg = "the response carried no error message"
	}
	return &APIError{Route: route, StatusCode: status, Message: msg, Code: serverText(payload.Code, secrets)}
}

// TransportError is a failure to get a usable answer: a refused or dropped
// connection, a timeout, or a body that is truncated or not the documented
// JSON.
type TransportError struct {
	Route string
	Err   error
}

func (e *TransportError) Error() string { return fmt.Sprintf("%s: %v", e.Route, e.Err) }
func (e *TransportError) Unwrap() error { return e.Err }

// RequestTimeoutError is an attempt that got no complete answer within the
// client's per-request timeout (WithRequestTimeout). It deliberately does not
// match context.DeadlineExceeded: that error means the caller's own deadline
// (a resource's timeouts) ended, which calls for a different fix.
type RequestTimeoutError struct {
	Timeout time.Duration
	// connecting is true when the timeout struck before a connection was
	// made, so the request never reached the server.
	connecting bool
}

func (e *RequestTimeoutError) Error() string {
	if e.connecting {
		return fmt.Sprintf("could not connect within the request timeout of %s", e.Timeout)
	}
	return fmt.Sprintf("no complete answer within the request timeout of %s", e.Timeout)
}

// RetryError is the last failure of a call that was retried, or that was
// stopped while it waited to retry.
type RetryError struct {
	// Attempts is how many requests were sent.
	Attempts int
	// Err is the last attempt's error: an *APIError or a *TransportError.
	Err error
	// Stop is nil when the retries ran out. Otherwise it says why retrying
	// stopped early: context.Canceled, or context.DeadlineExceeded when the
	// next wait would have ended after the caller's deadline.
	Stop error
	// Wait is the wait before the next attempt that was not started because
	// of the deadline, and Left the time that remained before it.
	Wait, Left time.Duration
	// Limit, when not nil, is the documented rate limit whose turn the
	// call waited for (a 429 of a call that has one), and Turns how many
	// turns it waited before it stopped.
	Limit *Limit
	Turns int
}

func (e *RetryError) Error() string {
	switch {
	case e.Limit != nil && errors.Is(e.Stop, context.DeadlineExceeded):
		return fmt.Sprintf("stopped after %s (%s for a turn within the rate limit on %s): the next turn was due "+
			"in %s, but the deadline was %s away: %v", countAttempts(e.Attempts), countTurns(e.Turns), e.Limit,
			e.Wait.Round(time.Second), e.Left.Round(time.Millisecond), e.Err)
	case e.Limit != nil && e.Stop == nil:
		return fmt.Sprintf("gave up after %s (%s for a turn within the rate limit on %s): %v",
			countAttempts(e.Attempts), countTurns(e.Turns), e.Limit, e.Err)
	case e.Stop == nil:
		return fmt.Sprintf("gave up after %s: %v", countAttempts(e.Attempts), e.Err)
	case errors.Is(e.Stop, context.DeadlineExceeded) && e.Wait > 0:
		return fmt.Sprintf("stopped after %s: the next attempt was due in %s, but the deadline was %s away: %v",
			countAttempts(e.Attempts), e.Wait.Round(time.Second), e.Left.Round(time.Millisecond), e.Err)
	default:
		return fmt.Sprintf("stopped after %s (%v): %v", countAttempts(e.Attempts), e.Stop, e.Err)
	}
}

// Unwrap exposes both the last attempt's error and, when retrying stopped
// early, context.Canceled or context.DeadlineExceeded.
func (e *RetryError) Unwrap() []error {
	if e.Stop == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Stop}
}

func countTurns(n int) string {
	if n == 1 {
		return "1 wait"
	}
	return fmt.Sprintf("%d waits", n)
}

func countAttempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// StartError is the error of a request that starts something on the
// Mintlify side: StartStaticExport, CreateAgentJob and SendAgentJobMessage.
// Such a request is not idempotent, so it is retried only when the API
// certainly did not take it; StartError tells the caller which case it is.
type StartError struct {
	// MayHaveStarted is true when the request reached the API but no
	// definite answer came back (a 5xx, a dropped connection, a timeout, a
	// truncated body): a job may be running whose id is unknown, or a
	// follow-up message may have been taken. It is false when the API
	// certainly did not take the request (a 4xx answer, a refused
	// connection).
	MayHaveStarted bool
	Err            error
	// What names what the request starts: "static export job" (when
	// empty), "agent job" or "follow-up message".
	What string
}

func (e *StartError) Error() string {
	what := e.What
	if what == "" {
		what = "static export job"
	}
	switch {
	case what == followUpMessage && e.MayHaveStarted:
		return fmt.Sprintf("%v (the follow-up message may have been taken)", e.Err)
	case what == followUpMessage:
		return fmt.Sprintf("%v (the follow-up message was not taken)", e.Err)
	case e.MayHaveStarted:
		return fmt.Sprintf("%v (a %s may have started)", e.Err, what)
	}
	return fmt.Sprintf("%v (no %s was started)", e.Err, what)
}

func (e *StartError) Unwrap() error { return e.Err }

// MayHaveStarted reports whether err is the failure of a request that
// starts something (StartStaticExport, CreateAgentJob, SendAgentJobMessage)
// after which it may nevertheless have started.
func MayHaveStarted(err error) bool {
	var se *StartError
	return errors.As(err, &se) && se.MayHaveStarted
}

// JobFailedError is a job that ended in `failed`, as the wait last saw it:
// a *JobFailedError[StaticExportJob], [ProjectExportJob], [AgentJob] or
// [Deployment]. The wait returns the same job beside it.
type JobFailedError[J Job] struct {
	Job J
}

func (e *JobFailedError[J]) Error() string { return e.Job.failure() }

// IsJobFailed reports whether err is a *JobFailedError of any kind.
func IsJobFailed(err error) bool {
	var export *JobFailedError[StaticExportJob]
	var projectExport *JobFailedError[ProjectExportJob]
	var agent *JobFailedError[AgentJob]
	var deployment *JobFailedError[Deployment]
	return errors.As(err, &export) || errors.As(err, &projectExport) || errors.As(err, &agent) ||
		errors.As(err, &deployment)
}

// StatusCode returns the HTTP status of an *APIError in err's chain, or 0.
func StatusCode(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// Attempts returns how many requests a failed call sent: the count of a
// *RetryError in err's chain, otherwise 1.
func Attempts(err error) int {
	var re *RetryError
	if errors.As(err, &re) {
		return re.Attempts
	}
	return 1
}

// IsNotFound reports whether err is the API's 404.
func IsNotFound(err error) bool { return StatusCode(err) == http.StatusNotFound }

// IsUnauthorized reports whether err is the API's 401: a missing, wrong,
// revoked or expired API key (RefusalsNamed tells which, when the text does).
func IsUnauthorized(err error) bool { return StatusCode(err) == http.StatusUnauthorized }

// IsForbidden reports whether err is the API's 403: a key used from an
// address off its IP allowlist, a read-only key on a POST, or a feature the
// organization does not have (RefusalsNamed tells which, when the text does).
func IsForbidden(err error) bool { return StatusCode(err) == http.StatusForbidden }

// IsConflict reports whether err is the API's 409, such as a bundle
// requested before its job completed, or a project-scoped start while
// another job of the deployment is active (IsAnotherExportActive).
func IsConflict(err error) bool { return StatusCode(err) == http.StatusConflict }

// IsBadRequest reports whether err is the API's 400.
func IsBadRequest(err error) bool { return StatusCode(err) == http.StatusBadRequest }

// IsRateLimited reports whether err is the API's 429.
func IsRateLimited(err error) bool { return StatusCode(err) == http.StatusTooManyRequests }

// RetryAt returns when the API said a new attempt may go (the Retry-After
// of the *APIError in err's chain, from the answer's arrival), and false
// when it did not say.
func RetryAt(err error) (time.Time, bool) {
	var apiErr *APIError
	if errors.As(err, &apiErr) && !apiErr.RetryAt.IsZero() {
		return apiErr.RetryAt, true
	}
	return time.Time{}, false
}

// IsServerError reports whether err is a 5xx answer.
func IsServerError(err error) bool { return StatusCode(err) >= 500 }

// IsRetryDeadline reports a retry that was not attempted because its wait
// would have ended after the caller's deadline (FaultRetryOutlastsTimeout
// and its kin say more).
func IsRetryDeadline(err error) bool {
	var re *RetryError
	return errors.As(err, &re) && re.Wait > 0
}
