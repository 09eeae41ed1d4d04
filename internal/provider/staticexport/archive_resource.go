package staticexport

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ resource.Resource                = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithConfigure   = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithImportState = (*staticExportArchiveResource)(nil)
)

// NewStaticExportArchiveResource returns the mintlify_static_export_archive
// resource. Its lifecycle is in static_export_archive_lifecycle.go, what it
// owns on disk in static_export_archive_ownership.go.
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
