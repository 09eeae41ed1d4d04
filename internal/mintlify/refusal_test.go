package mintlify

import (
	"errors"
	"slices"
	"testing"
)

// TestRefusalsNamed: a 401 or 403 names its cause only when its text says
// so in so many words; bare texts, and the fake's own, name none.
func TestRefusalsNamed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status int
		text   string
		want   []Refusal
	}{
		{401, "Unauthorized", nil},
		{401, "Invalid or missing API key", nil},
		{401, "API key expired on 2026-11-01", []Refusal{RefusalExpiredKey}},
		{401, "This API key has expired.", []Refusal{RefusalExpiredKey}},
		{401, "The API key was revoked", []Refusal{RefusalRevokedKey}},
		{403, "Forbidden", nil},
		{403, "Access denied", nil},
		{403, "Request from IP 203.0.113.7 is not allowed for this API key", []Refusal{RefusalIPAllowlist}},
		{403, "Address not in the key's allowlist", []Refusal{RefusalIPAllowlist}},
		{403, "API key lacks the required scope: write", []Refusal{RefusalReadOnlyKey}},
		{403, "This key is read-only", []Refusal{RefusalReadOnlyKey}},
		{403, "Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan.", []Refusal{RefusalNotOnPlan}},
		{403, "Preview deployments are not available on your current plan.", []Refusal{RefusalNotOnPlan}},
		{403, "read-only key used from an IP outside the allowlist", []Refusal{RefusalIPAllowlist, RefusalReadOnlyKey}},
		// The words of one status mean nothing in another.
		{401, "IP not allowed", nil},
		{403, "expired", nil},
		{500, "read-only replica unavailable", nil},
		// Parts of words are not words.
		{403, "Zip archive forbidden; description unscoped", nil},
	} {
		err := &RetryError{Attempts: 1, Err: &APIError{StatusCode: tt.status, Message: tt.text}}
		if got := RefusalsNamed(err); !slices.Equal(got, tt.want) {
			t.Errorf("HTTP %d %q: named %q, want %q", tt.status, tt.text, got, tt.want)
		}
	}
	if got := RefusalsNamed(errors.New("expired")); got != nil {
		t.Errorf("a non-API error names %q", got)
	}
}
