package agentjob

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ datasource.DataSource              = (*agentJobDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*agentJobDataSource)(nil)
)

// NewAgentJobDataSource returns the mintlify_agent_job data source.
func NewAgentJobDataSource() datasource.DataSource {
	return &agentJobDataSource{}
}

type agentJobDataSource struct {
	core.ConfiguredDataSource
}

type agentJobDataSourceModel struct {
	// Required
	ID types.String `tfsdk:"id"`
	// Optional
	ProjectID         types.String   `tfsdk:"project_id"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
	// Computed
	agentJobFields
}

func (d *agentJobDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (d *agentJobDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads a job of the Mintlify documentation agent, such as its status and pull request.",
		Attributes: map[string]schema.Attribute{
			// Required
			"id": schema.StringAttribute{
				MarkdownDescription: "The ID of the agent job.",
				Required:            true,
				Validators:          []validator.String{core.NotBlank("Set it to the ID of an agent job of the project.")},
			},

			// Optional
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project the job belongs to. Defaults to the provider's `project_id`.",
				Optional:            true,
				Computed:            true,
				Validators:          core.ProjectIDValidators,
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the job is `completed`, `archived` or `failed`. Defaults to `false`.",
				Optional:            true,
			},
			"timeouts": core.Timeouts.DataSource(ctx, timeouts.Opts{
				ReadDescription: "How long reading, or waiting with `wait_for_completion`, may take. Defaults to " +
					"`30m` with `wait_for_completion`, `" + core.FormatDuration(core.DefaultReadTimeout) + "` without.",
			}),
		},
	}
	for name, attr := range agentJobDataSourceFields() {
		resp.Schema.Attributes[name] = attr
	}
}

func (d *agentJobDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, ok := core.ConfiguredModel[agentJobDataSourceModel](ctx, d.Provider, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	projectID, diags := d.Provider.ProjectFor(m.ProjectID, "Reading an agent job", "data source")
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.ID.ValueString()
	ctx = tflog.SetField(ctx, "agent_job_id", id)

	wait := m.WaitForCompletion.ValueBool()
	defaultTimeout := core.DefaultReadTimeout
	if wait {
		defaultTimeout = defaultAgentWaitTimeout
	}
	read, ok := core.BeginDataRead(ctx, d.Provider, m.Timeouts, defaultTimeout, &resp.Diagnostics)
	defer read.Cancel()
	if !ok {
		return
	}
	readCtx, b := read.Ctx, read.Budget
	client := d.Provider.Client
	var job *mintlify.AgentJob
	if wait {
		// A failed job is read like any other: w.failed is empty.
		job, diags = waitForAgentJob(readCtx, client, projectID, id, nil, agentWait{Budget: b, Attr: path.Root("id"),
			Resume: "Set `wait_for_completion = false` to read the job as it is.", Longer: agentTakesLonger(b)})
		resp.Diagnostics.Append(diags...)
	} else {
		var err error
		job, err = client.GetAgentJob(readCtx, projectID, id)
		if err != nil {
			resp.Diagnostics.Append(GetAgentJobOp(projectID, id).At(path.Root("id")).Within(b).Diagnostic(err))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	m.ProjectID = types.StringValue(projectID)
	resp.Diagnostics.Append(m.set(job)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
