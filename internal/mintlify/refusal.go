package mintlify

import (
	"errors"
	"net/http"
	"regexp"
)

// Why the API refuses a request with 401 or 403. An admin key can expire
// (401 from then on), be limited to an IP allowlist (403 from any other
// address) and be read-only (403 on every POST); a 403 can also mean that
// the organization's plan lacks the feature (static export not enabled,
// previews not on the plan). The API's error text for these is not
// documented, so RefusalsNamed reads it conservatively: a cause counts only
// when the text names it in so many words.

// Refusal is one reason the API gives for refusing a request.
type Refusal string

const (
	// RefusalExpiredKey is an admin key past its expiry (401).
	RefusalExpiredKey Refusal = "expired key"
	// RefusalRevokedKey is an admin key that was revoked or deleted (401).
	RefusalRevokedKey Refusal = "revoked key"
	// RefusalIPAllowlist is a key used from an address that is not on its
	// IP allowlist (403).
	RefusalIPAllowlist Refusal = "IP allowlist"
	// RefusalReadOnlyKey is a key without the write scope used for a
	// request other than GET or HEAD (403).
	RefusalReadOnlyKey Refusal = "read-only key"
	// RefusalNotOnPlan is a feature the organization does not have: static
	// export not enabled, previews not on the plan (403).
	RefusalNotOnPlan Refusal = "not on the plan"
)

// refusalWords are, for each status, the words that name each reason. They
// are whole words or phrases, matched without regard to case, and chosen so
// that a text naming one reason does not name another: "Forbidden",
// "Unauthorized" and "Invalid or missing API key" name none.
var refusalWords = map[int][]struct {
	refusal Refusal
	words   *regexp.Regexp
}{
	http.StatusUnauthorized: {
		{RefusalExpiredKey, regexp.MustCompile(`(?i)\bexpir(ed|y|es)\b`)},
		{RefusalRevokedKey, regexp.MustCompile(`(?i)\b(revoked|deleted|deactivated)\b`)},
		{RefusalNoAPIAccess, regexp.MustCompile(`(?i)\b(api access|access to the (admin )?api)\b`)},
	},
	http.StatusForbidden: {
		{RefusalIPAllowlist, regexp.MustCompile(`(?i)\b(ip|ips|ip address(es)?|allow[- ]?list(ed)?|whitelist(ed)?|cidr)\b`)},
		{RefusalReadOnlyKey, regexp.MustCompile(`(?i)\b(scopes?|read[- ]?only|write (access|permission|scope))\b`)},
		{RefusalNotOnPlan, regexp.MustCompile(`(?i)\b(not enabled|not available|enterprise|plans?|upgrade|contact sales)\b`)},
	},
}

// RefusalsNamed returns the reasons that the error text of a 401 or 403 in
// err's chain names, in the order of the constants above; none for any
// other error, and for a text that does not tell (a bare "Forbidden").
func RefusalsNamed(err error) []Refusal {
	status := StatusCode(err)
	words, ok := refusalWords[status]
	if !ok {
		return nil
	}
	msg := apiMessage(err)
	var named []Refusal
	for _, w := range words {
		if w.words.MatchString(msg) {
			named = append(named, w.refusal)
		}
	}
	return named
}

// apiMessage is the (already cleaned) error text of the *APIError in err's
// chain, or "".
func apiMessage(err error) string {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Message
	}
	return ""
}
