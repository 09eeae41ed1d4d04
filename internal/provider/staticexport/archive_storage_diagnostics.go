package staticexport

import (
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The diagnostics of an archive download that the storage host failed or
// that went past its size.

// storageDiagnostic explains a failed download from the storage host that
// bundle links point at (S3 for Mintlify).
func storageDiagnostic(e *mintlify.DownloadError, ac archiveAttempt, nothing string) diag.Diagnostic {
	f := mintlify.Classify(e)
	after := ""
	if f.Attempts > 1 {
		after = fmt.Sprintf(", after %d attempts", f.Attempts)
	}
	switch {
	case f.Kind == mintlify.FaultDowngrade:
		d := core.APIOperation{Doing: fmt.Sprintf("downloading the archive of static export job %s", ac.job())}.Diagnostic(e)
		return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+" "+nothing)
	case f.Status == http.StatusForbidden:
		return diag.NewErrorDiagnostic("Bundle Link Refused",
			fmt.Sprintf("The storage host %s refused fresh bundle links for static export job %s (HTTP 403: %s). "+
				"Presigned links are valid for a limited time from when they are signed: check that this machine's "+
				"clock is right, and that no proxy between it and %s alters the link. %s",
				e.Host, ac.job(), core.APIMessage(f), e.Host, nothing))
	case f.Status == http.StatusNotFound:
		return diag.NewErrorDiagnostic("Bundle Archive Not Found",
			fmt.Sprintf("The storage host %s has no archive behind the bundle link of static export job %s (HTTP "+
				"404: %s): its files may have been removed. %s Start a new export, for example with a change of "+
				"`triggers` on the `mintlify_static_export_bundle`.", e.Host, ac.job(), core.APIMessage(f), nothing))
	case f.Status != 0:
		return diag.NewErrorDiagnostic("Bundle Download Failed",
			fmt.Sprintf("The storage host %s answered HTTP %d (%s) to the download of the archive of static export "+
				"job %s%s. %s Apply again later, or raise the provider's `max_retries`.",
				e.Host, f.Status, core.APIMessage(f), ac.job(), after, nothing))
	case f.Transport != nil:
		return diag.NewErrorDiagnostic("Bundle Download Failed",
			fmt.Sprintf("No complete archive came from %s for static export job %s%s: %v. %s Check that this "+
				"machine can reach %s and apply again; on a slow connection, raise the provider's `request_timeout`, "+
				"which is how long a download may go without receiving data.",
				e.Host, ac.job(), after, f.Transport, nothing, e.Host))
	default:
		return diag.NewErrorDiagnostic("Bundle Download Failed",
			fmt.Sprintf("Downloading the archive of static export job %s failed: %v. %s", ac.job(), e.Err, nothing))
	}
}

// tooLargeDiagnostic explains an archive larger than the bundle announced,
// or, when it announced no size, than the provider accepts.
func tooLargeDiagnostic(tooLarge *mintlify.SizeError, fromStorage *mintlify.DownloadError, ac archiveAttempt, nothing string) diag.Diagnostic {
	if tooLarge.Announced <= 0 {
		return diag.NewErrorDiagnostic("Bundle Archive Too Large",
			fmt.Sprintf("The storage host %s sent more for the archive of static export job %s than the provider "+
				"accepts when the API announces no size: %s. The download was stopped there and its partial file "+
				"removed. %s Report the job ID to Mintlify support: a static export is rarely more than a few "+
				"hundred megabytes.", fromStorage.Host, ac.job(), tooLarge, nothing))
	}
	return diag.NewErrorDiagnostic("Bundle Archive Larger Than Announced",
		fmt.Sprintf("The storage host %s sent more for the archive of static export job %s than the bundle "+
			"announced: %s. The download was stopped there and its partial file removed. %s Apply again; if it "+
			"happens again, report the job ID to Mintlify support, or start a new export (for example with a "+
			"change of `triggers` on the `mintlify_static_export_bundle`).", fromStorage.Host, ac.job(), tooLarge, nothing))
}
