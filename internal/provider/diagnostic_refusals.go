package provider

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// Why the API refuses a call with 401 or 403, and the fix of each cause.
// An admin key may have expired (401), be limited to an IP allowlist (403
// on any call) or be read-only (403 on every POST); the organization may
// lack the feature (403: static export not enabled, previews not on the
// plan). Each call lists in callTexts the causes possible for it, most
// likely first. The answer's text is not documented: where it names a cause
// (mintlify.RefusalsNamed), the diagnostic says that one; otherwise it
// names every possible cause with its fix.

// refusalCause is one reason for a 401 or 403, as diagnostics explain it.
type refusalCause struct {
	// reason is what the answer's text says when it names this cause.
	reason mintlify.Refusal
	// summary is the diagnostic's summary when the text names this cause.
	summary string
	// what is the cause, as a clause ("the API key has expired ...").
	what func(op apiOperation) string
	// fix is what to do, in sentences.
	fix string
	// fixedAtCreation marks a restriction of the key, which only a new key
	// lifts (keyFixedAtCreation, said once after the causes).
	fixedAtCreation bool
}

// refusals are the causes of one status for one call.
type refusals struct {
	// possible are listed, most likely first, when the text names none.
	possible []refusalCause
	// named are said only when the text names them: causes the API may
	// give for the call without their being likely enough to list.
	named []refusalCause
}

// or returns r with causes added to the possible ones, after them.
func (r refusals) or(causes ...refusalCause) refusals {
	r.possible = append(slices.Clip(r.possible), causes...)
	return r
}

// orIfNamed returns r with causes that are said only when the text names
// them.
func (r refusals) orIfNamed(causes ...refusalCause) refusals {
	r.named = append(slices.Clip(r.named), causes...)
	return r
}

// The causes of every call: the key's (401 on any call; 403 from an
// allowlist on any call, and from a read-only key on a POST).
var (
	keyRejected  = refusals{possible: []refusalCause{causeExpiredKey, causeRevokedKey}}
	readRefused  = refusals{possible: []refusalCause{causeIPAllowlist}}
	writeRefused = refusals{possible: []refusalCause{causeIPAllowlist, causeReadOnlyKey}}
)

const keyFixedAtCreation = "A key's expiry, allowlist and scopes are fixed when it is created: the fix is a new key."

var (
	causeExpiredKey = refusalCause{
		reason: mintlify.RefusalExpiredKey, summary: "Mintlify API Key Expired",
		what: func(apiOperation) string {
			return "the API key has expired (admin API keys expire 90 days after they are created, unless another " +
				"expiry was chosen)"
		},
		fix: fmt.Sprintf("Create a new admin API key on the API keys page of the Mintlify dashboard and put it in the "+
			"provider's `api_key` argument or the `%s` environment variable.", envAPIKey),
	}
	causeRevokedKey = refusalCause{
		reason: mintlify.RefusalRevokedKey, summary: "Mintlify API Key Revoked",
		what: func(apiOperation) string { return "the API key is wrong, or was revoked" },
		fix: fmt.Sprintf("Check that the provider's `api_key` argument or the `%s` environment variable holds a current "+
			"admin API key, which begins with `mint_`; if it was revoked, create a new one on the API keys page of "+
			"the Mintlify dashboard.", envAPIKey),
	}
	causeIPAllowlist = refusalCause{
		reason: mintlify.RefusalIPAllowlist, summary: "Mintlify API Key Not Allowed From This Address",
		what: func(apiOperation) string {
			return "the API key is limited to an IP allowlist that does not hold the address this request came from"
		},
		fix: "Hosted CI runners (such as GitHub-hosted runners or HCP Terraform) have no fixed address, so no " +
			"allowlist can hold them: run Terraform on a runner with a fixed egress address (a self-hosted runner, or " +
			"one behind a NAT gateway) with a key whose allowlist holds that address, or use a key created without an " +
			"allowlist.",
		fixedAtCreation: true,
	}
	causeReadOnlyKey = refusalCause{
		reason: mintlify.RefusalReadOnlyKey, summary: "Mintlify API Key Is Read-Only",
		what: func(op apiOperation) string {
			if op.renewal != nil {
				return "the API key is read-only (it has the `read` scope only), and generating a fresh link is a " +
					"POST, so this key cannot renew the link"
			}
			return "the API key is read-only (it has the `read` scope only), and this request is a POST, which needs " +
				"the `write` scope"
		},
		fix:             "Create a key with the `write` scope and use it here.",
		fixedAtCreation: true,
	}
	causeStaticExportNotEnabled = refusalCause{
		reason: mintlify.RefusalNotOnPlan, summary: "Static Export Not Enabled",
		what: func(apiOperation) string {
			return "static export is not enabled for the organization of the API key (it is available on Mintlify " +
				"Enterprise plans, as a private beta)"
		},
		fix: "Contact Mintlify to enable it, then apply again.",
	}
	// causePreviewsNotOnPlan is the 403 the API documents for "Trigger
	// preview deployment", named first among its causes (triggerPreviewCall).
	causePreviewsNotOnPlan = refusalCause{
		reason: mintlify.RefusalNotOnPlan, summary: "Previews Not On The Mintlify Plan",
		what: func(apiOperation) string {
			return "preview deployments are not on the Mintlify plan of the organization of the API key"
		},
		fix: "Upgrade the plan on the Mintlify dashboard, or contact Mintlify, then apply again.",
	}
)

// renewal is the link in force while a renewal runs: a failed renewal says
// until when it still works.
type renewal struct {
	expiresAt, now time.Time
}

// renewing returns the operation as the renewal of a link that expires at
// expiresAt (now is the provider's clock).
func (op apiOperation) renewing(expiresAt, now time.Time) apiOperation {
	op.renewal = &renewal{expiresAt: expiresAt, now: now}
	return op
}

// currentLink says until when the link the renewal would have replaced
// works, for the diagnostic of a failed renewal.
func (op apiOperation) currentLink() string {
	r := op.renewal
	at := r.expiresAt.UTC().Format(time.RFC3339)
	if !r.now.Before(r.expiresAt) {
		return fmt.Sprintf("The current link of static export job %s expired at %s: nothing can download the bundle "+
			"until a renewal succeeds.", op.jobID, at)
	}
	return fmt.Sprintf("The current link of static export job %s keeps working until %s (in %s): fix the key before "+
		"then, and apply again to renew it.", op.jobID, at, roughly(r.expiresAt.Sub(r.now)))
}

// roughly is d to the minute ("1h47m"), or "less than a minute".
func roughly(d time.Duration) string {
	if d < time.Minute {
		return "less than a minute"
	}
	s := strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	return strings.Replace(s, "h0m", "h", 1)
}

// refused explains a 401 or 403 of the operation: the cause the answer's
// text names, or else every cause possible for the call, each with its
// fix. generic is the summary when the text names no single cause.
func (op apiOperation) refused(err error, head, generic string, r refusals) (summary, detail string) {
	named := namedCauses(err, r)
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
	case len(r.possible) == 1:
		fmt.Fprintf(&b, " %s, and one cause is possible for this request: %s. %s", unnamed(err),
			r.possible[0].what(op), r.possible[0].fix)
	default:
		fmt.Fprintf(&b, " %s; the possible causes, most likely first:", unnamed(err))
		writeCauses(&b, op, r.possible)
	}
	if len(named) == 0 {
		mentioned = r.possible
	}
	detail = b.String()
	if slices.ContainsFunc(mentioned, func(c refusalCause) bool { return c.fixedAtCreation }) {
		detail = followedBy(detail, keyFixedAtCreation)
	}
	if op.renewal != nil {
		detail = followedBy(detail, op.currentLink())
	}
	return summary, detail
}

// unnamed says that the answer names no cause that applies: it says
// nothing of its cause, or names one that the request cannot have.
func unnamed(err error) string {
	if len(mintlify.RefusalsNamed(err)) > 0 {
		return "The answer names no cause that this request can have"
	}
	return "The answer does not say why"
}

// namedCauses are the causes of r that the answer's text names.
func namedCauses(err error, r refusals) []refusalCause {
	reasons := mintlify.RefusalsNamed(err)
	var named []refusalCause
	for _, c := range slices.Concat(r.possible, r.named) {
		if slices.Contains(reasons, c.reason) {
			named = append(named, c)
		}
	}
	return named
}

func writeCauses(b *strings.Builder, op apiOperation, causes []refusalCause) {
	b.WriteString("\n")
	for _, c := range causes {
		fmt.Fprintf(b, "\n- %s. %s", capitalized(c.what(op)), c.fix)
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
func (op apiOperation) unauthorized(err error) (summary, detail string) {
	return op.refused(err, fmt.Sprintf("The Mintlify API rejected the API key while %s (HTTP %d: %s).", op.doing,
		http.StatusUnauthorized, apiMessage(err)), "Mintlify API Key Rejected", keyRejected)
}

// forbidden explains a 403 by the causes possible for the call.
func (op apiOperation) forbidden(err error) (summary, detail string) {
	return op.refused(err, fmt.Sprintf("The Mintlify API refused %s (HTTP %d: %s).", op.doing, http.StatusForbidden,
		apiMessage(err)), "Mintlify API Request Forbidden", op.text().forbidden)
}
