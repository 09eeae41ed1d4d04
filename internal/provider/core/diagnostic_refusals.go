package core

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// Why the API refuses a call with 401 or 403, and the fix of each cause.
// An admin key may have expired (401), be limited to an IP allowlist (403
// on any call) or be read-only (403 on every POST); the organization may
// lack the feature (403: static export not enabled, previews not on the
// plan). Each call lists in its CallText (Forbidden) the causes possible for it, most
// likely first. The answer's text is not documented: where it names a cause
// (mintlify.RefusalsNamed), the diagnostic says that one; otherwise it
// names every possible cause with its fix.

// RefusalCause is one reason for a 401 or 403, as diagnostics explain it.
type RefusalCause struct {
	// reason is what the answer's text says when it names this cause.
	reason mintlify.Refusal
	// summary is the diagnostic's summary when the text names this cause.
	summary string
	// what is the cause, as a clause ("the API key has expired ...").
	what func(op APIOperation) string
	// fix is what to do, in sentences.
	fix string
	// fixedAtCreation marks a restriction of the key, which only a new key
	// lifts (keyFixedAtCreation, said once after the causes).
	fixedAtCreation bool
}

// Refusals are the causes of one status for one call.
type Refusals struct {
	// Possible are listed, most likely first, when the text names none.
	Possible []RefusalCause
	// named are said only when the text names them: causes the API may
	// give for the call without their being likely enough to list.
	named []RefusalCause
}

// Or returns r with causes added to the possible ones, after them.
func (r Refusals) Or(causes ...RefusalCause) Refusals {
	r.Possible = append(slices.Clip(r.Possible), causes...)
	return r
}

// OrIfNamed returns r with causes that are said only when the text names
// them.
func (r Refusals) OrIfNamed(causes ...RefusalCause) Refusals {
	r.named = append(slices.Clip(r.named), causes...)
	return r
}

// The causes of every call: the key's (401 on any call; 403 from an
// allowlist on any call, and from a read-only key on a POST).
var (
	keyRejected  = Refusals{Possible: []RefusalCause{causeExpiredKey, causeRevokedKey}, named: []RefusalCause{causeNoAPIAccess}}
	readRefused  = Refusals{Possible: []RefusalCause{causeIPAllowlist}}
	WriteRefused = Refusals{Possible: []RefusalCause{causeIPAllowlist, causeReadOnlyKey}}
)

const keyFixedAtCreation = "A key's expiry, allowlist and scopes are fixed when it is created: the fix is a new key."

var (
	causeExpiredKey = RefusalCause{
		reason: mintlify.RefusalExpiredKey, summary: "Mintlify API Key Expired",
		what: func(APIOperation) string {
			return "the API key has expired (admin API keys expire 90 days after they are created, unless another " +
				"expiry was chosen)"
		},
		fix: fmt.Sprintf("Create a new admin API key on the API keys page of the Mintlify dashboard and put it in the "+
			"provider's `api_key` argument or the `%s` environment variable.", Env.APIKey),
	}
	causeRevokedKey = RefusalCause{
		reason: mintlify.RefusalRevokedKey, summary: "Mintlify API Key Revoked",
		what: func(APIOperation) string { return "the API key is wrong, or was revoked" },
		fix: fmt.Sprintf("Check that the provider's `api_key` argument or the `%s` environment variable holds a current "+
			"admin API key, which begins with `mint_`; if it was revoked, create a new one on the API keys page of "+
			"the Mintlify dashboard.", Env.APIKey),
	}
	causeNoAPIAccess = RefusalCause{
		reason: mintlify.RefusalNoAPIAccess, summary: "Mintlify Plan Without API Access",
		what: func(APIOperation) string {
			return "the organization's Mintlify plan has no access to the admin API (Pro and Enterprise plans have it)"
		},
		fix: "Upgrade the plan on the Mintlify dashboard, or use a key of an organization that has API access.",
	}
	causeIPAllowlist = RefusalCause{
		reason: mintlify.RefusalIPAllowlist, summary: "Mintlify API Key Not Allowed From This Address",
		what: func(APIOperation) string {
			return "the API key is limited to an IP allowlist that does not hold the address this request came from"
		},
		fix: "Hosted CI runners (such as GitHub-hosted runners or HCP Terraform) have no fixed address, so no " +
			"allowlist can hold them: run Terraform on a runner with a fixed egress address (a self-hosted runner, or " +
			"one behind a NAT gateway) with a key whose allowlist holds that address, or use a key created without an " +
			"allowlist.",
		fixedAtCreation: true,
	}
	causeReadOnlyKey = RefusalCause{
		reason: mintlify.RefusalReadOnlyKey, summary: "Mintlify API Key Is Read-Only",
		what: func(op APIOperation) string {
			if op.renewal != "" {
				return "the API key is read-only (it has the `read` scope only), and generating a fresh link is a " +
					"POST, so this key cannot renew the link"
			}
			return "the API key is read-only (it has the `read` scope only), and this request is a POST, which needs " +
				"the `write` scope"
		},
		fix:             "Create a key with the `write` scope and use it here.",
		fixedAtCreation: true,
	}
)

// NotOnPlan is a cause of a 403 that the API's text names: a feature the
// organization's Mintlify plan does not have. summary is the diagnostic's
// summary when the text names it, what completes "The answer names the
// cause: ...", and fix says what to do.
func NotOnPlan(summary, what, fix string) RefusalCause {
	return RefusalCause{reason: mintlify.RefusalNotOnPlan, summary: summary, what: func(APIOperation) string { return what },
		fix: fix}
}

// Renewing returns the operation as the renewal of a link that still
// stands: a refusal of the renewal ends with current, which says until when
// that link works.
func (op APIOperation) Renewing(current string) APIOperation {
	op.renewal = current
	return op
}

// Refused explains a 401 or 403 of the operation: the cause the answer's
// text names, or else every cause possible for the call, each with its
// fix. generic is the summary when the text names no single cause.
func (op APIOperation) Refused(f mintlify.Fault, head, generic string, r Refusals) (summary, detail string) {
	named := namedCauses(f, r)
	var b strings.Builder
	b.WriteString(head)
	summary = generic
	mentioned := named
	switch {
	case len(named) == 1:
		summary = named[0].summary
		fmt.Fprintf(&b, " The answer names the cause: %s. %s", named[0].what(op), named[0].fix)
	case len(named) > 1:
		b.WriteString(" The answer names several causes:")
		writeCauses(&b, op, named)
	case len(r.Possible) == 1:
		fmt.Fprintf(&b, " %s, and one cause is possible for this request: %s. %s", unnamed(f),
			r.Possible[0].what(op), r.Possible[0].fix)
	default:
		fmt.Fprintf(&b, " %s; the possible causes, most likely first:", unnamed(f))
		writeCauses(&b, op, r.Possible)
	}
	if len(named) == 0 {
		mentioned = r.Possible
	}
	detail = b.String()
	if slices.ContainsFunc(mentioned, func(c RefusalCause) bool { return c.fixedAtCreation }) {
		detail = followedBy(detail, keyFixedAtCreation)
	}
	if op.renewal != "" {
		detail = followedBy(detail, op.renewal)
	}
	return summary, detail
}

// unnamed says that the answer names no cause that applies: it says
// nothing of its cause, or names one that the request cannot have.
func unnamed(f mintlify.Fault) string {
	if len(f.Refusals) > 0 {
		return "The answer names no cause that this request can have"
	}
	return "The answer does not say why"
}

// namedCauses are the causes of r that the answer's text names.
func namedCauses(f mintlify.Fault, r Refusals) []RefusalCause {
	reasons := f.Refusals
	var named []RefusalCause
	for _, c := range slices.Concat(r.Possible, r.named) {
		if slices.Contains(reasons, c.reason) {
			named = append(named, c)
		}
	}
	return named
}

func writeCauses(b *strings.Builder, op APIOperation, causes []RefusalCause) {
	b.WriteString("\n")
	for _, c := range causes {
		fmt.Fprintf(b, "\n- %s. %s", Capitalized(c.what(op)), c.fix)
	}
}

// followedBy adds a sentence to a detail: as a paragraph of its own after
// a list, in the same paragraph otherwise.
func followedBy(detail, sentence string) string {
	if strings.Contains(detail, "\n") {
		return detail + "\n\n" + sentence
	}
	return detail + " " + sentence
}

// unauthorized explains a 401: the key's own causes, for every call.
func (op APIOperation) unauthorized(f mintlify.Fault) (summary, detail string) {
	return op.Refused(f, fmt.Sprintf("The Mintlify API rejected the API key while %s (HTTP %d: %s).", op.Doing,
		http.StatusUnauthorized, APIMessage(f)), "Mintlify API Key Rejected", keyRejected)
}

// forbidden explains a 403 by the causes possible for the call.
func (op APIOperation) forbidden(f mintlify.Fault) (summary, detail string) {
	return op.Refused(f, fmt.Sprintf("The Mintlify API refused %s (HTTP %d: %s).", op.Doing, http.StatusForbidden,
		APIMessage(f)), "Mintlify API Request Forbidden", op.text().Forbidden)
}
