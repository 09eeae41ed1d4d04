package staticexport

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ datasource.DataSource              = (*staticExportJobDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*staticExportJobDataSource)(nil)
)

// NewStaticExportJobDataSource returns the mintlify_static_export_job data
// source.
func NewStaticExportJobDataSource() datasource.DataSource {
	return &staticExportJobDataSource{}
}

type staticExportJobDataSource struct {
	core.ConfiguredDataSource
}

type staticExportJobModel struct {
	// Required
	JobID types.String `tfsdk:"job_id"`
	// Optional
	ProjectID types.String   `tfsdk:"project_id"`
	Timeouts  timeouts.Value `tfsdk:"timeouts"`
	// Computed
	Status    types.String  `tfsdk:"status"`
	Progress  types.Float64 `tfsdk:"progress"`
	PageCount types.Int64   `tfsdk:"page_count"`
	CreatedAt types.String  `tfsdk:"created_at"`
	UpdatedAt types.String  `tfsdk:"updated_at"`
	Error     types.String  `tfsdk:"error"`
}

func (d *staticExportJobDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_job"
}

func (d *staticExportJobDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the status and progress of a Mintlify static export job, such as one started " +
			"by `mintlify_static_export_bundle` or by a script. It never generates a bundle link.",
		Attributes: map[string]schema.Attribute{
			// Required
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the static export job, such as `se_3f9a2c1b8e7d4a06`.",
				Required:            true,
				Validators:          []validator.String{core.NotBlank("Set it to the ID of a static export job, such as `se_3f9a2c1b8e7d4a06`.")},
			},

			// Optional
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The project of a project-scoped job, usually " +
					"`mintlify_static_export_bundle.<name>.project_id`.",
				Optional:   true,
				Validators: core.ProjectIDValidators,
			},
			"timeouts": core.Timeouts.DataSource(ctx, timeouts.Opts{
				ReadDescription: "How long reading the job may take. Defaults to `" + core.FormatDuration(core.DefaultReadTimeout) + "`.",
			}),

			// Computed
			"status": schema.StringAttribute{
				MarkdownDescription: "The job's status: " + core.BacktickList(mintlify.StaticExportStatuses) + ".",
				Computed:            true,
			},
			"progress": schema.Float64Attribute{
				MarkdownDescription: "The job's completion percentage, from `0` to `100`; null for a project-scoped job.",
				Computed:            true,
			},
			"page_count": schema.Int64Attribute{
				MarkdownDescription: "The number of pages exported so far; null for a project-scoped job.",
				Computed:            true,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the job was created, in RFC 3339 format.",
				Computed:            true,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the job last changed, in RFC 3339 format.",
				Computed:            true,
			},
			"error": schema.StringAttribute{
				MarkdownDescription: "Why the job failed, when `status` is `failed`; otherwise `null`.",
				Computed:            true,
			},
		},
	}
}

func (d *staticExportJobDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, ok := core.ConfiguredModel[staticExportJobModel](ctx, d.Provider, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	read, ok := core.BeginDataRead(ctx, d.Provider, m.Timeouts, core.DefaultReadTimeout, &resp.Diagnostics)
	defer read.Cancel()
	if !ok {
		return
	}
	readCtx, budget := read.Ctx, read.Budget
	if !m.ProjectID.IsNull() {
		d.readProjectJob(readCtx, &m, budget, resp)
		return
	}
	jobID := m.JobID.ValueString()
	job, err := d.Provider.Client.GetStaticExportJob(readCtx, jobID)
	if err != nil {
		resp.Diagnostics.Append(GetStaticExportJobOp(jobID).At(path.Root("job_id")).Within(budget).Diagnostic(err))
		return
	}
	m.Status = types.StringValue(job.Status)
	m.Progress = types.Float64Value(job.Progress)
	m.PageCount = types.Int64Value(job.PageCount)
	m.setTimes(job.CreatedAt, job.UpdatedAt, job.Error)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// readProjectJob reads a job of the project-scoped contract, never its
// link.
func (d *staticExportJobDataSource) readProjectJob(ctx context.Context, m *staticExportJobModel, budget core.WaitBudget, resp *datasource.ReadResponse) {
	job, diags := getProjectJob(ctx, d.Provider, m.ProjectID.ValueString(), m.JobID.ValueString(), budget)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	m.Status = types.StringValue(job.Status)
	m.Progress, m.PageCount = types.Float64Null(), types.Int64Null()
	m.setTimes(job.CreatedAt, job.UpdatedAt, job.Error)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// setTimes copies a job's times and failure reason into the model.
func (m *staticExportJobModel) setTimes(createdAt, updatedAt time.Time, reason *string) {
	m.CreatedAt = types.StringValue(createdAt.UTC().Format(time.RFC3339))
	m.UpdatedAt = types.StringValue(updatedAt.UTC().Format(time.RFC3339))
	m.Error = types.StringPointerValue(reason)
}
