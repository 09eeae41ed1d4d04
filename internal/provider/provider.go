// Package provider is the Terraform-facing half of the Mintlify provider:
// schemas, plans, state and diagnostics. Every API call goes through
// internal/mintlify.
package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

var (
	_ provider.Provider                       = (*mintlifyProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*mintlifyProvider)(nil)
	_ provider.ProviderWithActions            = (*mintlifyProvider)(nil)
)

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
	// families holds what a family keeps for as long as the provider is
	// configured (one apply), by the family's key: see familyState.
	mu       sync.Mutex
	families map[any]any
}

// familyState is the value that key holds in this configured provider,
// made by create on first use. A family keeps there what one operation
// hands to another within an apply (the deployment's hand-over from the
// destroy of a tainted resource to its replacement).
func familyState[T any](d *providerData, key any, create func() *T) *T {
	d.mu.Lock()
	defer d.mu.Unlock()
	if v, ok := d.families[key].(*T); ok {
		return v
	}
	if d.families == nil {
		d.families = map[any]any{}
	}
	v := create()
	d.families[key] = v
	return v
}

type providerModel struct {
	APIKey         types.String `tfsdk:"api_key"`
	BaseURL        types.String `tfsdk:"base_url"`
	ProjectID      types.String `tfsdk:"project_id"`
	MaxRetries     types.Int64  `tfsdk:"max_retries"`
	RequestTimeout types.String `tfsdk:"request_timeout"`
}

// New returns a constructor for the provider at the given release version.
func New(version string) func() provider.Provider {
	return NewOnClock(version, clock.Real())
}

// NewOnClock is New with every wait, timeout and timestamp of the provider
// on c instead of the wall clock. Only tests call it: those outside this
// package (internal/docstest) run the provider in the test process on the
// fake API's virtual clock, as this package's own tests do.
func NewOnClock(version string, c clock.Clock) func() provider.Provider {
	return func() provider.Provider {
		return &mintlifyProvider{version: version, clock: c}
	}
}

func (p *mintlifyProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "mintlify"
	resp.Version = p.version
}

func (p *mintlifyProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The Mintlify provider manages static exports of Mintlify documentation " +
			"for the self-hosted Enterprise Helm chart, and starts and follows the jobs of Mintlify's " +
			"documentation agent, through the Mintlify admin API.",
		Attributes: map[string]schema.Attribute{
			// Optional
			"api_key": schema.StringAttribute{
				MarkdownDescription: "A Mintlify admin API key (it begins with `mint_`), from the API keys page of the " +
					"Mintlify dashboard. Can also be set with the `" + envAPIKey + "` environment variable, " +
					"which keeps it out of configuration files and saved plan files (a key given here through an input " +
					"variable is written into saved plans unless the variable is `ephemeral`). The key is sent only to `base_url`, never to " +
					"another host on a redirect, and never appears in logs.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{apiKeyValidator},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "The root of the Mintlify API, with or without a trailing slash; a path prefix " +
					"(a proxy mounted at `https://proxy.example.com/mintlify`) is kept, but not an API version: the " +
					"provider adds `/v1/` and `/v2/` itself, so a URL ending in `/v1` or `/v2` is refused. It must use `https`: plain " +
					"`http` is accepted only for a loopback host (`localhost`, `127.0.0.0/8`, `::1`), because every " +
					"request carries the admin API key. Can also be set with the `" + envBaseURL + "` environment " +
					"variable. Defaults to `" + mintlify.DefaultBaseURL + "`.",
				Optional:   true,
				Validators: []validator.String{baseURLValidator},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project ID used by the `mintlify_agent_job` resource, data source " +
					"and action when they do not set their own. Copy it from the API keys page of the Mintlify " +
					"dashboard. Can also be set with the `" + envProjectID + "` environment variable.",
				Optional: true,
				Validators: []validator.String{notBlank("Set it to the project ID from the API keys page of the " +
					"Mintlify dashboard, or remove it to use the `" + envProjectID + "` environment variable.")},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a failed request is repeated before the provider "+
					"gives up; `0` disables retries. Reads and bundle link requests are retried after connection "+
					"errors, timeouts, truncated answers, HTTP 429 and 500/502/503/504, with exponential backoff and "+
					"jitter (about 1s, 2s, 4s, ... up to 30s), honouring the API's `Retry-After` up to one minute, and "+
					"never waiting past the operation's timeout. Starting an export or an agent job, and sending a "+
					"follow-up to an agent job, are retried only when the API certainly did not take the request "+
					"(HTTP 429, a refused connection), so a retry never starts a second export or agent job. "+
					"From `0` to `%d`; defaults to `%d`.", maxRetries, mintlify.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{retryCount{}},
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("How long one request may take, from sending it to reading the "+
					"whole answer, as a duration such as `30s` or `2m`; a request that takes longer counts as failed "+
					"(and is retried when that is safe). From `%s` to `%s`; defaults to `%s`.", formatDuration(minRequestTimeout),
					formatDuration(maxRequestTimeout), mintlify.DefaultRequestTimeout),
				Optional:   true,
				Validators: []validator.String{requestTimeout},
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
	// Configure nothing now: no half-configured client. Terraform configures
	// the provider again once the value is known; until then, anything that
	// needs the client reports that it is missing. A Terraform that supports
	// deferred actions is asked to defer instead.
	if config.APIKey.IsUnknown() || config.BaseURL.IsUnknown() || config.ProjectID.IsUnknown() ||
		config.MaxRetries.IsUnknown() || config.RequestTimeout.IsUnknown() {
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
		}
		return
	}

	// The arguments were validated with the schema; the environment
	// variables are checked here.
	apiKey := stringOrEnv(config.APIKey, envAPIKey)
	if apiKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing Mintlify API Key",
			"The provider needs a Mintlify admin API key to call the API. Set the `api_key` argument of "+
				"the `mintlify` provider, or the `"+envAPIKey+"` environment variable. Admin keys begin "+
				"with `mint_` and are created on the API keys page of the Mintlify dashboard.")
		return
	}
	if config.APIKey.IsNull() {
		resp.Diagnostics.Append(apiKeyDiagnostics(apiKey, true)...)
	}
	baseURL := stringOrEnv(config.BaseURL, envBaseURL)
	if baseURL == "" {
		baseURL = mintlify.DefaultBaseURL
	} else if config.BaseURL.IsNull() {
		if d := baseURLDiagnostic(baseURL, true); d != nil {
			resp.Diagnostics.Append(d)
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	opts := []mintlify.Option{
		mintlify.WithBaseURL(baseURL),
		mintlify.WithUserAgent(fmt.Sprintf("terraform-provider-mintlify/%s (+Terraform %s)", p.version, req.TerraformVersion)),
		mintlify.WithClock(p.clock),
		mintlify.WithLogger(newTFLogLogger(apiKey)),
	}
	if !config.MaxRetries.IsNull() {
		opts = append(opts, mintlify.WithMaxRetries(int(config.MaxRetries.ValueInt64())))
	}
	if !config.RequestTimeout.IsNull() {
		opts = append(opts, mintlify.WithRequestTimeout(durationOr(config.RequestTimeout, 0))) // validated by requestTimeout
	}
	if p.httpClient != nil {
		opts = append(opts, mintlify.WithHTTPClient(p.httpClient))
	}
	client, err := mintlify.New(apiKey, opts...)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Mintlify Provider Configuration",
			fmt.Sprintf("The provider could not create its API client: %s.", err))
		return
	}

	data := &providerData{client: client, projectID: stringOrEnv(config.ProjectID, envProjectID)}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
}

func (p *mintlifyProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewStaticExportBundleResource,
		NewAgentJobResource,
		NewAutomationRunResource,
		NewPreviewDeploymentResource,
		NewDeploymentResource,
		NewStaticExportArchiveResource,
	}
}

func (p *mintlifyProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewAgentJobDataSource,
		NewDeploymentDataSource,
		NewStaticExportJobDataSource,
	}
}

// EphemeralResources lists the provider's ephemeral resources: values that
// are produced at each run and never stored.
func (p *mintlifyProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewStaticExportBundleEphemeralResource,
	}
}

// Actions lists the provider's actions (Terraform 1.14 and later).
func (p *mintlifyProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		NewAgentJobAction,
		NewAutomationRunAction,
		NewDeploymentAction,
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

// configuredResource and configuredDataSource are embedded by the resources
// and data sources: Configure hands them the provider's data, nil while
// the provider itself is not configured yet.
type configuredResource struct{ provider *providerData }

func (c *configuredResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	c.provider = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

type configuredDataSource struct{ provider *providerData }

func (c *configuredDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	c.provider = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// providerDataFrom extracts the configured provider data in a resource's or data
// source's Configure. It returns nil, without a diagnostic, while the
// provider itself is not configured yet.
func providerDataFrom(raw any, diags interface {
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

// projectFor is the Mintlify project of an agent job operation: the one
// configured on the resource, data source or action (kind), or else the
// provider's. When neither names one, the error says that doing ("Starting
// an agent job") needs one, and where to set it.
func (d *providerData) projectFor(configured types.String, doing, kind string) (string, diag.Diagnostics) {
	var diags diag.Diagnostics
	if !configured.IsNull() && !configured.IsUnknown() {
		return configured.ValueString(), diags
	}
	if d.projectID == "" {
		diags.AddAttributeError(pathProjectID, "Missing Project ID",
			fmt.Sprintf("%s needs its Mintlify project, and neither this %s nor the provider names one. Set "+
				"`project_id` on this %s, or `project_id` on the mintlify provider (or the `%s` environment variable). "+
				"The project ID is shown on the API keys page of the Mintlify dashboard.", doing, kind, kind, envProjectID))
	}
	return d.projectID, diags
}
