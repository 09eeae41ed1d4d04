// Package provider is the Terraform-facing half of the Mintlify provider:
// schemas, plans, state and diagnostics. Every API call goes through
// internal/mintlify.
package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// Environment variables read when the matching provider argument is not set.
const (
	envAPIKey    = "MINTLIFY_API_KEY"
	envBaseURL   = "MINTLIFY_BASE_URL"
	envProjectID = "MINTLIFY_PROJECT_ID"
)

var _ provider.Provider = (*mintlifyProvider)(nil)

type mintlifyProvider struct {
	version string
	// clock and httpClient are replaced only by tests, which run the whole
	// provider on a virtual clock against the in-repo fake API.
	clock      clock.Clock
	httpClient *http.Client
}

// providerData is what Configure hands to resources and data sources.
type providerData struct {
	client    *mintlify.Client
	projectID string
}

type providerModel struct {
	APIKey    types.String `tfsdk:"api_key"`
	BaseURL   types.String `tfsdk:"base_url"`
	ProjectID types.String `tfsdk:"project_id"`
}

// New returns a constructor for the provider at the given release version.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &mintlifyProvider{version: version, clock: clock.Real()}
	}
}

func (p *mintlifyProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "mintlify"
	resp.Version = p.version
}

func (p *mintlifyProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The Mintlify provider manages static exports of Mintlify documentation " +
			"for the self-hosted Enterprise Helm chart, and reads the jobs of Mintlify's documentation agent, " +
			"through the Mintlify admin API.",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "A Mintlify admin API key (it begins with `mint_`), from the API keys page of the " +
					"Mintlify dashboard. Can also be set with the `" + envAPIKey + "` environment variable, " +
					"which keeps it out of configuration files.",
				Optional:  true,
				Sensitive: true,
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "The root of the Mintlify API, with or without a trailing slash; a path prefix " +
					"(a proxy mounted at `https://proxy.example.com/mintlify`) is kept. Can also be set with the `" +
					envBaseURL + "` environment variable. Defaults to `" + mintlify.DefaultBaseURL + "`.",
				Optional: true,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project ID used by `mintlify_agent_job` when the data source does " +
					"not set its own. Copy it from the API keys page of the Mintlify dashboard. Can also be set " +
					"with the `" + envProjectID + "` environment variable.",
				Optional: true,
			},
		},
	}
}

func (p *mintlifyProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var config providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}

	// A value that comes from another resource is unknown until apply.
	// Configure nothing now; Terraform configures the provider again once
	// the value is known, and anything that needs the client before then
	// reports that it is missing.
	if config.APIKey.IsUnknown() || config.BaseURL.IsUnknown() || config.ProjectID.IsUnknown() {
		return
	}

	apiKey := stringOrEnv(config.APIKey, envAPIKey)
	baseURL := stringOrEnv(config.BaseURL, envBaseURL)
	if baseURL == "" {
		baseURL = mintlify.DefaultBaseURL
	}
	if apiKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing Mintlify API Key",
			"The provider needs a Mintlify admin API key to call the API. Set the `api_key` argument of "+
				"the `mintlify` provider, or the `"+envAPIKey+"` environment variable. Admin keys begin "+
				"with `mint_` and are created on the API keys page of the Mintlify dashboard.")
		return
	}

	opts := []mintlify.Option{
		mintlify.WithBaseURL(baseURL),
		mintlify.WithUserAgent(fmt.Sprintf("terraform-provider-mintlify/%s (+Terraform %s)", p.version, req.TerraformVersion)),
		mintlify.WithClock(p.clock),
	}
	if p.httpClient != nil {
		opts = append(opts, mintlify.WithHTTPClient(p.httpClient))
	}
	client, err := mintlify.New(apiKey, opts...)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid Mintlify Base URL",
			fmt.Sprintf("The provider could not use the base URL: %s. Set `base_url` (or `%s`) to an absolute "+
				"URL such as `%s`.", err, envBaseURL, mintlify.DefaultBaseURL))
		return
	}

	data := &providerData{client: client, projectID: stringOrEnv(config.ProjectID, envProjectID)}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
}

func (p *mintlifyProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewStaticExportBundleResource,
	}
}

func (p *mintlifyProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewAgentJobDataSource,
		NewStaticExportJobDataSource,
	}
}

// stringOrEnv returns the configured value, or the environment variable when
// the argument is not set.
func stringOrEnv(v types.String, env string) string {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueString()
	}
	return os.Getenv(env)
}

// clientFrom extracts the configured provider data in a resource's or data
// source's Configure. It returns nil, without a diagnostic, while the
// provider itself is not configured yet.
func clientFrom(raw any, diags interface {
	AddError(summary, detail string)
}) *providerData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", raw))
		return nil
	}
	return data
}
