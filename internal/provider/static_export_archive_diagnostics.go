package provider

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// outputPathValidator refuses, at plan time, an output_path that cannot
// hold the archive.
var outputPathValidator = stringCheck{
	description: "value must be the path of a file to write, such as `build/docs-bundle.tar.gz`",
	check: func(p path.Path, value string) diag.Diagnostics {
		var diags diag.Diagnostics
		if problem := outputPathProblem(value); problem != "" {
			diags.AddAttributeError(p, "Invalid Output Path",
				fmt.Sprintf("The `output_path` %q cannot hold the archive: %s.", value, problem))
		}
		return diags
	},
}

// outputPathProblem says why p cannot be written as a file, and how to fix
// it, or returns "". It looks at the file system as it is at plan time.
func outputPathProblem(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "it is empty. Give the file to write, such as `\"${path.module}/build/docs-bundle.tar.gz\"`"
	case strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator)):
		return fmt.Sprintf("it names a directory (it ends with a slash). Add a file name, such as `%q`", p+"docs-bundle.tar.gz")
	}
	if info, err := os.Stat(p); err == nil && info.IsDir() {
		return fmt.Sprintf("it is a directory. Add a file name, such as `%q`", filepath.ToSlash(filepath.Join(p, "docs-bundle.tar.gz")))
	}
	// The nearest ancestor that exists must be a directory.
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		switch {
		case err == nil && !info.IsDir():
			return fmt.Sprintf("its parent %s is a file, not a directory. Choose another path, or move that file", dir)
		case err == nil || !errors.Is(err, fs.ErrNotExist) || filepath.Dir(dir) == dir:
			return "" // a directory; or something only the apply can tell
		}
	}
}

// archiveContext is what a diagnostic of the archive resource names.
type archiveContext struct {
	jobID, outputPath string
	timeout           time.Duration
}

// waitError marks an error of waiting for a job that had not completed.
type waitError struct{ err error }

func (e *waitError) Error() string { return e.err.Error() }
func (e *waitError) Unwrap() error { return e.err }

// archiveDiagnostic explains why creating an archive failed, and what to do.
// The partial download is always gone by then, which every detail says.
func archiveDiagnostic(err error, ac archiveContext) diag.Diagnostic {
	nothing := fmt.Sprintf("Nothing was written to %s.", ac.outputPath)
	var invalid *archivefile.InvalidError
	var fromStorage *mintlify.DownloadError
	var failed *mintlify.JobFailedError[mintlify.StaticExportJob]
	var retryErr *mintlify.RetryError
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	switch {
	case errors.As(err, &invalid) && invalid.Unsafe():
		return diag.NewErrorDiagnostic("Unsafe Bundle Archive",
			fmt.Sprintf("The archive of static export job %s is not safe to extract: %s. %s Do not extract this "+
				"bundle. Report the job ID to Mintlify support; a new export (for example a change of `triggers` on "+
				"the `mintlify_static_export_bundle`) produces a new archive.", ac.jobID, invalid.Reason, nothing))
	case errors.As(err, &invalid):
		return diag.NewErrorDiagnostic("Invalid Bundle Archive",
			fmt.Sprintf("The archive of static export job %s is not a valid tar.gz: %s. %s Apply again to download "+
				"it again. If it fails the same way, the archive is damaged where it is stored: start a new export, "+
				"for example with a change of `triggers` on the `mintlify_static_export_bundle`.", ac.jobID, invalid.Reason, nothing))
	case errors.As(err, &failed):
		reason := "the API gave no reason"
		if failed.Job.Error != nil && *failed.Job.Error != "" {
			reason = fmt.Sprintf("%q", *failed.Job.Error)
		}
		return diag.NewErrorDiagnostic("Static Export Job Failed",
			fmt.Sprintf("The static export job %s failed at %s%% (%d pages exported), so it has no archive to "+
				"download: %s. %s Start a new export and use its `job_id`.",
				ac.jobID, mintlify.FormatProgress(failed.Job.Progress), failed.Job.PageCount, reason, nothing))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Archive Download Interrupted",
			fmt.Sprintf("Terraform was interrupted while %s static export job %s; the partial download was "+
				"removed. %s Apply again to download it.", doingFor(err), ac.jobID, nothing))
	case errors.As(err, &retryErr) && retryErr.Wait > 0 && errors.Is(err, context.DeadlineExceeded):
		return diag.NewErrorDiagnostic("Archive Download Retry Would Outlast The Timeout",
			fmt.Sprintf("A request failed while %s static export job %s (%v). The next attempt was due in %s, but "+
				"`timeouts.create` (%s) ends in %s, so the provider stopped. %s Apply again later, or raise "+
				"`timeouts.create`.", doingFor(err), ac.jobID, retryErr.Err, retryErr.Wait, ac.timeout,
				retryErr.Left.Round(time.Second), nothing))
	case errors.Is(err, context.DeadlineExceeded):
		return diag.NewErrorDiagnostic("Archive Download Timed Out",
			fmt.Sprintf("`timeouts.create` (%s) ran out while %s static export job %s; the partial download was "+
				"removed. %s Raise it, for example `timeouts = { create = \"1h\" }`, and apply again.",
				ac.timeout, doingFor(err), ac.jobID, nothing))
	case errors.As(err, &fromStorage):
		return storageDiagnostic(fromStorage, ac, nothing)
	case errors.As(err, &linkErr) || errors.As(err, &pathErr):
		return diag.NewAttributeErrorDiagnostic(path.Root("output_path"), "Cannot Write The Archive",
			fmt.Sprintf("Writing the archive of static export job %s to %s failed: %s. The partial download was "+
				"removed. Check that the directory is writable and has room for the archive, then apply again.",
				ac.jobID, ac.outputPath, err))
	case mintlify.IsNotFound(err):
		return archiveOperation(err, ac).at(path.Root("job_id")).advise(http.StatusNotFound, "There is no archive "+
			"to download. "+nothing+" Check `job_id`: it is usually `mintlify_static_export_bundle.<name>.job_id`, "+
			"and jobs belong to the organization of the API key.").diagnostic(err)
	default:
		d := archiveOperation(err, ac).diagnostic(err)
		return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+" "+nothing)
	}
}

// archiveOperation is the API call that err came from: waiting for the job,
// or generating the link the download uses.
func archiveOperation(err error, ac archiveContext) apiOperation {
	var w *waitError
	if errors.As(err, &w) {
		return getStaticExportJobOp(ac.jobID).while(fmt.Sprintf("waiting for static export job %s", ac.jobID))
	}
	return generateBundleOp(ac.jobID).while(fmt.Sprintf("%s static export job %s", doingFor(err), ac.jobID))
}

// doingFor says what the create was doing when err struck, to complete
// "while ... static export job X".
func doingFor(err error) string {
	var w *waitError
	var fromStorage *mintlify.DownloadError
	switch {
	case errors.As(err, &w):
		return "waiting for"
	case errors.As(err, &fromStorage):
		return "downloading the archive of"
	default:
		return "generating a bundle link for"
	}
}

// storageDiagnostic explains a failed download from the storage host that
// bundle links point at (S3 for Mintlify).
func storageDiagnostic(e *mintlify.DownloadError, ac archiveContext, nothing string) diag.Diagnostic {
	after := ""
	if n := mintlify.Attempts(e); n > 1 {
		after = fmt.Sprintf(", after %d attempts", n)
	}
	var apiErr *mintlify.APIError
	var transportErr *mintlify.TransportError
	switch {
	case mintlify.IsForbidden(e):
		return diag.NewErrorDiagnostic("Bundle Link Refused",
			fmt.Sprintf("The storage host %s refused fresh bundle links for static export job %s (HTTP 403: %s). "+
				"Presigned links are valid for a limited time from when they are signed: check that this machine's "+
				"clock is right, and that no proxy between it and %s alters the link. %s",
				e.Host, ac.jobID, apiMessage(e), e.Host, nothing))
	case mintlify.IsNotFound(e):
		return diag.NewErrorDiagnostic("Bundle Archive Not Found",
			fmt.Sprintf("The storage host %s has no archive behind the bundle link of static export job %s (HTTP "+
				"404: %s): its files may have been removed. %s Start a new export, for example with a change of "+
				"`triggers` on the `mintlify_static_export_bundle`.", e.Host, ac.jobID, apiMessage(e), nothing))
	case errors.As(e, &apiErr):
		return diag.NewErrorDiagnostic("Bundle Download Failed",
			fmt.Sprintf("The storage host %s answered HTTP %d (%s) to the download of the archive of static export "+
				"job %s%s. %s Apply again later, or raise the provider's `max_retries`.",
				e.Host, apiErr.StatusCode, apiMessage(e), ac.jobID, after, nothing))
	case errors.As(e, &transportErr):
		return diag.NewErrorDiagnostic("Bundle Download Failed",
			fmt.Sprintf("No complete archive came from %s for static export job %s%s: %v. %s Check that this "+
				"machine can reach %s and apply again; on a slow connection, raise the provider's `request_timeout`, "+
				"which is how long a download may go without receiving data.",
				e.Host, ac.jobID, after, transportErr.Err, nothing, e.Host))
	default:
		return diag.NewErrorDiagnostic("Bundle Download Failed",
			fmt.Sprintf("Downloading the archive of static export job %s failed: %v. %s", ac.jobID, e.Err, nothing))
	}
}
