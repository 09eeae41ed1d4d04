package staticexport

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/ephemeral/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ ephemeral.EphemeralResource              = (*staticExportBundleEphemeralResource)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*staticExportBundleEphemeralResource)(nil)
)

// NewStaticExportBundleEphemeralResource returns the ephemeral
// mintlify_static_export_bundle, which generates a link without storing it.
func NewStaticExportBundleEphemeralResource() ephemeral.EphemeralResource {
	return &staticExportBundleEphemeralResource{}
}

type staticExportBundleEphemeralResource struct {
	core.ConfiguredDataSource
}

type staticExportBundleEphemeralModel struct {
	// Required
	JobID types.String `tfsdk:"job_id"`
	// Optional
	ProjectID types.String   `tfsdk:"project_id"`
	Timeouts  timeouts.Value `tfsdk:"timeouts"`
	// Computed
	BundleURL types.String `tfsdk:"bundle_url"`
	ExpiresAt types.String `tfsdk:"expires_at"`
	SizeBytes types.Int64  `tfsdk:"size_bytes"`
}

func (e *staticExportBundleEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_bundle"
}

func (e *staticExportBundleEphemeralResource) Schema(ctx context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Generates a fresh presigned link to a completed export's bundle at each run, for " +
			"write-only arguments such as `set_wo`. No state or plan file holds it.",
		Attributes: map[string]schema.Attribute{
			// Required
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The ID of a completed static export job, usually " +
					"`mintlify_static_export_bundle.<name>.job_id`.",
				Required:   true,
				Validators: []validator.String{core.NotBlank(jobIDFix)},
			},

			// Optional
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The project of a project-scoped job: " +
					"`mintlify_static_export_bundle.<name>.project_id`, null for a bundle with `domain`.",
				Optional:   true,
				Validators: core.ProjectIDValidators,
			},
			"timeouts": core.Timeouts.Ephemeral(ctx, timeouts.Opts{
				OpenDescription: "How long generating the link may take. Defaults to `" + core.FormatDuration(core.DefaultReadTimeout) + "`.",
			}),

			// Computed
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "The presigned link to the bundle archive, valid until `expires_at`.",
				Computed:            true,
				Sensitive:           true,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When `bundle_url` stops working, in RFC 3339 format.",
				Computed:            true,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "The size of the bundle archive in bytes.",
				Computed:            true,
			},
		},
	}
}

func (e *staticExportBundleEphemeralResource) Configure(ctx context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.ConfigureEphemeral(ctx, req, resp)
}

func (e *staticExportBundleEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	m, ok := core.ConfiguredModel[staticExportBundleEphemeralModel](ctx, e.Provider, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, diags := m.Timeouts.Open(ctx, core.DefaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	openCtx, cancel := e.Provider.Client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	jobID := m.JobID.ValueString()
	if !m.ProjectID.IsNull() {
		e.openProjectLink(openCtx, &m, core.Budget("timeouts.open", timeout), resp)
		return
	}
	bundle, err := e.Provider.Client.GenerateBundle(openCtx, jobID)
	if err != nil {
		op := GenerateBundleOp(jobID).At(path.Root("job_id")).Within(core.Budget("timeouts.open", timeout)).Advise(http.StatusConflict, "Take `job_id` from a "+
			"`mintlify_static_export_bundle`, which waits for its job, or apply again once the job completes.")
		resp.Diagnostics.Append(op.Diagnostic(err))
		return
	}
	m.setLink(bundle)
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

// openProjectLink reads the link of a completed job of the project-scoped
// contract: every read carries a fresh one.
func (e *staticExportBundleEphemeralResource) openProjectLink(ctx context.Context, m *staticExportBundleEphemeralModel, budget core.WaitBudget, resp *ephemeral.OpenResponse) {
	projectID, jobID := m.ProjectID.ValueString(), m.JobID.ValueString()
	job, diags := getProjectJob(ctx, e.Provider, projectID, jobID, budget)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	bundle, ok := job.Bundle()
	if !ok {
		resp.Diagnostics.AddAttributeError(path.Root("job_id"), "Static Export Not Finished",
			fmt.Sprintf("The static export job %s of project %s is `%s`, so it has no link yet. Take `job_id` from a "+
				"`mintlify_static_export_bundle`, which waits for its job, or apply again once the job completes.",
				jobID, projectID, job.Status))
		return
	}
	m.setLink(bundle)
	resp.Diagnostics.Append(resp.Result.Set(ctx, m)...)
}

// setLink copies a link into the model.
func (m *staticExportBundleEphemeralModel) setLink(bundle *mintlify.Bundle) {
	m.BundleURL = types.StringValue(bundle.BundleURL)
	m.ExpiresAt = types.StringValue(bundle.ExpiresAt.UTC().Format(time.RFC3339))
	m.SizeBytes = types.Int64Value(bundle.SizeBytes)
}
