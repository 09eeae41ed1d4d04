package mintlify

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// What a failed call's error means, classified once, here, where the
// client knows its errors: the caller (the provider's diagnostics) reads
// one Fault with a switch on its Kind, instead of asking the error one
// question at a time.

// FaultKind is what kind of failure a call's error is. The kinds are
// listed in the order Classify tells them apart: a failure that is more
// than one (a 429 whose retry would have outlasted the deadline) is the
// first of them.
type FaultKind int

const (
	// FaultOther is none of the kinds below; Err says what happened.
	FaultOther FaultKind = iota
	// FaultNotFound is the API's 404.
	FaultNotFound
	// FaultInterrupted is a call the caller cancelled (Ctrl-C).
	FaultInterrupted
	// FaultUnsafeLink, FaultUnknownStatus, FaultDowngrade and
	// FaultInvalidValue are answers the client refused to pass on; the
	// matching field of Fault holds the refusal.
	FaultUnsafeLink
	FaultUnknownStatus
	FaultDowngrade
	FaultInvalidValue
	// FaultTurnOutlastsTimeout is a call that waited for its turn within a
	// documented rate limit (Retry.Limit) until the next turn would have
	// come after the caller's deadline.
	FaultTurnOutlastsTimeout
	// FaultRateLimitOutlastsTimeout is a 429 whose next retry would have
	// come after the caller's deadline.
	FaultRateLimitOutlastsTimeout
	// FaultRetryOutlastsTimeout is any other failure whose next retry would
	// have come after the caller's deadline.
	FaultRetryOutlastsTimeout
	// FaultDeadline is the caller's deadline, reached during a request or
	// a wait.
	FaultDeadline
	// FaultOutOfCredits is an answer that the organization's credits are
	// spent, whatever its status (see IsOutOfCredits).
	FaultOutOfCredits
	// FaultUnauthorized (401), FaultForbidden (403), FaultBadRequest (400),
	// FaultConflict (409), FaultRateLimited (429, retries run out) and
	// FaultServerError (5xx) are the API's answers by status;
	// FaultOtherStatus is any other status.
	FaultUnauthorized
	FaultForbidden
	FaultBadRequest
	FaultConflict
	FaultRateLimited
	FaultServerError
	FaultOtherStatus
	// FaultUnreachable is no usable answer: a refused or dropped
	// connection, a timeout, a body that is not the documented JSON.
	FaultUnreachable
)

// Fault is a failed call's error, classified: its kind, the API's answer
// (status and words), the reasons a refusal names, and the retry facts.
type Fault struct {
	Kind FaultKind
	// Err is the error classified.
	Err error

	// Status is the HTTP status of the API's answer (the last attempt's),
	// 0 when no answer came; Message is the API's own error text, cleaned
	// and with secrets masked; RetryAfter is the answer's Retry-After, 0
	// when it named none.
	Status     int
	Message    string
	RetryAfter time.Duration
	// Refusals are the reasons the text of a 401 or 403 names
	// (RefusalsNamed).
	Refusals []Refusal
	// Transport is the failure beneath a *TransportError: no usable answer.
	Transport error

	// Attempts is how many requests the call sent. Retry is the retries'
	// account when the call was retried (nil otherwise): why they stopped,
	// the wait that was not started and the time left, the limit whose
	// turns it waited for.
	Attempts int
	Retry    *RetryError
	// LimitRate is the rate of the documented limit whose turns the call
	// waited for (Retry.Limit), in words: "10 requests per hour per
	// organization"; "" for none.
	LimitRate string
	// Deadline is true when the caller's deadline ended the call, whatever
	// the kind.
	Deadline bool
	// Start is the account of a call that starts something
	// (StartStaticExport, CreateAgentJob, SendAgentJobMessage): whether it
	// may have started nevertheless; nil for other calls.
	Start *StartError

	// The refusal of an answer the client would not pass on, for the
	// matching kind.
	UnsafeLink    *UnsafeLinkError
	UnknownStatus *UnknownStatusError
	Downgrade     *DowngradeError
	InvalidValue  *InvalidValueError
}

// Classify reads everything a caller may ask of err, once.
func Classify(err error) Fault {
	f := Fault{Err: err, Attempts: Attempts(err), Deadline: errors.Is(err, context.DeadlineExceeded)}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		f.Status, f.Message, f.RetryAfter = apiErr.StatusCode, apiErr.Message, apiErr.RetryAfter
	}
	var transportErr *TransportError
	if errors.As(err, &transportErr) {
		f.Transport = transportErr.Err
	}
	if errors.As(err, &f.Retry) && f.Retry.Limit != nil {
		f.LimitRate = f.Retry.Limit.Rate()
	}
	errors.As(err, &f.Start)
	f.Refusals = RefusalsNamed(err)
	f.Kind = f.refusedOrStopped(err)
	if f.Kind == FaultOther {
		f.Kind = f.answered(err)
	}
	return f
}

// refusedOrStopped is the kind of a failure that is not the API's answer
// as such: a 404 (which every caller tells first), an interruption, an
// answer the client refused, a deadline; FaultOther for none.
func (f *Fault) refusedOrStopped(err error) FaultKind {
	retryStopped := f.Retry != nil && f.Retry.Wait > 0 && f.Deadline
	switch {
	case f.Status == http.StatusNotFound:
		return FaultNotFound
	case errors.Is(err, context.Canceled):
		return FaultInterrupted
	case errors.As(err, &f.UnsafeLink):
		return FaultUnsafeLink
	case errors.As(err, &f.UnknownStatus):
		return FaultUnknownStatus
	case errors.As(err, &f.Downgrade):
		return FaultDowngrade
	case errors.As(err, &f.InvalidValue):
		return FaultInvalidValue
	case retryStopped && f.Retry.Limit != nil:
		return FaultTurnOutlastsTimeout
	case retryStopped && f.Status == http.StatusTooManyRequests:
		return FaultRateLimitOutlastsTimeout
	case retryStopped:
		return FaultRetryOutlastsTimeout
	case f.Deadline:
		return FaultDeadline
	}
	return FaultOther
}

// answered is the kind of the API's answer, by its words and its status,
// or of the failure to get one.
func (f *Fault) answered(err error) FaultKind {
	switch {
	case IsOutOfCredits(err):
		return FaultOutOfCredits
	case f.Status == http.StatusUnauthorized:
		return FaultUnauthorized
	case f.Status == http.StatusForbidden:
		return FaultForbidden
	case f.Status == http.StatusBadRequest:
		return FaultBadRequest
	case f.Status == http.StatusConflict:
		return FaultConflict
	case f.Status == http.StatusTooManyRequests:
		return FaultRateLimited
	case f.Status >= 500:
		return FaultServerError
	case f.Status != 0:
		return FaultOtherStatus
	case f.Transport != nil:
		return FaultUnreachable
	}
	return FaultOther
}
