package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// apiErrorDiagnostic turns a client error into a diagnostic for the person at
// the terminal: what failed, the API's own words, and what to do next. doing
// completes "... while <doing>", e.g. "starting the static export of
// docs.example.com".
func apiErrorDiagnostic(err error, doing string) diag.Diagnostic {
	var apiErr *mintlify.APIError
	var transportErr *mintlify.TransportError
	switch {
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Operation Interrupted",
			fmt.Sprintf("Terraform was interrupted while %s.", doing))
	case mintlify.IsUnauthorized(err):
		return diag.NewErrorDiagnostic("Mintlify API Key Rejected",
			fmt.Sprintf("The Mintlify API rejected the API key while %s (HTTP 401: %s). Check the provider's "+
				"`api_key` argument or the `%s` environment variable: it must be a current admin API key, "+
				"which begins with `mint_`.", doing, apiMessage(err), envAPIKey))
	case mintlify.IsForbidden(err):
		return diag.NewErrorDiagnostic("Static Export Not Enabled",
			fmt.Sprintf("The Mintlify API refused %s (HTTP 403: %s). Static export is available on Mintlify "+
				"Enterprise plans and must be enabled for your organization: contact Mintlify to enable it, "+
				"then apply again.", doing, apiMessage(err)))
	case mintlify.IsBadRequest(err):
		return diag.NewErrorDiagnostic("Mintlify Rejected The Request",
			fmt.Sprintf("The Mintlify API rejected the request while %s (HTTP 400: %s). Correct the argument "+
				"the message names and apply again.", doing, apiMessage(err)))
	case mintlify.IsConflict(err):
		return diag.NewErrorDiagnostic("Static Export Not Finished",
			fmt.Sprintf("The Mintlify API answered that the job has not finished while %s (HTTP 409: %s). A "+
				"bundle can only be generated for a completed job; apply again once it completes.", doing, apiMessage(err)))
	case errors.As(err, &apiErr):
		return diag.NewErrorDiagnostic("Mintlify API Error",
			fmt.Sprintf("The Mintlify API answered HTTP %d while %s: %s.", apiErr.StatusCode, doing, apiMessage(err)))
	case errors.As(err, &transportErr):
		return diag.NewErrorDiagnostic("Mintlify API Unreachable",
			fmt.Sprintf("No usable answer came from the Mintlify API while %s: %v. Check that the provider's "+
				"`base_url` is reachable from this machine and apply again.", doing, transportErr.Err))
	default:
		return diag.NewErrorDiagnostic("Mintlify Request Failed",
			fmt.Sprintf("The request failed while %s: %v.", doing, err))
	}
}

// apiMessage returns the API's own error text, without a final period so
// that it reads well inside a sentence.
func apiMessage(err error) string {
	var apiErr *mintlify.APIError
	if errors.As(err, &apiErr) {
		return strings.TrimRight(apiErr.Message, ".")
	}
	return err.Error()
}

// notConfiguredDiagnostic is reported by anything that needs the client
// while the provider could not be configured, because one of its arguments
// is only known after apply.
func notConfiguredDiagnostic() diag.Diagnostic {
	return diag.NewErrorDiagnostic("Mintlify Provider Not Configured",
		"The mintlify provider has no API client yet: one of its arguments (`api_key`, `base_url` or "+
			"`project_id`) depends on a value that is only known after apply. Set them from values known at "+
			"plan time (variables or environment variables), or apply the resource that produces them first "+
			"with `-target`.")
}
