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
	_ resource.Resource               = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithConfigure  = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithModifyPlan = (*staticExportArchiveResource)(nil)
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
				MarkdownDescription: "The ID of the static export job whose archive to download, usually " +
					"`mintlify_static_export_bundle.<name>.job_id`; a job of the project-scoped contract needs " +
					"`project_id` too. Changing it replaces the resource.",
				Required:      true,
				Validators:    []validator.String{core.NotBlank(jobIDFix)},
				PlanModifiers: replace,
			},
			"output_path": schema.StringAttribute{
				MarkdownDescription: "Where to write the archive, such as `\"${path.module}/build/docs-bundle.tar.gz\"`. " +
					"A relative path is relative to the directory Terraform runs in. Missing parent directories are " +
					"created. A file already there is refused, before anything is downloaded (at plan when the path is " +
					"known and the file is not gzip, otherwise at apply), unless `overwrite` is `true`. Anything but a " +
					"regular file there (a directory, a symbolic link, a FIFO, a device) is refused whatever " +
					"`overwrite` says. Changing it " +
					"replaces the resource (the old file is deleted if it is still the one the resource wrote).",
				Required:      true,
				Validators:    []validator.String{outputPathValidator},
				PlanModifiers: replace,
			},

			// Optional
			"file_permission": schema.StringAttribute{
				MarkdownDescription: "The archive's permission, in octal digits such as `\"0640\"`, set exactly " +
					"whatever the umask, the same on create, restore and change. It must let the file's owner read " +
					"it (the provider reads the archive at every refresh): `\"0000\"`, `\"0200\"` and the like are " +
					"refused at plan. When unset, the file is created as any new file is: `0666` less the " +
					"process umask (`0644` under the usual umask `022`, `0600` under `077`). Changing it changes the " +
					"file's permission in place; removing it leaves the permission as it is.",
				Optional:   true,
				Validators: []validator.String{filePermissionValidator},
			},
			"overwrite": schema.BoolAttribute{
				MarkdownDescription: "Whether the resource may replace a regular file at `output_path` that it did " +
					"not write. Defaults to `false`: a create, or a restore of a missing or changed archive, then " +
					"refuses with an error that names the file, and the file stays as it is. With `true`, the file is " +
					"replaced by the archive. A directory, a symbolic link, a FIFO or a device is never replaced, even " +
					"with `true`. Destroy never deletes a file the resource did not write, whatever this says.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The project of a job of the project-scoped static export (a bundle without " +
					"`domain`), usually `mintlify_static_export_bundle.<name>.project_id`. With it, the job is read " +
					"under the project (waiting for it if it has not completed), and the archive is downloaded from " +
					"the link of that read: a ZIP archive under that contract. Without it, the job is one of today's " +
					"domain-scoped contract, whose link comes from its bundle call. Changing it replaces the resource.",
				Optional:      true,
				Validators:    core.ProjectIDValidators,
				PlanModifiers: replace,
			},
			"timeouts": core.ResourceTimeouts(ctx, timeouts.Opts{
				Create: true,
				CreateDescription: "How long a download may take, waiting for the job if it has not completed and " +
					"downloading its archive, retries included, as a duration such as `45m`: the create's, and a " +
					"restore's. Defaults to `30m`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The archive's SHA-256, hex-encoded: the same as `sha256`.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"sha256": schema.StringAttribute{
				MarkdownDescription: "The SHA-256 of the archive, hex-encoded: for `source_hash` of `aws_s3_object`, or a " +
					"version label such as `substr(sha256, 0, 12)`. A restore keeps it (and the other hashes) known " +
					"at plan.",
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
			"base64sha256": schema.StringAttribute{
				MarkdownDescription: "The SHA-256 of the archive, base64-encoded, as `filebase64sha256()` gives it.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"md5": schema.StringAttribute{
				MarkdownDescription: "The MD5 of the archive, hex-encoded: the `etag` that S3 and MinIO give an object " +
					"uploaded in one part without KMS encryption.",
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: sizeBytesDescription,
				Computed:            true,
				PlanModifiers:       core.KeepInt64,
			},
			"file_count": schema.Int64Attribute{
				MarkdownDescription: "The number of entries in the archive: its files and directories (not the root `./`, nor the " +
					"directories that paths only imply).",
				Computed:      true,
				PlanModifiers: core.KeepInt64,
			},
			"format": schema.StringAttribute{
				MarkdownDescription: "The archive's format, " + core.BacktickList(archiveFormats) + ", told by its " +
					"first bytes (gzip's magic, or a ZIP's first header), never by the link's name or `output_path`: " +
					"extract a `tar.gz` with `tar -xzf`, a `zip` with `unzip`. Null for an archive that an earlier " +
					"version of the provider downloaded, until the archive is downloaded again (a restore or a " +
					"replacement): a plan never changes it on its own.",
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
			"downloaded_at": schema.StringAttribute{
				MarkdownDescription: "When the archive was downloaded, in RFC 3339 format: by the create, or by the " +
					"last restore.",
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
		},
	}
}

// archiveFormats are the values of `format`: the formats the archive check
// tells apart.
var archiveFormats = []string{archivefile.FormatTarGz, archivefile.FormatZip}

// sizeBytesDescription states the download's size limits, the ceiling
// from the client's constant.
var sizeBytesDescription = fmt.Sprintf("The size of the archive in bytes. The download stops at the first byte "+
	"past the bundle's announced size (its `sizeBytes`, or a `Content-Length` above it) or, when the API announces "+
	"none, past %d GiB (%d bytes); the create then fails and leaves no file.",
	mintlify.MaxUnannouncedBundleBytes>>30, mintlify.MaxUnannouncedBundleBytes)

const archiveResourceDescription = "Downloads the bundle archive of a completed static export job to a local file, " +
	"verified, for your own storage: chain `output_path` and `sha256` into `aws_s3_object` (or MinIO, GCS, Azure " +
	"Blob) and point the Helm chart's `staticExport.bundleUrl` at the internal copy. Pods then never need the " +
	"presigned link, which expires, nor a route to the internet.\n\n" +
	"Creating the resource generates a fresh bundle link for the job, or, with `project_id`, reads the job, whose " +
	"every read carries a fresh link (it never uses a link from state, so a link " +
	"that expired long ago does not matter), streams the archive to a temporary file beside `output_path`, and " +
	"computes its hashes and checks it on the way, in the format its first bytes tell (gzip-compressed tar or " +
	"ZIP, shown in `format`), never the link's name. A truncated or corrupt archive, a body " +
	"larger than the bundle announced, or an archive that holds anything but regular files and directories with " +
	"plain names, in headers every extractor reads alike (no link, device or sparse file; no absolute or `..` path; " +
	"no two paths alike ignoring case) is an error that names the format, the entry and the rule, and " +
	"leaves no file behind; otherwise the file is flushed " +
	"to disk and renamed into place. Failed requests are retried like every other (see the provider's " +
	"`max_retries`): the download starts again from the first byte, with a fresh link if the storage refuses the " +
	"old one. Ctrl-C stops it and removes the temporary file. If the job has not completed yet, the create waits " +
	"for it within `timeouts.create`; a failed job is an error.\n\n" +
	"The resource never replaces a file it did not write unless `overwrite = true`, never replaces anything but a " +
	"regular file, and never deletes a file it did not write. It " +
	"recognises the file it wrote by its identity on disk (device, inode and, where the file system records it, " +
	"birth time), not by its modification time or size. Refreshing reads the file, never the network: a missing " +
	"file, or the resource's file with other content, is restored from the same export (no new export runs) by an " +
	"in-place update, with a warning at plan; `sha256` and the other hashes stay known, so resources that use them " +
	"do not change. A file that another has replaced is a warning at plan and an error at apply, unless " +
	"`overwrite = true`. Changing `job_id`, `project_id` or `output_path` replaces the resource.\n\n" +
	"Destroying the resource deletes the file at `output_path`, as `local_file` does, only if it is the file the " +
	"resource wrote, with the content it wrote; otherwise it leaves the file and says why in a warning."

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
