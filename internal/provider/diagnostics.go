package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// apiErrorDiagnostic turns a client error into a diagnostic for the person at
// the terminal: what failed, the API's own words, and what to do next. doing
// completes "... while <doing>", e.g. "starting the static export of
// docs.example.com". An error of StartStaticExport also says whether a job
// may have started.
func apiErrorDiagnostic(err error, doing string) diag.Diagnostic {
	summary, detail := describeAPIError(err, doing)
	var startErr *mintlify.StartError
	if errors.As(err, &startErr) {
		if startErr.MayHaveStarted {
			summary = "Static Export May Have Started"
			detail += "\n\nThe start request reached the Mintlify API but no definite answer came back, so a static " +
				"export job may have started; its id is unknown. The provider did not retry, because a retry could " +
				"start a second export, and nothing was saved in state. Apply again to start a new export: a job " +
				"started by the lost request finishes on its own and is never used."
		} else {
			detail += " No static export job was started."
		}
	}
	return diag.NewErrorDiagnostic(summary, detail)
}

// describeAPIError is apiErrorDiagnostic's summary and detail, one case per
// kind of failure.
func describeAPIError(err error, doing string) (summary, detail string) {
	var apiErr *mintlify.APIError
	var transportErr *mintlify.TransportError
	var retryErr *mintlify.RetryError
	after := ""
	if n := mintlify.Attempts(err); n > 1 {
		after = fmt.Sprintf(", after %d attempts", n)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "Operation Interrupted", fmt.Sprintf("Terraform was interrupted while %s.", doing)
	case errors.As(err, &retryErr) && retryErr.Wait > 0 && errors.Is(err, context.DeadlineExceeded):
		return "Mintlify API Retry Would Outlast The Timeout",
			fmt.Sprintf("A request failed while %s (%s). The next retry was due in %s, but the operation's "+
				"timeout ends in %s, so the provider stopped instead of waiting in vain. Apply again later, or "+
				"raise the resource's `timeouts` if the API keeps asking clients to wait this long.",
				doing, lastFailure(retryErr.Err), retryErr.Wait, retryErr.Left.Round(time.Second))
	case errors.Is(err, context.DeadlineExceeded):
		return "Mintlify Operation Timed Out",
			fmt.Sprintf("The operation's timeout ran out while %s. Raise the resource's `timeouts` and apply again.", doing)
	case mintlify.IsUnauthorized(err):
		return "Mintlify API Key Rejected",
			fmt.Sprintf("The Mintlify API rejected the API key while %s (HTTP 401: %s). Check the provider's "+
				"`api_key` argument or the `%s` environment variable: it must be a current admin API key, "+
				"which begins with `mint_`.", doing, apiMessage(err), envAPIKey)
	case mintlify.IsForbidden(err):
		return "Static Export Not Enabled",
			fmt.Sprintf("The Mintlify API refused %s (HTTP 403: %s). Static export is available on Mintlify "+
				"Enterprise plans and must be enabled for your organization: contact Mintlify to enable it, "+
				"then apply again.", doing, apiMessage(err))
	case mintlify.IsBadRequest(err):
		return "Mintlify Rejected The Request",
			fmt.Sprintf("The Mintlify API rejected the request while %s (HTTP 400: %s). Correct the argument "+
				"the message names and apply again.", doing, apiMessage(err))
	case mintlify.IsConflict(err):
		return "Static Export Not Finished",
			fmt.Sprintf("The Mintlify API answered that the job has not finished while %s (HTTP 409: %s). A "+
				"bundle can only be generated for a completed job; apply again once it completes.", doing, apiMessage(err))
	case mintlify.IsNotFound(err):
		return "Mintlify Object Not Found",
			fmt.Sprintf("The Mintlify API found nothing while %s (HTTP 404: %s). Check the ID, and that it "+
				"belongs to the organization of the API key (and, for an agent job, to the project). If every "+
				"request answers 404, check that `base_url` is the root of the Mintlify API.", doing, apiMessage(err))
	case mintlify.IsRateLimited(err):
		return "Mintlify API Rate Limit Exceeded",
			fmt.Sprintf("The Mintlify API kept answering HTTP 429 (%s) while %s%s. Wait a few minutes and apply "+
				"again, run fewer Mintlify operations at once (`terraform apply -parallelism=2`), or raise the "+
				"provider's `max_retries`.", apiMessage(err), doing, after)
	case mintlify.IsServerError(err):
		retries := ""
		if after != "" {
			retries = ", or raise the provider's `max_retries`"
		}
		return "Mintlify API Unavailable",
			fmt.Sprintf("The Mintlify API answered HTTP %d (%s) while %s%s. The problem is on the Mintlify side: "+
				"apply again later%s.", mintlify.StatusCode(err), apiMessage(err), doing, after, retries)
	case errors.As(err, &apiErr):
		return "Mintlify API Error",
			fmt.Sprintf("The Mintlify API answered HTTP %d while %s: %s.", apiErr.StatusCode, doing, apiMessage(err))
	case errors.As(err, &transportErr):
		return "Mintlify API Unreachable",
			fmt.Sprintf("No usable answer came from the Mintlify API while %s%s: %v. Check that the provider's "+
				"`base_url` is reachable from this machine and apply again; if answers are slow, raise the "+
				"provider's `request_timeout`.", doing, after, transportErr.Err)
	default:
		return "Mintlify Request Failed", fmt.Sprintf("The request failed while %s: %v.", doing, err)
	}
}

// lastFailure describes one failed attempt in a few words.
func lastFailure(err error) string {
	var apiErr *mintlify.APIError
	var transportErr *mintlify.TransportError
	switch {
	case errors.As(err, &apiErr):
		return fmt.Sprintf("HTTP %d: %s", apiErr.StatusCode, apiMessage(err))
	case errors.As(err, &transportErr):
		return transportErr.Err.Error()
	}
	return err.Error()
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
		"The mintlify provider has no API client yet: one of its arguments (such as `api_key`, `base_url` "+
			"or `project_id`) depends on a value that is only known after apply. Set them from values known at "+
			"plan time (variables or environment variables), or apply the resource that produces them first "+
			"with `-target`.")
}
