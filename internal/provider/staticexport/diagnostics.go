package staticexport

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The 401 and 403 of the project-scoped contract, by their cause: the
// answer's text tells the causes apart (mintlify.ReadProjectExportRefusal),
// and "not enabled" may come as either status.

// refusalText is a cause of a 401 or 403 as a diagnostic says it.
type refusalText struct {
	summary, what, fix string
}

var projectRefusalTexts = map[mintlify.Refusal]refusalText{
	mintlify.RefusalInvalidKey: {"Mintlify API Key Invalid", "the API key is missing, unknown or malformed",
		"Put a current admin API key, which begins with `mint_`, in the provider's `api_key` argument or the `" +
			core.Env.APIKey + "` environment variable."},
	mintlify.RefusalExpiredKey: {"Mintlify API Key Expired", "the API key has expired",
		"Create a new admin API key on the API keys page of the Mintlify dashboard and use it here."},
	mintlify.RefusalRevokedKey: {"Mintlify API Key Revoked", "the API key is wrong, or was revoked",
		"Create a new admin API key on the API keys page of the Mintlify dashboard and use it here."},
	mintlify.RefusalNoAPIAccess: {"Mintlify Plan Without API Access",
		"the organization's Mintlify plan has no access to the admin API (Pro and Enterprise plans have it)",
		"Upgrade the plan on the Mintlify dashboard, or use a key of an organization that has API access."},
	mintlify.RefusalExportNotEnabled: {"Static Export Not Enabled",
		"static export is not enabled for the project (it is available on Mintlify Enterprise plans)",
		"Contact Mintlify to enable it for the project, then apply again."},
	mintlify.RefusalReadOnlyKey: {"Mintlify API Key Is Read-Only",
		"the API key has the `read` scope only, and starting an export needs the `write` scope (renewing a link " +
			"is a read, which a read-only key may do)",
		"Create a key with the `write` scope for the runs that start exports."},
	mintlify.RefusalIPAllowlist: {"Mintlify API Key Not Allowed From This Address",
		"the API key is limited to an IP allowlist that does not hold the address this request came from",
		"Run Terraform from an address on the key's allowlist, or use a key created without an allowlist."},
}

// projectRefusalDiagnostic names the cause of a 401 or 403 that the text
// names, or else every cause possible, most likely first, each with its
// fix.
func projectRefusalDiagnostic(op core.APIOperation, err error, r mintlify.ProjectExportRefusal) diag.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "The Mintlify API refused %s (HTTP %d: %s).", op.Doing, r.StatusCode, core.APIMessage(mintlify.Classify(err)))
	summary := "Mintlify API Key Rejected"
	if r.StatusCode == http.StatusForbidden {
		summary = "Mintlify API Request Forbidden"
	}
	switch {
	case len(r.Named) == 1:
		t := projectRefusalTexts[r.Named[0]]
		summary = t.summary
		fmt.Fprintf(&b, " The answer names the cause: %s. %s", t.what, t.fix)
	default:
		b.WriteString(" The possible causes, most likely first:\n")
		for _, c := range r.Possible {
			t := projectRefusalTexts[c]
			fmt.Fprintf(&b, "\n- %s. %s", core.Capitalized(t.what), t.fix)
		}
	}
	return diag.NewErrorDiagnostic(summary, b.String())
}

// failureReason is the API's reason for a failed job, quoted, or says that
// it gave none.
func failureReason(reason *string) string {
	if reason == nil || *reason == "" {
		return "the API gave no reason"
	}
	return fmt.Sprintf("%q", *reason)
}
