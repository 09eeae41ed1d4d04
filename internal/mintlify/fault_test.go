package mintlify

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestClassify checks that each failure gets its one kind, in the order
// Classify tells them apart, with the facts the diagnostics read.
func TestClassify(t *testing.T) {
	t.Parallel()
	api := func(status int, msg string) *APIError { return &APIError{StatusCode: status, Message: msg} }
	stopped := func(last error, limit *Limit) error {
		return &RetryError{Attempts: 3, Err: last, Stop: context.DeadlineExceeded, Wait: 5, Left: 1, Limit: limit}
	}
	for _, c := range []struct {
		name string
		err  error
		kind FaultKind
	}{
		{"404 before an interruption", &RetryError{Attempts: 2, Err: api(404, "gone"), Stop: context.Canceled}, FaultNotFound},
		{"interrupted", fmt.Errorf("waiting: %w", context.Canceled), FaultInterrupted},
		{"unsafe link", &UnsafeLinkError{JobID: "se_1", Plain: true}, FaultUnsafeLink},
		{"unknown status", &UnknownStatusError{What: "agent job", Status: "cancelled"}, FaultUnknownStatus},
		{"downgrade", &TransportError{Err: &DowngradeError{From: "a", To: "b", Scheme: "http"}}, FaultDowngrade},
		{"invalid value", &InvalidValueError{Field: "jobId"}, FaultInvalidValue},
		{"turn outlasts", stopped(api(429, "slow down"), &Limit{Name: "trigger"}), FaultTurnOutlastsTimeout},
		{"429 outlasts", stopped(api(429, "slow down"), nil), FaultRateLimitOutlastsTimeout},
		{"retry outlasts", stopped(api(503, "busy"), nil), FaultRetryOutlastsTimeout},
		{"deadline", context.DeadlineExceeded, FaultDeadline},
		{"credits", api(429, "Out of credits"), FaultOutOfCredits},
		{"401", api(401, "API key expired"), FaultUnauthorized},
		{"403", api(403, "Forbidden"), FaultForbidden},
		{"400", api(400, "bad"), FaultBadRequest},
		{"409", api(409, "busy"), FaultConflict},
		{"429", &RetryError{Attempts: 4, Err: api(429, "slow down")}, FaultRateLimited},
		{"5xx", api(502, "bad gateway"), FaultServerError},
		{"other status", api(418, "teapot"), FaultOtherStatus},
		{"unreachable", &TransportError{Err: errors.New("connection refused")}, FaultUnreachable},
		{"other", errors.New("boom"), FaultOther},
	} {
		if got := Classify(c.err); got.Kind != c.kind {
			t.Errorf("%s: kind %d, want %d", c.name, got.Kind, c.kind)
		}
	}
	f := Classify(&StartError{MayHaveStarted: true, Err: &RetryError{Attempts: 3, Err: api(401, "API key expired.")}})
	if f.Status != 401 || f.Message != "API key expired." || f.Attempts != 3 || f.Start == nil || !f.Start.MayHaveStarted ||
		len(f.Refusals) != 1 || f.Refusals[0] != RefusalExpiredKey {
		t.Errorf("facts of a refused start: %+v", f)
	}
}
