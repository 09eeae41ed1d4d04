package staticexport

import (
	"context"
	"encoding/hex"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// What the lifecycle of mintlify_static_export_archive (archive.go,
// archive_plan.go) does with the file: the attempt to download it, the
// download, its permission, and the look at it that Read and Delete take.

// archiveAttempt starts the attempt to download m's archive, within its
// create timeout, and a context that logs its job and file.
func (m *staticExportArchiveModel) archiveAttempt(ctx context.Context, diags *diag.Diagnostics) (context.Context, archiveAttempt) {
	timeout, d := m.Timeouts.Create(ctx, defaultExportTimeout)
	diags.Append(d...)
	at := archiveAttempt{jobID: m.JobID.ValueString(), projectID: m.ProjectID.ValueString(),
		outputPath: m.OutputPath.ValueString(), budget: core.Budget("timeouts.create", timeout), step: stepCheckPath}
	ctx = tflog.SetField(ctx, "job_id", at.jobID)
	if at.projectID != "" {
		ctx = tflog.SetField(ctx, "project_id", at.projectID)
	}
	return tflog.SetField(ctx, "output_path", at.outputPath), at
}

// fetch downloads the job's archive to a temporary file beside output_path
// and, once it has checked out (and, with want, has that hex SHA-256),
// renames it into place; a regular file there is replaced only if
// mayReplace agrees, anything else never.
// Each step it reaches is recorded in at, for the diagnostics.
func (r *staticExportArchiveResource) fetch(ctx context.Context, m *staticExportArchiveModel, at *archiveAttempt, want string,
	mayReplace func(found archivefile.Identity) error,
) (archivefile.Summary, archivefile.Identity, error) {
	ctx, cancel := r.Provider.Client.Clock().WithTimeout(ctx, at.budget.Timeout)
	defer cancel()
	at.now = r.Provider.Client.Clock().Now()
	perm, err := m.filePermission()
	if err != nil {
		return archivefile.Summary{}, archivefile.Identity{}, err
	}
	at.step = stepWrite
	file, err := archivefile.Create(at.outputPath, archivefile.Options{Perm: perm, Context: ctx, Format: at.promisedFormat()})
	if err != nil {
		return archivefile.Summary{}, archivefile.Identity{}, err
	}
	// Whatever happens below, the temporary file goes: Discard does nothing
	// once the archive is committed.
	defer func() { _ = file.Discard() }()
	for _, stale := range file.Stale() {
		tflog.Info(ctx, "Removed a partial download that an interrupted run left beside output_path", map[string]any{
			"path": stale,
		})
	}
	began := time.Now()
	dl, err := r.download(ctx, at, file)
	if err != nil {
		return archivefile.Summary{}, archivefile.Identity{}, err
	}
	if got := file.Summary().SHA256; want != "" && hex.EncodeToString(got[:]) != want {
		return archivefile.Summary{}, archivefile.Identity{}, &archiveChangedError{want: want, got: hex.EncodeToString(got[:])}
	}
	at.step = stepWrite
	sum, id, err := file.Commit(mayReplace)
	if err != nil {
		return archivefile.Summary{}, archivefile.Identity{}, err
	}
	tflog.Info(ctx, "Static export archive written", map[string]any{
		"format": sum.Format, "size_bytes": sum.Size, "file_count": sum.Entries, "sha256": hex.EncodeToString(sum.SHA256[:]),
		"attempts": dl.Attempts, "links": dl.Links, "seconds": time.Since(began).Seconds(),
	})
	return sum, id, nil
}

// download fetches the job's archive into file, under the contract of
// the job: with a project, from the link of the job's read
// (downloadProjectExport); otherwise from a bundle link. A job that has not
// completed yet (the API answers 409 to its bundle link) is waited for
// first, as mintlify_static_export_bundle does. file tells the archive's
// format by its first bytes, refuses one other than the contract's
// (promisedFormat), and checks it in that format.
func (r *staticExportArchiveResource) download(ctx context.Context, at *archiveAttempt, file *archivefile.File) (*mintlify.Download, error) {
	if at.projectID != "" {
		return r.downloadProjectExport(ctx, at, file)
	}
	client := r.Provider.Client
	at.step = stepDownload
	dl, err := client.DownloadBundle(ctx, at.jobID, file)
	var fromStorage *mintlify.DownloadError
	if !mintlify.IsConflict(err) || errors.As(err, &fromStorage) {
		return dl, err
	}
	tflog.Info(ctx, "The static export job has not completed; waiting for it before downloading its archive")
	at.step = stepWait
	_, err = client.WaitForStaticExport(ctx, at.jobID, mintlify.OnChange(logExportProgress(ctx)))
	if err != nil {
		return nil, err
	}
	at.step = stepDownload
	return client.DownloadBundle(ctx, at.jobID, file)
}

// applyPermission sets the permission of the intact archive, of identity
// id, when the plan changes file_permission to a value: through a
// descriptor, on that file only (never through a link, nor on a file that
// took its place since).
func applyPermission(plan, state staticExportArchiveModel, id archivefile.Identity) error {
	if plan.FilePermission.IsNull() || plan.FilePermission.Equal(state.FilePermission) {
		return nil
	}
	perm, err := plan.filePermission()
	if err != nil {
		return err
	}
	return archivefile.Chmod(plan.OutputPath.ValueString(), id, perm)
}

// lookAtArchive reads the state and private state of a refresh or a
// destroy, and judges the file at output_path against them; err is that of
// looking at the file.
func lookAtArchive(ctx context.Context, from tfsdk.State, private privateGetter, diags *diag.Diagnostics) (state staticExportArchiveModel, priv core.PrivateState[archiveFacts], v fileVerdict, err error) {
	diags.Append(from.Get(ctx, &state)...)
	diags.Append(priv.Read(ctx, private)...)
	if diags.HasError() {
		return state, priv, v, nil
	}
	v, err = judgeFile(state.OutputPath.ValueString(), priv.Facts.Written, state.SHA256.ValueString())
	return state, priv, v, err
}
