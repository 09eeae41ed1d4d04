package staticexport

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The lifecycle of mintlify_static_export_archive. Create downloads; Read
// looks at the file (never the network) and notes what it found in
// private state; ModifyPlan (archive_plan.go) turns that into a restore, an
// in-place update that keeps the hashes known; Update restores or changes
// the permission; Delete removes the file only if it is the one the
// resource wrote.

var (
	_ resource.Resource                = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithConfigure   = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithImportState = (*staticExportArchiveResource)(nil)
)

// NewStaticExportArchiveResource returns the mintlify_static_export_archive
// resource. What its lifecycle does with the file is in
// archive_lifecycle.go, what it owns on disk in archive_ownership.go.
func NewStaticExportArchiveResource() resource.Resource {
	return &staticExportArchiveResource{}
}

type staticExportArchiveResource struct {
	core.ConfiguredResource
}

type staticExportArchiveModel struct {
	// Inputs
	JobID          types.String   `tfsdk:"job_id"`
	OutputPath     types.String   `tfsdk:"output_path"`
	FilePermission types.String   `tfsdk:"file_permission"`
	Overwrite      types.Bool     `tfsdk:"overwrite"`
	ProjectID      types.String   `tfsdk:"project_id"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`

	// Computed
	ID           types.String `tfsdk:"id"`
	SHA256       types.String `tfsdk:"sha256"`
	Base64SHA256 types.String `tfsdk:"base64sha256"`
	MD5          types.String `tfsdk:"md5"`
	SizeBytes    types.Int64  `tfsdk:"size_bytes"`
	FileCount    types.Int64  `tfsdk:"file_count"`
	Format       types.String `tfsdk:"format"`
	DownloadedAt types.String `tfsdk:"downloaded_at"`
}

func (r *staticExportArchiveResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_archive"
}

func (r *staticExportArchiveResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: archiveResourceDescription,
		Attributes: map[string]schema.Attribute{
			// Required
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The static export job whose archive to download, usually " +
					"`mintlify_static_export_bundle.<name>.job_id`. Changing it replaces the resource.",
				Required:      true,
				Validators:    []validator.String{core.NotBlank(jobIDFix)},
				PlanModifiers: replace,
			},
			"output_path": schema.StringAttribute{
				MarkdownDescription: "Where to write the archive, such as `\"${path.module}/build/docs-bundle.tar.gz\"`. " +
					"Missing parent directories are created. An extension of the other format than the job's is " +
					"warned about at plan. Changing it replaces the resource.",
				Required:      true,
				Validators:    []validator.String{outputPathValidator},
				PlanModifiers: replace,
			},

			// Optional
			"file_permission": schema.StringAttribute{
				MarkdownDescription: "The archive's permission in octal, such as `\"0640\"`, whatever the umask; " +
					"the owner must be able to read it. Defaults to `0666` less the umask.",
				Optional:   true,
				Validators: []validator.String{filePermissionValidator},
			},
			"overwrite": schema.BoolAttribute{
				MarkdownDescription: "Whether a create or restore may replace a file at `output_path` that the " +
					"resource did not write. Defaults to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The project of a project-scoped job, usually " +
					"`mintlify_static_export_bundle.<name>.project_id`. Changing it replaces the resource.",
				Optional:      true,
				Validators:    core.ProjectIDValidators,
				PlanModifiers: replace,
			},
			"timeouts": core.Timeouts.Resource(ctx, timeouts.Opts{
				Create:            true,
				CreateDescription: "How long a create or a restore may take. Defaults to `30m`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The archive's SHA-256, hex-encoded: the same as `sha256`.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"sha256": schema.StringAttribute{
				MarkdownDescription: "The SHA-256 of the archive, hex-encoded.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"base64sha256": schema.StringAttribute{
				MarkdownDescription: "The SHA-256 of the archive, base64-encoded, as `filebase64sha256()` gives it.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"md5": schema.StringAttribute{
				MarkdownDescription: "The MD5 of the archive, hex-encoded: an S3 single-part `etag`.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: sizeBytesDescription,
				Computed:            true,
				PlanModifiers:       keepInt64,
			},
			"file_count": schema.Int64Attribute{
				MarkdownDescription: "The number of files and directories in the archive.",
				Computed:            true,
				PlanModifiers:       keepInt64,
			},
			"format": schema.StringAttribute{
				MarkdownDescription: "The archive's format, " + core.BacktickList(archiveFormats) + ", told by its " +
					"first bytes.",
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
			"downloaded_at": schema.StringAttribute{
				MarkdownDescription: "When the archive was last downloaded, in RFC 3339 format.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
		},
	}
}

// archiveFormats are the values of `format`: the formats the archive check
// tells apart.
var archiveFormats = []string{archivefile.FormatTarGz, archivefile.FormatZip}

// sizeBytesDescription states the download's size limits, the ceiling
// from the client's constant.
var sizeBytesDescription = fmt.Sprintf("The size of the archive in bytes. A download past the announced size, or "+
	"past %d GiB when none is announced, fails.", mintlify.MaxUnannouncedBundleBytes>>30)

const archiveResourceDescription = "Downloads the bundle archive of a static export job to a local file, " +
	"verified, for your own storage, from which the Helm chart can fetch it without the expiring link."

// setArchive records a committed archive.
func (m *staticExportArchiveModel) setArchive(s archivefile.Summary, at time.Time) {
	sha := hex.EncodeToString(s.SHA256[:])
	m.ID = types.StringValue(sha)
	m.SHA256 = types.StringValue(sha)
	m.Base64SHA256 = types.StringValue(base64.StdEncoding.EncodeToString(s.SHA256[:]))
	m.MD5 = types.StringValue(hex.EncodeToString(s.MD5[:]))
	m.SizeBytes = types.Int64Value(s.Size)
	m.FileCount = types.Int64Value(int64(s.Entries))
	m.Format = types.StringValue(s.Format)
	m.DownloadedAt = types.StringValue(at.UTC().Format(time.RFC3339))
}

// ImportState refuses: the resource owns only the file it wrote and
// verified itself (see archive_ownership.go), which an import cannot prove
// of a file on disk. Declaring the resource downloads the archive again.
func (r *staticExportArchiveResource) ImportState(_ context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.AddError("Static Export Archive Cannot Be Imported",
		fmt.Sprintf("A mintlify_static_export_archive owns only a file it downloaded and verified itself, and "+
			"cannot tell that of an existing file, so %q cannot be adopted. Remove the `import` block (or skip "+
			"`terraform import`), and declare the resource with the export's `job_id` and the `output_path`: the "+
			"next apply downloads and checks the archive again. A file already at `output_path` is never "+
			"replaced unless `overwrite = true`.", req.ID))
}

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
