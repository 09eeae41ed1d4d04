package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/agentjob"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/staticexport"
)

// The words a user reads for each cause: what it is and its fix.
var causeWords = map[string][]string{
	"expired":     {"the API key has expired", "90 days", "Create a new admin API key", "`api_key`", "`MINTLIFY_API_KEY`"},
	"revoked":     {"the API key is wrong, or was revoked", "begins with `mint_`", "create a new one"},
	"allowlist":   {"IP allowlist that does not hold the address", "Hosted CI runners", "fixed egress address", "a key created without an allowlist"},
	"read-only":   {"read-only (it has the `read` scope only)", "is a POST", "Create a key with the `write` scope"},
	"not enabled": {"static export is not enabled", "Enterprise plans, as a private beta", "Contact Mintlify to enable it"},
	"previews":    {"preview deployments are not on the Mintlify plan", "Upgrade the plan"},
}

// causeOf finds a cause's words in a detail: the position of its first
// words (case aside, as a listed cause starts a sentence), or -1.
func causeOf(detail, cause string) int {
	return strings.Index(strings.ToLower(detail), strings.ToLower(causeWords[cause][0]))
}

// TestRefusalCauses: for each call, a 401 or 403 names the causes possible
// for its method and status, most likely first, each with its fix; the one
// the answer's text names when it names one; never a cause that cannot
// apply (a read-only key on a GET, static export on an agent job).
func TestRefusalCauses(t *testing.T) {
	t.Parallel()
	const (
		expiredText   = "API key expired"
		allowlistText = "Request from IP 203.0.113.7 is not on the allowlist of this API key"
		scopeText     = "This API key is read-only"
		disabledText  = "Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan."
	)
	start, get, bundle := staticexport.StartStaticExportOp("docs.example.com"), staticexport.GetStaticExportJobOp("se_1"), staticexport.GenerateBundleOp("se_1")
	create, read, message := agentjob.CreateAgentJobOp("proj_1"), agentjob.GetAgentJobOp("proj_1", "aj_1"), agentjob.SendAgentJobMessageOp("proj_1", "aj_1")
	cases := []struct {
		op      core.APIOperation
		status  int
		text    string
		summary string
		causes  []string // in this order; every other cause absent
	}{
		// 401: the same two causes on every call, the expiry first.
		{start, 401, "Unauthorized", "Mintlify API Key Rejected", []string{"expired", "revoked"}},
		{get, 401, "Unauthorized", "Mintlify API Key Rejected", []string{"expired", "revoked"}},
		{bundle, 401, "Invalid or missing API key", "Mintlify API Key Rejected", []string{"expired", "revoked"}},
		{create, 401, "Unauthorized", "Mintlify API Key Rejected", []string{"expired", "revoked"}},
		{read, 401, "Unauthorized", "Mintlify API Key Rejected", []string{"expired", "revoked"}},
		{message, 401, "Unauthorized", "Mintlify API Key Rejected", []string{"expired", "revoked"}},
		{start, 401, expiredText, "Mintlify API Key Expired", []string{"expired"}},
		{read, 401, expiredText, "Mintlify API Key Expired", []string{"expired"}},
		{get, 401, "The key was revoked", "Mintlify API Key Revoked", []string{"revoked"}},

		// 403 on the start: the key's allowlist and scope, and the feature.
		{start, 403, "Forbidden", "Mintlify API Request Forbidden", []string{"allowlist", "read-only", "not enabled"}},
		{start, 403, allowlistText, "Mintlify API Key Not Allowed From This Address", []string{"allowlist"}},
		{start, 403, scopeText, "Mintlify API Key Is Read-Only", []string{"read-only"}},
		{start, 403, disabledText, "Static Export Not Enabled", []string{"not enabled"}},
		// 403 on the other POSTs: the key's allowlist and scope.
		{bundle, 403, "Forbidden", "Mintlify API Request Forbidden", []string{"allowlist", "read-only"}},
		{create, 403, "Forbidden", "Mintlify API Request Forbidden", []string{"allowlist", "read-only"}},
		{message, 403, "Forbidden", "Mintlify API Request Forbidden", []string{"allowlist", "read-only"}},
		{message, 403, scopeText, "Mintlify API Key Is Read-Only", []string{"read-only"}},
		// 403 on a GET: only the allowlist.
		{get, 403, "Forbidden", "Mintlify API Request Forbidden", []string{"allowlist"}},
		{read, 403, "Forbidden", "Mintlify API Request Forbidden", []string{"allowlist"}},
		{read, 403, allowlistText, "Mintlify API Key Not Allowed From This Address", []string{"allowlist"}},
		// A text naming a cause that cannot apply is not believed.
		{read, 403, scopeText, "Mintlify API Request Forbidden", []string{"allowlist"}},
		{read, 403, "This feature is not enabled for the organization", "Mintlify API Request Forbidden", []string{"allowlist"}},
		// A static export call names the feature when the answer says so.
		{get, 403, disabledText, "Static Export Not Enabled", []string{"not enabled"}},
		{bundle, 403, disabledText, "Static Export Not Enabled", []string{"not enabled"}},
		// A text naming two causes gets both.
		{start, 403, "read-only key used from an IP outside the allowlist", "Mintlify API Request Forbidden", []string{"allowlist", "read-only"}},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%d/%s", c.op.Call, c.status, c.text)
		err := &mintlify.APIError{StatusCode: c.status, Message: c.text}
		d := c.op.Diagnostic(&mintlify.RetryError{Attempts: 1, Err: err})
		if d.Summary() != c.summary {
			t.Errorf("%s: summary %q, want %q", name, d.Summary(), c.summary)
		}
		checkCauses(t, name, d.Detail(), c.causes)
		head := fmt.Sprintf("while %s (HTTP %d: %s)", c.op.Doing, c.status, strings.TrimRight(c.text, "."))
		if c.status == 403 {
			head = fmt.Sprintf("refused %s (HTTP 403: %s)", c.op.Doing, strings.TrimRight(c.text, "."))
		}
		if !strings.Contains(d.Detail(), head) {
			t.Errorf("%s: the detail does not say what failed (%q):\n%s", name, head, d.Detail())
		}
	}
}

// checkCauses asserts that detail names causes, in order, each with all its
// words, and no other cause.
func checkCauses(t *testing.T, name, detail string, causes []string) {
	t.Helper()
	last := -1
	for _, cause := range causes {
		at := causeOf(detail, cause)
		if at < last {
			t.Errorf("%s: cause %q missing or out of order:\n%s", name, cause, detail)
		}
		last = at
		for _, w := range causeWords[cause][1:] {
			if !strings.Contains(detail, w) {
				t.Errorf("%s: cause %q without %q:\n%s", name, cause, w, detail)
			}
		}
	}
	for cause := range causeWords {
		if !containsString(causes, cause) && causeOf(detail, cause) >= 0 {
			t.Errorf("%s: names the cause %q, which does not apply:\n%s", name, cause, detail)
		}
	}
	keyRestricted := containsString(causes, "allowlist") || containsString(causes, "read-only")
	if n := strings.Count(detail, keyFixedAtCreation); keyRestricted && n != 1 || !keyRestricted && n != 0 {
		t.Errorf("%s: says %d times that a key's restrictions are fixed:\n%s", name, n, detail)
	}
	if len(causes) > 1 && !strings.Contains(detail, "most likely first") && !strings.Contains(detail, "names several causes") {
		t.Errorf("%s: several causes, but not listed as such:\n%s", name, detail)
	}
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestRefusedRenewalSaysUntilWhenTheLinkWorks: a renewal refused for the
// key says that a read-only key cannot renew, and until when the current
// link still works, or that it no longer does.
func TestRefusedRenewalSaysUntilWhenTheLinkWorks(t *testing.T) {
	t.Parallel()
	expires := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	renew := staticexport.RenewBundleOp("se_1", expires, expires.Add(-107*time.Minute))
	forbidden := &mintlify.APIError{StatusCode: 403, Message: "Forbidden"}

	d := renew.Diagnostic(forbidden)
	checkCauses(t, "renewal 403", d.Detail(), []string{"allowlist", "read-only"})
	for _, want := range []string{
		"refused generating the bundle link of static export job se_1 (HTTP 403: Forbidden)",
		"generating a fresh link is a POST, so this key cannot renew the link",
		"\n\nThe current link of static export job se_1 keeps working until 2026-11-21T10:00:00Z (in 1h47m): fix the key before then, and apply again to renew it.",
	} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("renewal 403 lacks %q:\n%s", want, d.Detail())
		}
	}

	d = renew.Diagnostic(&mintlify.APIError{StatusCode: 403, Message: "Key is read-only"})
	if d.Summary() != "Mintlify API Key Is Read-Only" ||
		!strings.HasSuffix(d.Detail(), "cannot renew the link. Create a key with the `write` scope and use it here. "+
			keyFixedAtCreation+" The current link of static export job se_1 keeps working until 2026-11-21T10:00:00Z "+
			"(in 1h47m): fix the key before then, and apply again to renew it.") {
		t.Errorf("renewal, read-only named: %s:\n%s", d.Summary(), d.Detail())
	}

	late := staticexport.RenewBundleOp("se_1", expires, expires.Add(time.Second))
	d = late.Diagnostic(&mintlify.APIError{StatusCode: 401, Message: "API key expired"})
	if d.Summary() != "Mintlify API Key Expired" || !strings.Contains(d.Detail(),
		"The current link of static export job se_1 expired at 2026-11-21T10:00:00Z: nothing can download the bundle until a renewal succeeds.") {
		t.Errorf("renewal after the link expired: %s:\n%s", d.Summary(), d.Detail())
	}

	// Not a renewal: the first link of an export, the ephemeral resource's.
	d = staticexport.GenerateBundleOp("se_1").Diagnostic(forbidden)
	if strings.Contains(d.Detail(), "current link") || strings.Contains(d.Detail(), "renew") {
		t.Errorf("a first link speaks of renewal:\n%s", d.Detail())
	}
}

// TestRefusedStartSaysNothingStarted: the start's own sentence follows the
// list of causes, as a paragraph of its own.
func TestRefusedStartSaysNothingStarted(t *testing.T) {
	t.Parallel()
	d := staticexport.StartStaticExportOp("docs.example.com").Diagnostic(&mintlify.StartError{Err: &mintlify.APIError{StatusCode: 403, Message: "Forbidden"}})
	if !strings.HasSuffix(d.Detail(), "\n\nNo static export job was started.") {
		t.Errorf("start refused:\n%s", d.Detail())
	}
	d = agentjob.CreateAgentJobOp("proj_1").Diagnostic(&mintlify.StartError{Err: &mintlify.APIError{StatusCode: 401, Message: "API key expired"}, What: "agent job"})
	if !strings.HasSuffix(d.Detail(), "environment variable. No agent job was started.") {
		t.Errorf("agent job refused:\n%s", d.Detail())
	}
}

// TestPreviewCallsRefusal: the slot a preview deployment call will take
// (core.WriteRefused.or(causePreviewsNotOnPlan)) names the plan as the third
// cause, or alone when the answer says so.
func TestPreviewCallsRefusal(t *testing.T) {
	t.Parallel()
	op := core.APIOperation{Doing: "triggering a preview deployment of branch feature-x"}
	preview := core.WriteRefused.Or(core.NotOnPlan("Previews Not On The Mintlify Plan",
		"preview deployments are not on the Mintlify plan of the organization of the API key",
		"Upgrade the plan on the Mintlify dashboard, or contact Mintlify, then apply again."))
	head := "The Mintlify API refused triggering a preview deployment (HTTP 403)."
	summary, detail := op.Refused(mintlify.Classify(&mintlify.APIError{StatusCode: 403, Message: "Forbidden"}), head, "Mintlify API Request Forbidden", preview)
	checkCauses(t, "preview", detail, []string{"allowlist", "read-only", "previews"})
	if summary != "Mintlify API Request Forbidden" {
		t.Errorf("preview summary %q", summary)
	}
	summary, detail = op.Refused(mintlify.Classify(&mintlify.APIError{StatusCode: 403, Message: "Preview deployments are not available on your current plan."}),
		head, "Mintlify API Request Forbidden", preview)
	checkCauses(t, "preview named", detail, []string{"previews"})
	if summary != "Previews Not On The Mintlify Plan" {
		t.Errorf("preview named summary %q", summary)
	}
}

// keyFixedAtCreation is what a refusal adds when its cause is fixed in the
// key.
const keyFixedAtCreation = "A key's expiry, allowlist and scopes are fixed when it is created: the fix is a new key."
