package staticexport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// archiveStep is how far an attempt to download the archive got.
type archiveStep int

const (
	stepCheckPath archiveStep = iota // looking at output_path, before any request
	stepRead                         // reading a project-scoped job, for its link
	stepWait                         // waiting for a job that had not completed
	stepDownload                     // getting links and downloading from the storage host
	stepWrite                        // writing the file
)

// archiveAttempt is one attempt to download a job's archive to
// output_path, as its diagnostics speak of it: the job (and its project,
// for a project-scoped job), the file, the budget, and the step it
// reached, which the attempt records as it goes; now is when its requests
// began.
type archiveAttempt struct {
	jobID, projectID, outputPath string
	budget                       core.WaitBudget
	step                         archiveStep
	now                          time.Time
}

// doing says what the attempt was doing when err struck, to complete
// "while ... static export job X". A failure while downloading came from
// the storage host (a *mintlify.DownloadError) or from the link request
// that the download makes first.
func (at archiveAttempt) doing(err error) string {
	var fromStorage *mintlify.DownloadError
	switch {
	case at.step == stepWait:
		return "waiting for"
	case errors.As(err, &fromStorage):
		return "downloading the archive of"
	case at.projectID != "":
		return "reading"
	default:
		return "generating a bundle link for"
	}
}

// operation is the API call that err came from: waiting for the job, or
// generating the link the download uses.
func (at archiveAttempt) operation(err error) core.APIOperation {
	if at.projectID != "" {
		return GetProjectExportJobOp(at.projectID, at.jobID).Within(at.budget).
			While(fmt.Sprintf("%s static export job %s", at.doing(err), at.job()))
	}
	if at.step == stepWait {
		return GetStaticExportJobOp(at.jobID).Within(at.budget).While(fmt.Sprintf("waiting for static export job %s", at.jobID))
	}
	return GenerateBundleOp(at.jobID).Within(at.budget).While(fmt.Sprintf("%s static export job %s", at.doing(err), at.jobID))
}

// archiveDiagnostic explains why downloading an archive failed, and what to
// do. The partial download is always gone by then, which every detail says.
func archiveDiagnostic(err error, ac archiveAttempt) diag.Diagnostic {
	nothing := fmt.Sprintf("Nothing was written to %s.", ac.outputPath)
	var invalid *archivefile.InvalidError
	var fromStorage *mintlify.DownloadError
	var tooLarge *mintlify.SizeError
	var failed *mintlify.JobFailedError[mintlify.StaticExportJob]
	var retryErr *mintlify.RetryError
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	var changed *archiveChangedError
	if d := outputDiagnostic(err, ac, nothing); d != nil {
		return d
	}
	switch {
	case errors.As(err, &changed):
		return diag.NewErrorDiagnostic("Archive Changed On The Mintlify Side",
			fmt.Sprintf("The archive of static export job %s, downloaded again to restore %s, has SHA-256 %s, not %s, "+
				"the one this resource recorded: the job's archive changed on the Mintlify side. It was not written; "+
				"%s is as it was. To take the new archive, replace the resource: run `terraform apply "+
				"-replace=` with its address, shown above after `with` (resources that use its `sha256` or `md5` are "+
				"then updated too). To keep the archive you had, put your own copy of it (SHA-256 %s) back at %s.",
				ac.job(), ac.outputPath, changed.got, changed.want, ac.outputPath, changed.want, ac.outputPath))
	case errors.As(err, &invalid) && invalid.Unsafe():
		return diag.NewErrorDiagnostic("Unsafe Bundle Archive",
			fmt.Sprintf("The archive of static export job %s (%s) is not safe to extract: %s. %s Do not extract this "+
				"bundle. Report the job ID to Mintlify support; a new export (for example a change of `triggers` on "+
				"the `mintlify_static_export_bundle`) produces a new archive.", ac.job(), formatTold(invalid), invalid.Reason, nothing))
	case errors.As(err, &invalid):
		return diag.NewErrorDiagnostic("Invalid Bundle Archive",
			fmt.Sprintf("The archive of static export job %s (%s) is not valid: %s. %s Apply again to download "+
				"it again. If it fails the same way, the archive is damaged where it is stored: start a new export, "+
				"for example with a change of `triggers` on the `mintlify_static_export_bundle`.", ac.job(), formatTold(invalid), invalid.Reason, nothing))
	case errors.As(err, &failed):
		reason := failureReason(failed.Job.Error)
		return diag.NewErrorDiagnostic("Static Export Job Failed",
			fmt.Sprintf("The static export job %s failed at %s%% (%d pages exported), so it has no archive to "+
				"download: %s. %s Start a new export and use its `job_id`.",
				ac.job(), mintlify.FormatProgress(failed.Job.Progress), failed.Job.PageCount, reason, nothing))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Archive Download Interrupted",
			fmt.Sprintf("Terraform was interrupted while %s static export job %s; the partial download was "+
				"removed. %s Apply again to download it.", ac.doing(err), ac.job(), nothing))
	case errors.As(err, &retryErr) && retryErr.Wait > 0 && errors.Is(err, context.DeadlineExceeded):
		return diag.NewErrorDiagnostic("Archive Download Retry Would Outlast The Timeout",
			fmt.Sprintf("A request failed while %s static export job %s (%v). The next attempt was due in %s, but "+
				"%s ends in %s, so the provider stopped. %s Apply again later, or %s.", ac.doing(err), ac.job(),
				retryErr.Err, retryErr.Wait, ac.budget, retryErr.Left.Round(time.Second), nothing, ac.budget.Raise()))
	case errors.Is(err, context.DeadlineExceeded):
		return ac.budget.Pointed(diag.NewErrorDiagnostic("Archive Download Timed Out",
			fmt.Sprintf("%s ran out while %s static export job %s; the partial download was removed. %s %s, and "+
				"apply again.", ac.budget, ac.doing(err), ac.job(), nothing, core.Capitalized(ac.budget.Raise()))))
	case errors.As(err, &tooLarge) && errors.As(err, &fromStorage):
		return tooLargeDiagnostic(tooLarge, fromStorage, ac, nothing)
	case errors.As(err, &fromStorage):
		return storageDiagnostic(fromStorage, ac, nothing)
	case errors.As(err, &linkErr) || errors.As(err, &pathErr):
		return diag.NewAttributeErrorDiagnostic(path.Root("output_path"), "Cannot Write The Archive",
			fmt.Sprintf("Writing the archive of static export job %s to %s failed: %s. The partial download was "+
				"removed. Check that the directory is writable and has room for the archive, then apply again.",
				ac.job(), ac.outputPath, err))
	default:
		return ac.apiDiagnostic(err, nothing)
	}
}

// apiDiagnostic explains an error of the API call that err came from
// (reading or waiting for the job, or generating a bundle link), under the
// job's contract: the project-scoped one's refusals as the job data source
// explains them.
func (ac archiveAttempt) apiDiagnostic(err error, nothing string) diag.Diagnostic {
	var failed *mintlify.JobFailedError[mintlify.ProjectExportJob]
	switch {
	case ac.projectID == "" && mintlify.IsNotFound(err):
		return ac.operation(err).At(path.Root("job_id")).Advise(http.StatusNotFound, "There is no archive "+
			"to download. "+nothing+" Check `job_id`: it is usually `mintlify_static_export_bundle.<name>.job_id`, "+
			"and jobs belong to the organization of the API key.").Diagnostic(err)
	case ac.projectID == "":
		d := ac.operation(err).Diagnostic(err)
		return diag.NewErrorDiagnostic(d.Summary(), followedBy(d.Detail(), nothing))
	case errors.As(err, &failed):
		return diag.NewErrorDiagnostic("Static Export Job Failed",
			fmt.Sprintf("The static export job %s failed, so it has no archive to download: %s. %s Start a new "+
				"export and use its `job_id`.", ac.job(), failureReason(failed.Job.Error), nothing))
	case mintlify.IsNotFound(err):
		op := ac.operation(err).At(path.Root("job_id")).Advise(http.StatusNotFound, "There is no archive "+
			"to download. "+nothing+" Check `job_id` and `project_id`: they are usually those of a "+
			"`mintlify_static_export_bundle` without `domain` (`.job_id`, `.project_id`), and projects belong to "+
			"the organization of the API key.")
		return projectCallDiagnostic(op, err, ac.now)
	}
	d := projectCallDiagnostic(ac.operation(err), err, ac.now)
	return diag.NewErrorDiagnostic(d.Summary(), followedBy(d.Detail(), nothing))
}

// formatTold names the format that a refused archive was read in, told by
// its first bytes, as `format` shows it.
func formatTold(invalid *archivefile.InvalidError) string {
	if f := invalid.Format(); f != "" {
		return fmt.Sprintf("format `%s`, told by its first bytes", f)
	}
	return "by its first bytes neither `tar.gz` nor `zip`"
}

// outputDiagnostic explains a failure that comes from the configuration or
// from what is at output_path, or returns nil.
func outputDiagnostic(err error, ac archiveAttempt, nothing string) diag.Diagnostic {
	var badPerm *permissionError
	var notRegular *notRegularError
	var occupied *occupiedError
	switch {
	case errors.As(err, &badPerm):
		return diag.NewAttributeErrorDiagnostic(path.Root("file_permission"), "Invalid File Permission", badPerm.Error()+" "+nothing)
	case errors.As(err, &notRegular):
		return notRegularDiagnostic(notRegular, nothing)
	case errors.Is(err, archivefile.ErrNotRegular): // it appeared during the download
		return notRegularDiagnostic(&notRegularError{path: ac.outputPath, what: describeEntry(ac.outputPath)}, nothing)
	case errors.Is(err, archivefile.ErrReplaced):
		return diag.NewAttributeErrorDiagnostic(path.Root("output_path"), "Output Path Changed During The Apply",
			fmt.Sprintf("While the archive of static export job %s was being moved to %s, another process replaced "+
				"that file or the partial download beside it (%s). The provider did not take what is there now for "+
				"its archive, and deleted nothing it did not write. Make sure no other process or user writes to "+
				"that directory (keep `output_path` in a directory only you can write to), then apply again.",
				ac.job(), ac.outputPath, err))
	case errors.As(err, &occupied):
		return occupiedDiagnostic(occupied, nothing)
	}
	return nil
}

// occupiedDiagnostic explains an output_path that holds something the
// resource did not write; tail says what was done about it.
func occupiedDiagnostic(e *occupiedError, tail string) diag.Diagnostic {
	if e.restoring {
		return diag.NewAttributeErrorDiagnostic(path.Root("output_path"), "Output Path Holds Another File",
			fmt.Sprintf("%s holds %s that this resource did not write, so the archive was not restored there: the "+
				"provider never replaces a file it did not write. %s Move that file elsewhere and apply again, or set "+
				"`overwrite = true` to replace it.", e.path, e.what, tail))
	}
	return diag.NewAttributeErrorDiagnostic(path.Root("output_path"), "Output Path Already In Use",
		fmt.Sprintf("%s already holds %s that this resource did not write, and the provider never replaces a file it "+
			"did not write. %s Move it elsewhere and apply again, or set `overwrite = true` to replace it. If it is the "+
			"archive of this resource's previous instance, which is being replaced with `create_before_destroy` "+
			"(Terraform also applies it when a resource that depends on this one, such as an `aws_s3_object`, has "+
			"it), Terraform creates the new instance without telling it which file the old one wrote: give each job "+
			"its own file, such as `output_path = \"${path.module}/build/docs-${mintlify_static_export_bundle.docs.job_id}.tar.gz\"`, "+
			"or set `overwrite = true`.", e.path, e.what, tail))
}

// notRegularDiagnostic explains an output_path that holds something other
// than a regular file; tail says what was done about it.
func notRegularDiagnostic(e *notRegularError, tail string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(path.Root("output_path"), "Output Path Is Not A Regular File",
		fmt.Sprintf("%s is %s, and the provider never replaces anything but a regular file, not even with "+
			"`overwrite = true`. %s Remove it, or set `output_path` to another path, then apply again.", e.path, e.what, tail))
}

// driftDiagnostic explains at plan, in a warning, what the last refresh
// found at output_path, and what the apply will do.
func driftDiagnostic(v fileVerdict, state staticExportArchiveModel, overwrite types.Bool) diag.Diagnostic {
	p, job, sha := state.OutputPath.ValueString(), state.JobID.ValueString(), state.SHA256.ValueString()
	again := fmt.Sprintf("The apply downloads the archive of static export job %s again, from the same export (no new "+
		"export runs), and writes it only if it is the same archive (SHA-256 %s): `sha256` and the other hashes stay "+
		"as they are.", job, sha)
	switch {
	case v.Kind == fileMissing:
		return diag.NewWarningDiagnostic("Archive Missing: Restoring It",
			fmt.Sprintf("The archive this resource wrote is no longer at %s: it was deleted or moved. %s", p, again))
	case v.Kind == fileChanged:
		return diag.NewWarningDiagnostic("Archive Changed On Disk: Restoring It",
			fmt.Sprintf("The file %s, which this resource wrote, was changed: its SHA-256 is now %s, not %s. %s",
				p, v.SHA256, sha, again))
	case v.NotRegular:
		return diag.NewAttributeWarningDiagnostic(path.Root("output_path"), "Output Path Is Not A Regular File",
			fmt.Sprintf("%s is %s, not the archive this resource wrote (SHA-256 %s). The provider never replaces "+
				"anything but a regular file, not even with `overwrite = true`, so the apply will stop with an error "+
				"and leave it as it is. Remove it, and the apply downloads the archive of static export job %s again "+
				"from the same export; or set `output_path` to another path.", p, v.What, sha, job))
	case overwrite.ValueBool():
		return diag.NewWarningDiagnostic("Replacing Another File At Output Path",
			fmt.Sprintf("%s holds %s that this resource did not write. Because `overwrite = true`, the apply replaces "+
				"it. %s", p, foreignWhat(v), again))
	default:
		// A warning, not an error: an error at plan would also stop
		// `terraform destroy`, whose first step is a normal plan.
		return diag.NewAttributeWarningDiagnostic(path.Root("output_path"), "Output Path Holds Another File",
			fmt.Sprintf("%s holds %s that this resource did not write: the archive it wrote (SHA-256 %s) is gone. "+
				"The provider never replaces a file it did not write, so the apply will stop with an error and leave "+
				"it as it is. Move that file elsewhere, and the apply downloads the archive of static export job %s "+
				"again from the same export; or set `overwrite = true` to replace it.", p, foreignWhat(v), sha, job))
	}
}

// foreignWhat describes a foreign entry.
func foreignWhat(v fileVerdict) string {
	switch {
	case v.SameInode:
		return fmt.Sprintf("a file (SHA-256 %s) that it cannot tell from a new one (the file system records no birth "+
			"time, so an edit and a new file given the same inode look alike), so it counts as one", v.SHA256)
	case v.SHA256 != "":
		return fmt.Sprintf("%s (SHA-256 %s)", v.What, v.SHA256)
	default:
		return v.What
	}
}

// leftInPlaceDiagnostic explains why destroy did not delete the file at p.
func leftInPlaceDiagnostic(p string, v fileVerdict) diag.Diagnostic {
	var why string
	switch v.Kind {
	case fileChanged:
		why = fmt.Sprintf("it is the file this resource wrote, but its content was changed since (SHA-256 %s)", v.SHA256)
	case fileIntact:
		why = "it holds exactly the archive, but it is not the file this resource wrote: another file with the same " +
			"content has taken its place since"
	default:
		why = fmt.Sprintf("it holds %s that this resource did not write: another has taken the place of the archive "+
			"since, such as the archive of this resource's replacement, created first with `create_before_destroy`",
			foreignWhat(v))
	}
	return diag.NewAttributeWarningDiagnostic(path.Root("output_path"), "Archive Left In Place",
		fmt.Sprintf("%s was not deleted: %s. Delete it by hand if you no longer need it.", p, why))
}

// followedBy adds a sentence to a diagnostic's detail: as a paragraph of
// its own after a detail of several paragraphs, else in the same one.
func followedBy(detail, sentence string) string {
	if strings.Contains(detail, "\n") {
		return detail + "\n\n" + sentence
	}
	return detail + " " + sentence
}
