package staticexport

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// TestProjectRefusalDiagnosticNamesAnInvalidKey: a project-scoped call
// refused for an invalid key says so, with the key's form. Through the CLI
// a plan's key check meets such a key first (TestAccKeyCheckedAtPlan), so
// the call's own wording is held here.
func TestProjectRefusalDiagnosticNamesAnInvalidKey(t *testing.T) {
	err := &mintlify.APIError{Route: "POST /v1/static-export/{projectId}/jobs", StatusCode: http.StatusUnauthorized,
		Message: "Invalid or missing API key"}
	refusal, ok := mintlify.ReadProjectExportRefusal(err)
	if !ok {
		t.Fatal("the 401 was not read as a refusal")
	}
	d := projectRefusalDiagnostic(core.APIOperation{Doing: "starting the static export of project proj_demo"}, err, refusal)
	if d.Summary() != "Mintlify API Key Invalid" || !strings.Contains(d.Detail(), "begins with `mint_`") ||
		!strings.Contains(d.Detail(), "(HTTP 401: Invalid or missing API key)") {
		t.Errorf("the diagnostic says %q: %s", d.Summary(), d.Detail())
	}
}
