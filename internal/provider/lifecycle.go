package provider

import (
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The lifecycle of mintlify_static_export_bundle is decided in one place:
// planLink, a pure function of what the state, the configuration and the
// last refresh say. ModifyPlan gathers those facts, asks planLink, shapes the
// plan after the answer and carries the answer to Update in planned private
// state; Update does what it says and nothing else. No decision reads the
// clock: Terraform plans again during apply, and both plans must agree.
//
// A change of `domain`, `version`, `paths` or `triggers` is not decided here:
// the schema's plan modifiers replace the resource for it, as Terraform shows
// them ("forces replacement"), and so does a tainted resource.

// linkAction is what a plan does about the bundle's job and link.
type linkAction string

const (
	// actionNone makes no request: the link is fresh, or nothing can be
	// judged. An update planned for other reasons (such as `timeouts`)
	// only stores the configuration.
	actionNone linkAction = "none"
	// actionRenew generates a fresh link for the same completed job.
	actionRenew linkAction = "renew"
	// actionResume waits for the job in state unless it completed, then
	// generates its first link: a create that ended early and was untainted.
	actionResume linkAction = "resume"
	// actionAdoptImport takes `domain`, `version`, `paths` and `triggers`
	// from configuration for an imported job, waits for it unless it
	// completed, and generates its first link.
	actionAdoptImport linkAction = "adopt-import"
	// actionReplaceGone replaces the resource: the last refresh found the
	// job gone (HTTP 404), so no link can ever be generated for it.
	actionReplaceGone linkAction = "replace-gone"
	// actionReplaceFailed replaces the resource: the job failed, and a
	// failed job has no bundle.
	actionReplaceFailed linkAction = "replace-failed"
)

// linkActions lists every action, for validation and tests.
var linkActions = []linkAction{actionNone, actionRenew, actionResume, actionAdoptImport, actionReplaceGone, actionReplaceFailed}

// replaces reports whether the action replaces the resource, which starts a
// new export.
func (a linkAction) replaces() bool { return a == actionReplaceGone || a == actionReplaceFailed }

// requestsLink reports whether the apply of the action generates a link.
func (a linkAction) requestsLink() bool {
	return a == actionRenew || a == actionResume || a == actionAdoptImport
}

// linkFacts is everything planLink decides on. All of it comes from the
// prior state, the planned configuration and private state; none of it
// from the clock.
type linkFacts struct {
	// JobID is the job in state, for the reasons given.
	JobID string
	// Imported is true on the first plan after an import: the prior state
	// has no `domain`, which is required in configuration.
	Imported bool
	// Gone is true when the last refresh got HTTP 404 for the job.
	Gone bool
	// Status is the job's status when last read; "" when never read.
	Status string
	// HasLink is true when a link was generated (`expires_at` is set),
	// whether or not the state keeps it (`store_link`).
	HasLink bool
	// LinkWantedInState is true when `store_link` was turned on for a link
	// that the state does not hold.
	LinkWantedInState bool
	// Link is the link's expiry and generation time (zero when unknown).
	Link linkState
	// RenewBefore is the configured `renew_before`, zero when unset.
	RenewBefore time.Duration
	// RenewBeforeUnknown is true when `renew_before` is only known after
	// apply, so the link cannot be judged.
	RenewBeforeUnknown bool
	// RefreshedAt is when the last refresh read the job; zero when none
	// was recorded (a plan with -refresh=false on an old state).
	RefreshedAt time.Time
}

// planLink decides what the plan does about the job and its link, and why.
// The reason is a phrase for logs and warnings ("" for actionNone when there
// is nothing to say). The order of the cases is the order of precedence.
func planLink(f linkFacts) (linkAction, string) {
	switch {
	case f.Gone:
		return actionReplaceGone, fmt.Sprintf("the Mintlify API answered HTTP 404 for the static export job %s "+
			"on the last refresh, so its link can be neither renewed nor generated", f.JobID)
	case f.Imported:
		// Even a failed job: the apply reports why it failed, and the
		// plan after that replaces it.
		return actionAdoptImport, fmt.Sprintf("adopting the imported static export job %s", f.JobID)
	case f.Status == mintlify.StatusFailed:
		return actionReplaceFailed, fmt.Sprintf("the static export job %s failed, and a failed job has no bundle", f.JobID)
	case !f.HasLink:
		return actionResume, fmt.Sprintf("the static export job %s has no link yet", f.JobID)
	case f.Link.ExpiresAt.IsZero():
		return actionRenew, "the expiry of the link in state is unknown"
	case f.LinkWantedInState:
		return actionRenew, "`store_link` is now true, and the state holds no link to keep"
	case f.RenewBeforeUnknown:
		return actionNone, "`renew_before` is only known after apply, so the link is not judged in this plan"
	case f.RefreshedAt.IsZero():
		return actionNone, "no refresh has been recorded, so the link is not judged in this plan"
	}
	if reason := renewalReason(f.Link, f.RenewBefore, f.RefreshedAt); reason != "" {
		return actionRenew, reason
	}
	return actionNone, ""
}

// capitalize turns a reason into the start of a sentence.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
