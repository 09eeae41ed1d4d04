package core

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
	_ provider.Provider                       = (*Provider)(nil)
	_ provider.ProviderWithEphemeralResources = (*Provider)(nil)
	_ provider.ProviderWithActions            = (*Provider)(nil)
)

// Provider is the mintlify provider: its own schema and configuration, and
// the types of its families.
type Provider struct {
	Version string
	// Clock is what every wait, timeout and timestamp of the provider runs
	// on: the wall clock, or a test's virtual one.
	Clock clock.Clock
	// HTTPClient replaces the API client's, in tests only (a TLS test
	// server's); nil for the default.
	HTTPClient *http.Client
	// Families are the API areas the provider serves.
	Families []Family
}

// ProviderData is what Configure hands to resources and data sources.
type ProviderData struct {
	Client    *mintlify.Client
	ProjectID string
	// families holds what a family keeps for as long as the provider is
	// configured (one apply), by the family's key: see FamilyState.
	mu       sync.Mutex
	families map[any]any
	// keyCheck is the plan's check of the API key (CheckKeyAtPlan).
	keyCheck sync.Once
}

// FamilyState is the value that key holds in this configured provider,
// made by create on first use. A family keeps there what one operation
// hands to another within an apply (the deployment's hand-over from the
// destroy of a tainted resource to its replacement).
func FamilyState[T any](d *ProviderData, key any, create func() *T) *T {
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

func (p *Provider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "mintlify"
	resp.Version = p.Version
}

func (p *Provider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The Mintlify provider deploys docs sites and previews, runs automations and " +
			"static exports, and follows the documentation agent, through the Mintlify admin API.",
		Attributes: map[string]schema.Attribute{
			// Optional
			"api_key": schema.StringAttribute{
				MarkdownDescription: "A Mintlify admin API key (it begins with `mint_`). Better set with the `" + Env.APIKey +
					"` environment variable, which keeps it out of saved plan files.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{apiKeyValidator},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "The root of the Mintlify API, without `/v1` or `/v2`; a proxy's path prefix is " +
					"kept. It must use `https`, but for a loopback host. Can also be set with `" + Env.BaseURL + "`. " +
					"Defaults to `" + mintlify.DefaultBaseURL + "`.",
				Optional:   true,
				Validators: []validator.String{baseURLValidator},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The project ID for every type that does not set its own `project_id`, from the " +
					"API keys page of the Mintlify dashboard. Can also be set with `" + Env.ProjectID + "`.",
				Optional: true,
				Validators: projectIDValidators("Set it to the project ID from the API keys page of the " +
					"Mintlify dashboard, or remove it to use the `" + Env.ProjectID + "` environment variable."),
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a failed request is repeated, with backoff, after "+
					"connection errors, HTTP 429 and 5xx. A request that starts a job is retried only when the API "+
					"certainly did not take it. Waits for a turn within a rate limit are not counted. "+
					"From `0` to `%d`; defaults to `%d`.", maxRetries, mintlify.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{retryCount{}},
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("How long one request may take, as a duration such as `30s`; a "+
					"longer one fails. From `%s` to `%s`; defaults to `%s`.", FormatDuration(minRequestTimeout),
					FormatDuration(maxRequestTimeout), mintlify.DefaultRequestTimeout),
				Optional:   true,
				Validators: []validator.String{requestTimeout},
			},
		},
	}
}

func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
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
	apiKey := stringOrEnv(config.APIKey, Env.APIKey)
	if apiKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing Mintlify API Key",
			"The provider needs a Mintlify admin API key to call the API. Set the `api_key` argument of "+
				"the `mintlify` provider, or the `"+Env.APIKey+"` environment variable. Admin keys begin "+
				"with `mint_` and are created on the API keys page of the Mintlify dashboard.")
		return
	}
	if config.APIKey.IsNull() {
		resp.Diagnostics.Append(apiKeyDiagnostics(apiKey, true)...)
	}
	baseURL := stringOrEnv(config.BaseURL, Env.BaseURL)
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
		mintlify.WithUserAgent(fmt.Sprintf("terraform-provider-mintlify/%s (+Terraform %s)", p.Version, req.TerraformVersion)),
		mintlify.WithClock(p.Clock),
		mintlify.WithLogger(newTFLogLogger(apiKey)),
	}
	if !config.MaxRetries.IsNull() {
		opts = append(opts, mintlify.WithMaxRetries(int(config.MaxRetries.ValueInt64())))
	}
	if !config.RequestTimeout.IsNull() {
		opts = append(opts, mintlify.WithRequestTimeout(durationOr(config.RequestTimeout, 0))) // validated by requestTimeout
	}
	if p.HTTPClient != nil {
		opts = append(opts, mintlify.WithHTTPClient(p.HTTPClient))
	}
	client, err := mintlify.New(apiKey, opts...)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Mintlify Provider Configuration",
			fmt.Sprintf("The provider could not create its API client: %s.", err))
		return
	}

	data := &ProviderData{Client: client, ProjectID: stringOrEnv(config.ProjectID, Env.ProjectID)}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
}

func (p *Provider) Resources(context.Context) []func() resource.Resource {
	return collect(p.Families, func(f Family) []func() resource.Resource { return f.Resources })
}

func (p *Provider) DataSources(context.Context) []func() datasource.DataSource {
	return collect(p.Families, func(f Family) []func() datasource.DataSource { return f.DataSources })
}

// EphemeralResources lists the provider's ephemeral resources: values that
// are produced at each run and never stored.
func (p *Provider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return collect(p.Families, func(f Family) []func() ephemeral.EphemeralResource { return f.EphemeralResources })
}

// Actions lists the provider's actions (Terraform 1.14 and later).
func (p *Provider) Actions(context.Context) []func() action.Action {
	return collect(p.Families, func(f Family) []func() action.Action { return f.Actions })
}

// stringOrEnv returns the configured value, or the environment variable when
// the argument is not set.
func stringOrEnv(v types.String, env string) string {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueString()
	}
	return os.Getenv(env)
}

// ConfiguredResource and ConfiguredDataSource are embedded by the resources
// and by the data sources and ephemeral resources: Configure hands them the
// provider's data, nil while the provider itself is not configured yet.
type ConfiguredResource struct{ Provider *ProviderData }

func (c *ConfiguredResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	c.Provider = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

type ConfiguredDataSource struct{ Provider *ProviderData }

func (c *ConfiguredDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	c.Provider = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ConfigureEphemeral is Configure for an ephemeral resource that embeds
// ConfiguredDataSource, which reads like a data source.
func (c *ConfiguredDataSource) ConfigureEphemeral(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	c.Provider = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// providerDataFrom extracts the configured provider data in a resource's,
// data source's, ephemeral resource's or action's Configure. It returns nil, without a diagnostic, while the
// provider itself is not configured yet.
func providerDataFrom(raw any, diags interface {
	AddError(summary, detail string)
}) *ProviderData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("The mintlify provider handed this resource its configuration as a %T, which it cannot "+
				"use to reach the Mintlify API, so the operation stopped. Running Terraform again will not help: "+
				"this is a bug in the mintlify provider. Please report it with the provider's and Terraform's "+
				"versions.", raw))
		return nil
	}
	return data
}

// ProjectFor is the Mintlify project of an agent job operation: the one
// configured on the resource, data source or action (kind), or else the
// provider's. When neither names one, the error says that doing ("Starting
// an agent job") needs one, and where to set it.
func (d *ProviderData) ProjectFor(configured types.String, doing, kind string) (string, diag.Diagnostics) {
	var diags diag.Diagnostics
	if !configured.IsNull() && !configured.IsUnknown() {
		return configured.ValueString(), diags
	}
	if d.ProjectID == "" {
		diags.AddAttributeError(PathProjectID, "Missing Project ID",
			fmt.Sprintf("%s needs its Mintlify project, and neither this %s nor the provider names one. Set "+
				"`project_id` on this %s, or `project_id` on the mintlify provider (or the `%s` environment variable). "+
				"The project ID is shown on the API keys page of the Mintlify dashboard.", doing, kind, kind, Env.ProjectID))
		return d.ProjectID, diags
	}
	// The provider's `project_id` passed its validators; one from the
	// environment is checked here, where it is used.
	diags.Append(projectIDDiagnostics(PathProjectID, "The provider's project ID (from `project_id` or the `"+
		Env.ProjectID+"` environment variable)", d.ProjectID)...)
	return d.ProjectID, diags
}
