package core

import (
	"fmt"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The diagnostics of a hostile or overloaded network: a bundle link the
// client would not use, a redirect to plain http, an id or link in an
// answer that the client refused, a job status the API does not document,
// a rate limit that outlasts the timeout.
// APIOperation.describe (diagnostics.go) picks them, by the fault's kind.

// unsafeLinkDiagnostic explains a bundle link the client refused to use.
func unsafeLinkDiagnostic(e *mintlify.UnsafeLinkError, doing string) (summary, detail string) {
	if e.NotASCII {
		// e.Host is escaped by the client: no control or look-alike
		// character reaches the terminal.
		return "Bundle Link Host Not ASCII", fmt.Sprintf("The Mintlify API returned a bundle link for static export "+
			"job %s whose host, %s, is not an IP address or an ASCII DNS name (IDNA A-labels, `xn--…`), while %s. "+
			"The provider refused it: such a host can pass for another one. Apply again; if the API keeps "+
			"answering this way, report the job ID to Mintlify support.", e.JobID, e.Host, doing)
	}
	if !e.Plain {
		return "Invalid Bundle Link", fmt.Sprintf("The Mintlify API returned a bundle link for static export job "+
			"%s that is not an absolute http(s) URL, while %s, so the provider did not use it. Apply again; if the "+
			"API keeps answering this way, report the job ID to Mintlify support.", e.JobID, doing)
	}
	return "Unencrypted Bundle Link Refused", fmt.Sprintf("The Mintlify API returned a bundle link for static "+
		"export job %s that uses plain http (host %s), while %s. The provider refused it: an unencrypted link "+
		"would expose the bundle, and the signature that grants access to it, to anyone on the network path. "+
		"Plain http links are accepted only when the provider's `base_url` is a loopback address, such as a local "+
		"test API. Check that `base_url` is the Mintlify API and not a proxy that rewrites links; if it is, report "+
		"the job ID to Mintlify support.", e.JobID, e.Host, doing)
}

// rateLimitOutlastsTimeout explains a wait or a retry that stopped at once
// because the pause the API asked for (capped) would end after the
// operation's timeout.
func rateLimitOutlastsTimeout(f mintlify.Fault, doing string, b WaitBudget) (summary, detail string) {
	e := f.Retry
	asked := fmt.Sprintf("named no `Retry-After`, so the provider's next request was due in %s", e.Wait.Round(time.Second))
	if f.RetryAfter > 0 {
		asked = fmt.Sprintf("asked the provider to wait %s (`Retry-After`)", f.RetryAfter)
		if f.RetryAfter > e.Wait {
			asked += fmt.Sprintf("; the provider waits at most %s", e.Wait.Round(time.Second))
		}
	}
	return "Mintlify API Rate Limiting", fmt.Sprintf("The Mintlify API is rate limiting: it answered HTTP 429 (%s) "+
		"while %s and %s, but the operation's timeout ends in %s, so the provider stopped at once instead of waiting "+
		"in vain. Wait a few minutes and apply again, run fewer Mintlify operations at once (`terraform apply "+
		"-parallelism=2`), or %s.", APIMessage(f), doing, asked, e.Left.Round(time.Second), b.Raise())
}

func turnOutlastsTimeout(f mintlify.Fault, doing string, b WaitBudget) (summary, detail string) {
	e := f.Retry
	waited := "The provider did not wait"
	switch {
	case e.Turns == 1:
		waited = "The provider waited its turn once"
	case e.Turns > 1:
		waited = fmt.Sprintf("The provider waited its turn %d times", e.Turns)
	}
	budget := "the operation's timeout"
	if b.limit != "" {
		budget = b.String()
	}
	return "Mintlify Rate Limit Outlasted The Timeout", fmt.Sprintf("Mintlify's rate limit on %s (%s) was used up "+
		"while %s: the API answered HTTP 429 (%s). The limit is shared by every workspace, CI job and provider block "+
		"of the organization. %s, but %s ends before the next turn (due in %s, %s left). %s, so that the run "+
		"can wait its turn, or run fewer workspaces of the organization at once.", e.Limit.Name, f.LimitRate,
		doing, APIMessage(f), waited, budget, e.Wait.Round(time.Second), e.Left.Round(time.Second),
		Capitalized(b.Raise()))
}

// outOfCredits explains a refusal for credits: not a rate limit, so
// waiting does not help.
func outOfCredits(f mintlify.Fault, doing string) (summary, detail string) {
	return "Mintlify Credits Used Up", fmt.Sprintf("The Mintlify API refused the request while %s because the "+
		"organization's credits are used up (HTTP %d: %s). Automation and agent runs spend credits, and overages "+
		"are off unless an admin turns them on. This is not a rate limit: applying again will not help until "+
		"credits are available. Check the credits page of the Mintlify dashboard: turn on overages or add "+
		"credits, or wait for the month's credits to renew, then apply again.", doing, f.Status, APIMessage(f))
}

// unknownStatusDiagnostic explains a wait that ended at once on a job status
// the API does not document. It never says the job keeps running: nobody
// knows what the status means.
func unknownStatusDiagnostic(e *mintlify.UnknownStatusError) (summary, detail string) {
	summary = "Unexpected Static Export Job Status"
	if e.What != "static export job" {
		summary = "Unexpected Agent Job Status"
	}
	return summary, fmt.Sprintf("The Mintlify API reported the status `%s` for %s %s, which this provider does "+
		"not know: the API documents only %s. The provider stopped waiting at once rather than wait for a status "+
		"that may never come. The Mintlify dashboard shows what happened to the job; a newer version of the "+
		"provider may know this status.", e.Status, e.What, e.JobID, BacktickList(e.Known))
}

// downgradeDiagnostic explains a redirect from https to plain http, which
// the client refused to follow.
func downgradeDiagnostic(e *mintlify.DowngradeError, doing string) (summary, detail string) {
	return "Redirect To Plain HTTP Refused", fmt.Sprintf("While %s, https://%s redirected the request to plain "+
		"%s://%s. The provider refused to follow it: the request, with any credential its link carries, would "+
		"travel unencrypted. Check that the provider's `base_url` is the Mintlify API and that no proxy on the way "+
		"redirects to http; if the redirect comes from Mintlify or its storage, report it to Mintlify support.",
		doing, e.From, e.Scheme, e.To)
}

// invalidValueDiagnostic explains an answer holding an id, a link or a
// name that the client refused to pass on.
func invalidValueDiagnostic(e *mintlify.InvalidValueError, doing string) (summary, detail string) {
	return "Invalid Answer From The Mintlify API", fmt.Sprintf("While %s, the Mintlify API answered `%s` with a "+
		"`%s` the provider does not accept, %s: %s. The provider neither stored nor used it. Apply again; if the API "+
		"keeps answering this way, report it to Mintlify support.", doing, e.Route, e.Field, e.Shown, e.Rule)
}
