package staticexport

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The lifecycle of mintlify_static_export_archive. Create downloads; Read
// looks at the file (never the network) and notes what it found in
// private state; ModifyPlan turns that into a restore, an in-place update
// that keeps the hashes known; Update restores or changes the permission;
// Delete removes the file only if it is the one the resource wrote.

func (r *staticExportArchiveResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.Provider == nil {
		resp.Diagnostics.Append(core.NotConfiguredDiagnostic())
		return
	}
	var plan staticExportArchiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, at := plan.archiveAttempt(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// Terraform gives a create no private state, not even the create half
	// of a replacement: the file of an earlier instance is not known here.
	overwrite := plan.Overwrite.ValueBool()
	if err := checkOutputPath(at.outputPath, archivefile.Identity{}, overwrite); err != nil { // before any request
		resp.Diagnostics.Append(archiveDiagnostic(err, at))
		return
	}
	sum, id, err := r.fetch(ctx, &plan, &at, "", mayReplace(at.outputPath, archivefile.Identity{}, overwrite))
	if err != nil {
		resp.Diagnostics.Append(archiveDiagnostic(err, at))
		return
	}
	plan.setArchive(sum, r.Provider.Client.Clock().Now())
	resp.Diagnostics.Append(core.PrivateState[archiveFacts]{Facts: archiveFacts{Written: id}}.Write(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

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

// Read looks at the file at output_path, never the network, and notes in
// private state what it found when it is not the archive the resource
// wrote. A file holding exactly the archive is taken as the resource's.
func (r *staticExportArchiveResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, priv, v, err := lookAtArchive(ctx, req.State, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	p := state.OutputPath.ValueString()
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
		priv.Facts.Written = v.id
	case v.Kind != fileIntact:
		tflog.Warn(ctx, "The file at output_path is not the archive the resource wrote", map[string]any{
			"output_path": p, "found": string(v.Kind), "sha256": v.SHA256, "expected_sha256": state.SHA256.ValueString(),
		})
	}
	priv.Facts.FileDrift = drift(v)
	resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
}

// ModifyPlan refuses at plan a create over a file the resource did not
// write, and plans the restore of an archive that the last refresh found
// missing or changed: an in-place update, with a warning, that keeps every
// hash known (only downloaded_at is unknown).
func (r *staticExportArchiveResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer core.CheckKeyOnCreate(ctx, r.Provider, req, resp)
	plan, ok := plannedModel[staticExportArchiveModel](ctx, req, resp)
	if !ok {
		return
	}
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(planCreate(ctx, req, plan)...)
		return
	}
	var state staticExportArchiveModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	var priv core.PrivateState[archiveFacts]
	diags := priv.Read(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || replaced(plan, state) {
		return
	}
	restore := priv.Facts.FileDrift != nil
	if restore {
		if d := driftDiagnostic(*priv.Facts.FileDrift, state, plan.Overwrite); d != nil {
			resp.Diagnostics.Append(d)
		}
		if resp.Diagnostics.HasError() {
			return
		}
		plan.DownloadedAt = types.StringUnknown()
	}
	plan.Format = plannedFormat(state.Format, restore)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planCreate refuses a create whose output_path, known at plan, holds
// something other than a regular file, whatever overwrite says, or a file
// the resource did not write, except an archive (gzip or ZIP), which
// Create refuses instead (before downloading anything).
//
// The exception is for create_before_destroy. Terraform plans the create
// half of a replacement with the private state of the instance it
// replaces, so the old instance's file passes here at plan (and without
// create_before_destroy it is deleted before the create). But at apply,
// Terraform sets the old instance aside and plans the create again with no
// private state: an error here would then leave the old instance set aside
// (deposed) instead of current, while an error of Create makes Terraform
// restore it. The old instance's file is an archive, gzip or ZIP.
func planCreate(ctx context.Context, req resource.ModifyPlanRequest, plan staticExportArchiveModel) diag.Diagnostics {
	if plan.OutputPath.IsUnknown() {
		return nil
	}
	p := plan.OutputPath.ValueString()
	var priv core.PrivateState[archiveFacts]
	diags := priv.Read(ctx, req.Private)
	// Unknown, overwrite may be true: only what it never allows is refused.
	overwrite := plan.Overwrite.IsUnknown() || plan.Overwrite.ValueBool()
	var occupied *occupiedError
	var notRegular *notRegularError
	switch err := checkOutputPath(p, priv.Facts.Written, overwrite); {
	case errors.As(err, &notRegular):
		diags.Append(notRegularDiagnostic(notRegular, "Nothing was downloaded."))
	case errors.As(err, &occupied) && !isArchiveFile(p):
		diags.Append(occupiedDiagnostic(occupied, "Nothing was downloaded."))
	}
	return diags
}

// replaced reports whether the plan replaces the resource.
func replaced(plan, state staticExportArchiveModel) bool {
	return !plan.JobID.Equal(state.JobID) || !plan.ProjectID.Equal(state.ProjectID) || !plan.OutputPath.Equal(state.OutputPath)
}

// plannedFormat is `format` in a plan that keeps the resource: the state's.
// A state written before `format` existed has none: it stays null, so that
// such a state plans no change, until a restore downloads the archive
// again and tells it (unknown until then).
func plannedFormat(state types.String, restore bool) types.String {
	if state.IsNull() && restore {
		return types.StringUnknown()
	}
	return state
}

// Update restores an archive found missing or changed (checking first what
// is at output_path now), or changes the file's permission.
func (r *staticExportArchiveResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.Provider == nil {
		resp.Diagnostics.Append(core.NotConfiguredDiagnostic())
		return
	}
	var plan, state staticExportArchiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	var priv core.PrivateState[archiveFacts]
	diags := priv.Read(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	ctx, at := plan.archiveAttempt(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if _, err := plan.filePermission(); err != nil { // unknown at plan
		resp.Diagnostics.Append(archiveDiagnostic(err, at))
		return
	}
	v, err := judgeFile(at.outputPath, priv.Facts.Written, state.SHA256.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Read The Archive",
			fmt.Sprintf("Checking the archive at %s failed: %s. Fix the permissions of the file or its directory, "+
				"then apply again.", at.outputPath, err))
		return
	}
	overwrite := plan.Overwrite.ValueBool()
	switch {
	case v.Kind == fileIntact:
		if v.adopted {
			priv.Facts.Written = v.id
		}
		plan.DownloadedAt = state.DownloadedAt
		if err := applyPermission(plan, state, v.id); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("file_permission"), "Cannot Change The Archive's Permission",
				fmt.Sprintf("Setting the permission of %s failed: %s. Check that you own the file.", at.outputPath, err))
			return
		}
	case v.NotRegular:
		resp.Diagnostics.Append(archiveDiagnostic(&notRegularError{path: at.outputPath, what: v.What}, at))
		return
	case v.Kind == fileForeign && !overwrite:
		resp.Diagnostics.Append(archiveDiagnostic(&occupiedError{path: at.outputPath, what: v.What, restoring: true}, at))
		return
	default:
		tflog.Warn(ctx, "Restoring the archive at output_path from the same export", map[string]any{"found": string(v.Kind)})
		sum, id, err := r.fetch(ctx, &plan, &at, state.SHA256.ValueString(), mayReplace(at.outputPath, priv.Facts.Written, overwrite))
		if err != nil {
			resp.Diagnostics.Append(archiveDiagnostic(err, at))
			return
		}
		plan.setArchive(sum, r.Provider.Client.Clock().Now())
		priv.Facts.Written = id
	}
	priv.Facts.FileDrift = nil
	resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
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

// Delete removes the file, as local_file does, only if it is the one the
// resource wrote with the content it wrote; otherwise it leaves it, with a
// warning that says why.
func (r *staticExportArchiveResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, _, v, err := lookAtArchive(ctx, req.State, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	p := state.OutputPath.ValueString()
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
	// Only if the name still holds the file judged.
	if err := archivefile.RemoveIf(p, v.id); errors.Is(err, archivefile.ErrReplaced) {
		resp.Diagnostics.AddAttributeWarning(path.Root("output_path"), "Archive Left In Place",
			fmt.Sprintf("%s was not deleted: another file took the place of the archive while it was being "+
				"destroyed. Delete it by hand if you no longer need it.", p))
		return
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Delete The Archive",
			fmt.Sprintf("Deleting the archive at %s failed: %s. Delete it by hand, or fix the permissions of its "+
				"directory and destroy again.", p, err))
		return
	}
	tflog.Info(ctx, "Static export archive deleted", map[string]any{"output_path": p})
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
