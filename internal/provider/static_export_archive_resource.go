package provider

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

var (
	_ resource.Resource               = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithConfigure  = (*staticExportArchiveResource)(nil)
	_ resource.ResourceWithModifyPlan = (*staticExportArchiveResource)(nil)
)

// Private state keys of mintlify_static_export_archive.
const (
	// privateFileSHA256 is set by Read when the file at output_path no
	// longer holds the archive in state: the SHA-256 it found, hex. The next
	// plan replaces the resource.
	privateFileSHA256 = "file_sha256"
	// privateWritten identifies the file Create wrote (its modification time
	// and size), so that Delete leaves alone a file that has taken its place
	// since: the archive of a replacement created before this resource is
	// destroyed (create_before_destroy, which Terraform also applies to the
	// resources that a create_before_destroy resource depends on).
	privateWritten = "written"
)

// writtenFile is what privateWritten holds.
type writtenFile struct {
	ModTimeNanos int64 `json:"mtime_ns"`
	Size         int64 `json:"size"`
}

func writtenFileOf(info fs.FileInfo) writtenFile {
	return writtenFile{ModTimeNanos: info.ModTime().UnixNano(), Size: info.Size()}
}

// NewStaticExportArchiveResource returns the mintlify_static_export_archive
// resource.
func NewStaticExportArchiveResource() resource.Resource {
	return &staticExportArchiveResource{}
}

type staticExportArchiveResource struct {
	data *providerData
}

type staticExportArchiveModel struct {
	// Inputs
	JobID      types.String   `tfsdk:"job_id"`
	OutputPath types.String   `tfsdk:"output_path"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`

	// Computed
	ID           types.String `tfsdk:"id"`
	SHA256       types.String `tfsdk:"sha256"`
	Base64SHA256 types.String `tfsdk:"base64sha256"`
	MD5          types.String `tfsdk:"md5"`
	SizeBytes    types.Int64  `tfsdk:"size_bytes"`
	FileCount    types.Int64  `tfsdk:"file_count"`
	DownloadedAt types.String `tfsdk:"downloaded_at"`
}

func (r *staticExportArchiveResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_archive"
}

func (r *staticExportArchiveResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepInt := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Downloads the bundle archive of a completed static export job to a local file, verified, " +
			"for your own storage: chain `output_path` and `sha256` into `aws_s3_object` (or MinIO, GCS, Azure Blob) " +
			"and point the Helm chart's `staticExport.bundleUrl` at the internal copy. Pods then never need the " +
			"presigned link, which expires, nor a route to the internet.\n\n" +
			"Creating the resource generates a fresh bundle link for the job (it never uses a link from state, so a " +
			"link that expired long ago does not matter), streams the archive to a temporary file beside " +
			"`output_path`, and computes its hashes and reads it as gzip-compressed tar on the way. A truncated or " +
			"corrupt archive, or one with an entry whose path leaves the archive's directory (absolute, or with " +
			"`..`), is an error and leaves no file behind; otherwise the file is renamed into place. Failed " +
			"requests are retried like every other (see the provider's `max_retries`): the download starts again " +
			"from the first byte, with a fresh link if the storage refuses the old one. Ctrl-C stops it and " +
			"removes the temporary file. If the job has not completed yet, the create waits for it within " +
			"`timeouts.create`; a failed job is an error.\n\n" +
			"Refreshing reads the file, never the network: a missing file removes the resource from state, so the " +
			"next apply downloads it again (from the same export: no new export runs), and a file whose SHA-256 " +
			"differs from `sha256` is replaced. Changing `job_id` or `output_path` replaces the resource.\n\n" +
			"Destroying the resource deletes the file at `output_path`, as `local_file` does, unless another file has " +
			"taken its place since the resource wrote it: for example the archive of a replacement that Terraform " +
			"created first (`create_before_destroy`, which Terraform also applies to the resources a " +
			"`create_before_destroy` resource depends on), which is left in place.",
		Attributes: map[string]schema.Attribute{
			// Required
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the static export job whose archive to download, usually " +
					"`mintlify_static_export_bundle.<name>.job_id`. Changing it replaces the resource.",
				Required:      true,
				Validators:    []validator.String{notBlank(jobIDFix)},
				PlanModifiers: replace,
			},
			"output_path": schema.StringAttribute{
				MarkdownDescription: "Where to write the archive, such as `\"${path.module}/build/docs-bundle.tar.gz\"`. " +
					"A relative path is relative to the directory Terraform runs in. Missing parent directories are " +
					"created. Changing it replaces the resource (the old file is deleted).",
				Required:      true,
				Validators:    []validator.String{outputPathValidator},
				PlanModifiers: replace,
			},
			"timeouts": resourceTimeouts(ctx, timeouts.Opts{
				Create: true,
				CreateDescription: "How long the create may take, waiting for the job if it has not completed and " +
					"downloading its archive, retries included, as a duration such as `45m`. Defaults to `30m`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The archive's SHA-256, hex-encoded: the same as `sha256`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"sha256": schema.StringAttribute{
				MarkdownDescription: "The SHA-256 of the archive, hex-encoded: for `source_hash` of `aws_s3_object`, or a " +
					"version label such as `substr(sha256, 0, 12)`.",
				Computed:      true,
				PlanModifiers: keep,
			},
			"base64sha256": schema.StringAttribute{
				MarkdownDescription: "The SHA-256 of the archive, base64-encoded, as `filebase64sha256()` gives it.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"md5": schema.StringAttribute{
				MarkdownDescription: "The MD5 of the archive, hex-encoded: the `etag` that S3 and MinIO give an object " +
					"uploaded in one part without KMS encryption.",
				Computed:      true,
				PlanModifiers: keep,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "The size of the archive in bytes.",
				Computed:            true,
				PlanModifiers:       keepInt,
			},
			"file_count": schema.Int64Attribute{
				MarkdownDescription: "The number of entries in the archive: files, directories and links.",
				Computed:            true,
				PlanModifiers:       keepInt,
			},
			"downloaded_at": schema.StringAttribute{
				MarkdownDescription: "When the archive was downloaded, in RFC 3339 format.",
				Computed:            true,
				PlanModifiers:       keep,
			},
		},
	}
}

const jobIDFix = "Set it to the ID of a completed static export job, usually " +
	"`mintlify_static_export_bundle.<name>.job_id`."

func (r *staticExportArchiveResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = clientFrom(req.ProviderData, &resp.Diagnostics)
}

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
	timeout, diags := plan.Timeouts.Create(ctx, defaultExportTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	jobID, outputPath := plan.JobID.ValueString(), plan.OutputPath.ValueString()
	ctx = tflog.SetField(ctx, "job_id", jobID)
	ctx = tflog.SetField(ctx, "output_path", outputPath)
	client := r.data.client
	ctx, cancel := client.Clock().WithTimeout(ctx, timeout)
	defer cancel()

	file, err := archivefile.Create(outputPath)
	if err != nil {
		resp.Diagnostics.Append(archiveDiagnostic(err, archiveContext{jobID: jobID, outputPath: outputPath, timeout: timeout}))
		return
	}
	// Whatever happens below, the temporary file goes: Discard does nothing
	// once the archive is committed.
	defer func() { _ = file.Discard() }()

	began := time.Now()
	dl, err := r.download(ctx, jobID, file)
	if err != nil {
		resp.Diagnostics.Append(archiveDiagnostic(err, archiveContext{jobID: jobID, outputPath: outputPath, timeout: timeout}))
		return
	}
	sum, err := file.Commit()
	if err != nil {
		resp.Diagnostics.Append(archiveDiagnostic(err, archiveContext{jobID: jobID, outputPath: outputPath, timeout: timeout}))
		return
	}
	plan.setArchive(sum, client.Clock().Now())
	if info, err := os.Stat(outputPath); err == nil {
		written, _ := json.Marshal(writtenFileOf(info))
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateWritten, written)...)
	}
	tflog.Info(ctx, "Static export archive written", map[string]any{
		"size_bytes": sum.Size, "file_count": sum.Entries, "sha256": plan.SHA256.ValueString(),
		"attempts": dl.Attempts, "links": dl.Links, "seconds": time.Since(began).Seconds(),
	})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
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

// Read checks the file, never the network: a missing file leaves state (the
// next plan downloads it again), and a file whose SHA-256 differs is noted
// for ModifyPlan, which replaces the resource.
func (r *staticExportArchiveResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var outputPath, recorded types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("output_path"), &outputPath)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("sha256"), &recorded)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := outputPath.ValueString()
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err == nil && !info.Mode().IsRegular()):
		tflog.Info(ctx, "The static export archive is no longer at output_path; the next apply downloads it again",
			map[string]any{"output_path": p})
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Read The Archive",
			fmt.Sprintf("Checking the archive at %s failed: %s. Fix the permissions of the file or its directory, or "+
				"remove the file to download it again.", p, err))
		return
	}
	sum, _, err := archivefile.HashFile(p)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Read The Archive",
			fmt.Sprintf("Hashing the archive at %s failed: %s. Fix the permissions of the file, or remove it to "+
				"download it again.", p, err))
		return
	}
	found := hex.EncodeToString(sum[:])
	var mark []byte // nil clears the mark of an earlier refresh
	if found != recorded.ValueString() {
		tflog.Warn(ctx, "The file at output_path is not the archive Terraform downloaded", map[string]any{
			"output_path": p, "sha256": found, "expected_sha256": recorded.ValueString(),
		})
		mark = []byte(strconv.Quote(found)) // private state holds JSON
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateFileSHA256, mark)...)
}

// ModifyPlan replaces the resource when the last refresh found the file
// changed on disk.
func (r *staticExportArchiveResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create or destroy
	}
	raw, diags := req.Private.GetKey(ctx, privateFileSHA256)
	resp.Diagnostics.Append(diags...)
	if len(raw) == 0 || resp.Diagnostics.HasError() {
		return
	}
	found, err := strconv.Unquote(string(raw))
	if err != nil {
		return // not ours: a later refresh rewrites it
	}
	var state, plan staticExportArchiveModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || found == state.SHA256.ValueString() {
		return
	}
	resp.Diagnostics.AddWarning("Archive Changed On Disk",
		fmt.Sprintf("The file %s no longer holds the archive Terraform downloaded: its SHA-256 is %s, not %s. The plan "+
			"replaces the resource, and the apply downloads the archive of static export job %s again (no new export "+
			"runs).", state.OutputPath.ValueString(), found, state.SHA256.ValueString(), state.JobID.ValueString()))
	plan.markArchiveUnknown()
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("sha256"))
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// Update only changes `timeouts`: job_id and output_path replace.
func (r *staticExportArchiveResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan staticExportArchiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the file, as local_file does, unless another file has
// taken its place since Create wrote it.
func (r *staticExportArchiveResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var outputPath types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("output_path"), &outputPath)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := outputPath.ValueString()
	info, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if raw, diags := req.Private.GetKey(ctx, privateWritten); !diags.HasError() && len(raw) > 0 && err == nil {
		var written writtenFile
		if json.Unmarshal(raw, &written) == nil && written != writtenFileOf(info) {
			tflog.Info(ctx, "Leaving the file at output_path: it is not the one this resource wrote (a replacement "+
				"created before this resource was destroyed wrote it, or it was changed)", map[string]any{"output_path": p})
			return
		}
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		resp.Diagnostics.AddAttributeError(path.Root("output_path"), "Cannot Delete The Archive",
			fmt.Sprintf("Deleting the archive at %s failed: %s. Delete it by hand, or fix the permissions of its "+
				"directory and destroy again.", p, err))
		return
	}
	tflog.Info(ctx, "Static export archive deleted", map[string]any{"output_path": p})
}

// setArchive records a committed archive.
func (m *staticExportArchiveModel) setArchive(s archivefile.Summary, at time.Time) {
	sha := hex.EncodeToString(s.SHA256[:])
	m.ID = types.StringValue(sha)
	m.SHA256 = types.StringValue(sha)
	m.Base64SHA256 = types.StringValue(base64.StdEncoding.EncodeToString(s.SHA256[:]))
	m.MD5 = types.StringValue(hex.EncodeToString(s.MD5[:]))
	m.SizeBytes = types.Int64Value(s.Size)
	m.FileCount = types.Int64Value(int64(s.Entries))
	m.DownloadedAt = types.StringValue(at.UTC().Format(time.RFC3339))
}

// markArchiveUnknown plans a new download.
func (m *staticExportArchiveModel) markArchiveUnknown() {
	m.ID, m.SHA256, m.Base64SHA256, m.MD5 = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	m.SizeBytes, m.FileCount = types.Int64Unknown(), types.Int64Unknown()
	m.DownloadedAt = types.StringUnknown()
}
