package deployment

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ datasource.DataSource              = (*deploymentDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*deploymentDataSource)(nil)
)

// NewDeploymentDataSource returns the mintlify_deployment data source.
func NewDeploymentDataSource() datasource.DataSource {
	return &deploymentDataSource{}
}

type deploymentDataSource struct {
	core.ConfiguredDataSource
}

type deploymentDataSourceModel struct {
	// Required
	ID types.String `tfsdk:"id"`
	// Optional
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
	// Computed
	ProjectID types.String `tfsdk:"project_id"`
	deploymentFields
}

func (d *deploymentDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deployment"
}

func (d *deploymentDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads a Mintlify deployment that something else triggered, by its status ID. " +
			"A `failure` is read like any other status: check `status` in a `postcondition`.",
		Attributes: map[string]schema.Attribute{
			// Required
			"id": schema.StringAttribute{
				MarkdownDescription: "The deployment's status ID, which triggering the deployment answered " +
					"(`statusId`).",
				Required: true,
				Validators: []validator.String{core.PathSegmentID("Invalid Deployment Status ID", "deployment status ID",
					"the `statusId` that triggering the deployment answered")},
			},

			// Optional
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the deployment is `success` or `failure`, within `timeouts.read`. " +
					"Defaults to `false`.",
				Optional: true,
			},
			"timeouts": core.Timeouts.DataSource(ctx, timeouts.Opts{
				ReadDescription: "How long reading, or waiting with `wait_for_completion`, may take. Defaults to `" +
					core.FormatDuration(defaultDeploymentWaitTimeout) + "` with `wait_for_completion`, `" +
					core.FormatDuration(core.DefaultReadTimeout) + "` without.",
			}),

			// Computed
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project of the deployment, as the API names it, or `null`.",
				Computed:            true,
			},
		},
	}
	for name, attr := range deploymentDataSourceFields() {
		resp.Schema.Attributes[name] = attr
	}
}

func (d *deploymentDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, ok := core.ConfiguredModel[deploymentDataSourceModel](ctx, d.Provider, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	id := m.ID.ValueString()
	ctx = tflog.SetField(ctx, "deployment_id", id)
	wait := m.WaitForCompletion.ValueBool()
	defaultTimeout := core.DefaultReadTimeout
	if wait {
		defaultTimeout = defaultDeploymentWaitTimeout
	}
	read, ok := core.BeginDataRead(ctx, d.Provider, m.Timeouts, defaultTimeout, &resp.Diagnostics)
	defer read.Cancel()
	if !ok {
		return
	}
	readCtx, b := read.Ctx, read.Budget
	client := d.Provider.Client
	// The deployment names its project; diagnostics before it is read
	// name the provider's, which the API does not need.
	projectID := d.Provider.ProjectID
	var dep *mintlify.Deployment
	if wait {
		// A failed deployment is read like any other: failed is empty.
		var diags diag.Diagnostics
		dep, diags = waitForDeployment(readCtx, client, projectID, id, deploymentWait{Budget: b, Attr: path.Root("id"),
			Resume: "Set `wait_for_completion = false` to read the deployment as it is.",
			Longer: takesLonger(b, "deployments")}, foretold{})
		resp.Diagnostics.Append(diags...)
	} else {
		var err error
		if dep, err = client.GetDeployment(readCtx, id); err != nil {
			resp.Diagnostics.Append(GetDeploymentOp(projectID, id).At(path.Root("id")).Within(b).Diagnostic(err))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m.ProjectID = optionalString(dep.ProjectID)
	m.set(dep)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
