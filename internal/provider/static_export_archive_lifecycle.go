package provider

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The lifecycle of mintlify_static_export_archive. Create downloads; Read
// looks at the file (never the network) and notes what it found in
// private state; ModifyPlan turns that into a restore, an in-place update
// that keeps the hashes known; Update restores or changes the permission;
// Delete removes the file only if it is the one the resource wrote.

func (r *staticExportArchiveResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	var plan staticExportArchiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ac, diags := plan.archiveContext(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = tflog.SetField(ctx, "job_id", ac.jobID)
	ctx = tflog.SetField(ctx, "output_path", ac.outputPath)
	// Terraform gives a create no private state, not even the create half
	// of a replacement: the file of an earlier instance is not known here.
	guard := mayReplace(ac.outputPath, archivefile.Identity{}, plan.Overwrite.ValueBool())
	if err := guard(); err != nil { // before any request
		resp.Diagnostics.Append(archiveDiagnostic(err, ac))
		return
	}
	sum, id, err := r.fetch(ctx, &plan, ac, "", guard)
	if err != nil {
		resp.Diagnostics.Append(archiveDiagnostic(err, ac))
		return
	}
	plan.setArchive(sum, r.data.client.Clock().Now())
	resp.Diagnostics.Append(recordWritten(ctx, resp.Private, id)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// archiveContext is what diagnostics about m name, and its create timeout.
func (m *staticExportArchiveModel) archiveContext(ctx context.Context) (archiveContext, diag.Diagnostics) {
	timeout, diags := m.Timeouts.Create(ctx, defaultExportTimeout)
	return archiveContext{jobID: m.JobID.ValueString(), outputPath: m.OutputPath.ValueString(), timeout: timeout}, diags
}

// fetch downloads the job's archive to a temporary file beside output_path
// and, once it has checked out (and, with want, has that hex SHA-256),
// renames it into place if mayReplace agrees.
func (r *staticExportArchiveResource) fetch(ctx context.Context, m *staticExportArchiveModel, ac archiveContext, want string,
	mayReplace func() error,
) (archivefile.Summary, archivefile.Identity, error) {
	ctx, cancel := r.data.client.Clock().WithTimeout(ctx, ac.timeout)
	defer cancel()
	perm, _ := parsePermission(m.FilePermission.ValueString()) // validated at plan
	file, err := archivefile.Create(ac.outputPath, archivefile.Options{Perm: perm})
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
	dl, err := r.download(ctx, ac.jobID, file)
	if err != nil {
		return archivefile.Summary{}, archivefile.Identity{}, err
	}
	if got := file.Summary().SHA256; want != "" && hex.EncodeToString(got[:]) != want {
		return archivefile.Summary{}, archivefile.Identity{}, &archiveChangedError{want: want, got: hex.EncodeToString(got[:])}
	}
	sum, id, err := file.Commit(mayReplace)
	if err != nil {
		return archivefile.Summary{}, archivefile.Identity{}, err
	}
	tflog.Info(ctx, "Static export archive written", map[string]any{
		"size_bytes": sum.Size, "file_count": sum.Entries, "sha256": hex.EncodeToString(sum.SHA256[:]),
		"attempts": dl.Attempts, "links": dl.Links, "seconds": time.Since(began).Seconds(),
	})
	return sum, id, nil
}

// download fetches the job's archive into file. A job that has not
// completed yet (the API answers 409 to its bundle link) is waited for
// first, as mintlify_static_export_bundle does.
func (r *staticExportArchiveResource) download(ctx context.Context, jobID string, file *archivefile.File) (*mintlify.Download, error) {
	client := r.data.client
	dl, err := client.DownloadBundle(ctx, jobID, file)
	var fromStorage *mintlify.DownloadError
	if !mintlify.IsConflict(err) || errors.As(err, &fromStorage) {
		return dl, err
	}
	tflog.Info(ctx, "The static export job has not completed; waiting for it before downloading its archive")
	_, err = client.WaitForStaticExport(ctx, jobID, mintlify.OnChange(func(j mintlify.StaticExportJob) {
		tflog.Info(ctx, "Static export progress", map[string]any{"status": j.Status, "progress": j.Progress, "page_count": j.PageCount})
	}))
	if err != nil {
		return nil, &waitError{err: err}
	}
	return client.DownloadBundle(ctx, jobID, file)
}

// Read looks at the file at output_path, never the network, and notes in
// private state what it found when it is not the archive the resource
// wrote. A file holding exactly the archive is taken as the resource's.
func (r *staticExportArchiveResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state staticExportArchiveModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	written, diags := readWritten(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := state.OutputPath.ValueString()
	v, err := judgeFile(p, written, state.SHA256.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Read The Archive",
			fmt.Sprintf("Checking the archive at %s failed: %s. Fix the permissions of the file or its directory, "+
				"then run Terraform again.", p, err))
		return
	}
	switch {
	case v.Kind == fileIntact && v.adopted:
		tflog.Info(ctx, "The file at output_path holds exactly the archive: the resource takes it as its own",
			map[string]any{"output_path": p})
		resp.Diagnostics.Append(recordWritten(ctx, resp.Private, v.id)...)
	case v.Kind != fileIntact:
		tflog.Warn(ctx, "The file at output_path is not the archive the resource wrote", map[string]any{
			"output_path": p, "found": string(v.Kind), "sha256": v.SHA256, "expected_sha256": state.SHA256.ValueString(),
		})
	}
	resp.Diagnostics.Append(recordDrift(ctx, resp.Private, v)...)
}

// ModifyPlan refuses at plan a create over a file the resource did not
// write, and plans the restore of an archive that the last refresh found
// missing or changed: an in-place update, with a warning, that keeps every
// hash known (only downloaded_at is unknown).
func (r *staticExportArchiveResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan staticExportArchiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(planCreate(ctx, req, plan)...)
		return
	}
	var state staticExportArchiveModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	drift, diags := readDrift(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || drift.Kind == fileIntact || replaced(plan, state) {
		return
	}
	if d := driftDiagnostic(drift, state, plan.Overwrite); d != nil {
		resp.Diagnostics.Append(d)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	plan.DownloadedAt = types.StringUnknown()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planCreate refuses a create whose output_path, known at plan, holds a
// file the resource did not write, except a gzip file, which Create
// refuses instead (before downloading anything).
//
// The exception is for create_before_destroy. Terraform plans the create
// half of a replacement with the private state of the instance it
// replaces, so the old instance's file passes here at plan (and without
// create_before_destroy it is deleted before the create). But at apply,
// Terraform sets the old instance aside and plans the create again with no
// private state: an error here would then leave the old instance set aside
// (deposed) instead of current, while an error of Create makes Terraform
// restore it. The old instance's file is an archive, gzip.
func planCreate(ctx context.Context, req resource.ModifyPlanRequest, plan staticExportArchiveModel) diag.Diagnostics {
	if plan.OutputPath.IsUnknown() || plan.Overwrite.IsUnknown() || plan.Overwrite.ValueBool() {
		return nil
	}
	p := plan.OutputPath.ValueString()
	written, diags := readWritten(ctx, req.Private)
	var occupied *occupiedError
	if err := mayReplace(p, written, false)(); errors.As(err, &occupied) && !isGzipFile(p) {
		diags.Append(occupiedDiagnostic(occupied, "Nothing was downloaded."))
	}
	return diags
}

// replaced reports whether the plan replaces the resource.
func replaced(plan, state staticExportArchiveModel) bool {
	return !plan.JobID.Equal(state.JobID) || !plan.OutputPath.Equal(state.OutputPath)
}

// Update restores an archive found missing or changed (checking first what
// is at output_path now), or changes the file's permission.
func (r *staticExportArchiveResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	var plan, state staticExportArchiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	written, diags := readWritten(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	ac, diags := plan.archiveContext(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = tflog.SetField(ctx, "job_id", ac.jobID)
	ctx = tflog.SetField(ctx, "output_path", ac.outputPath)
	v, err := judgeFile(ac.outputPath, written, state.SHA256.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Read The Archive",
			fmt.Sprintf("Checking the archive at %s failed: %s. Fix the permissions of the file or its directory, "+
				"then apply again.", ac.outputPath, err))
		return
	}
	overwrite := plan.Overwrite.ValueBool()
	switch {
	case v.Kind == fileIntact:
		if v.adopted {
			written = v.id
		}
		plan.DownloadedAt = state.DownloadedAt
		if err := applyPermission(plan, state); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("file_permission"), "Cannot Change The Archive's Permission",
				fmt.Sprintf("Setting the permission of %s failed: %s. Check that you own the file.", ac.outputPath, err))
			return
		}
	case v.Kind == fileForeign && !overwrite:
		resp.Diagnostics.Append(archiveDiagnostic(&occupiedError{path: ac.outputPath, what: v.What, restoring: true}, ac))
		return
	default:
		tflog.Warn(ctx, "Restoring the archive at output_path from the same export", map[string]any{"found": string(v.Kind)})
		sum, id, err := r.fetch(ctx, &plan, ac, state.SHA256.ValueString(), mayReplace(ac.outputPath, written, overwrite))
		if err != nil {
			resp.Diagnostics.Append(archiveDiagnostic(err, ac))
			return
		}
		plan.setArchive(sum, r.data.client.Clock().Now())
		written = id
	}
	resp.Diagnostics.Append(recordWritten(ctx, resp.Private, written)...)
	resp.Diagnostics.Append(recordDrift(ctx, resp.Private, fileVerdict{Kind: fileIntact})...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// applyPermission sets the permission of an intact archive when the plan
// changes file_permission to a value.
func applyPermission(plan, state staticExportArchiveModel) error {
	if plan.FilePermission.IsNull() || plan.FilePermission.Equal(state.FilePermission) {
		return nil
	}
	perm, err := parsePermission(plan.FilePermission.ValueString())
	if err != nil {
		return err
	}
	return os.Chmod(plan.OutputPath.ValueString(), perm)
}

// Delete removes the file, as local_file does, only if it is the one the
// resource wrote with the content it wrote; otherwise it leaves it, with a
// warning that says why.
func (r *staticExportArchiveResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state staticExportArchiveModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	written, diags := readWritten(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := state.OutputPath.ValueString()
	v, err := judgeFile(p, written, state.SHA256.ValueString())
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeWarning(path.Root("output_path"), "Archive Left In Place",
			fmt.Sprintf("Checking the file at %s failed (%s), so it was not deleted. Delete it by hand if you no "+
				"longer need it.", p, err))
		return
	case v.Kind == fileMissing:
		return
	case v.Kind != fileIntact || v.adopted:
		resp.Diagnostics.Append(leftInPlaceDiagnostic(p, v))
		return
	}
	if err := os.Remove(p); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Delete The Archive",
			fmt.Sprintf("Deleting the archive at %s failed: %s. Delete it by hand, or fix the permissions of its "+
				"directory and destroy again.", p, err))
		return
	}
	tflog.Info(ctx, "Static export archive deleted", map[string]any{"output_path": p})
}
