package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The schema of mintlify_static_export_bundle, and its identity: the export
// job, `{ job_id }`, which is all that identifies a bundle (Terraform 1.12
// and later, OpenTofu 1.12). An `import` block with
// `identity = { job_id = "se_…" }` adopts an export exactly as importing by
// id does.

func (r *staticExportBundleResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a Mintlify static export and produces a presigned link to the bundle that the " +
			"self-hosted Enterprise Helm chart downloads at pod start. The link expires: when it is due " +
			"(`renew_before`), the plan renews it in place, for the same export. Changing `domain`, `version`, " +
			"`paths` or `triggers` starts a new export.",
		Attributes: map[string]schema.Attribute{
			// Optional: the contract
			"domain": schema.StringAttribute{
				MarkdownDescription: "The bare hostname of the deployment to export with the domain-scoped " +
					"contract, such as `docs.example.com` or `acme.mintlify.app`. Without it, the export uses the " +
					"project-scoped contract. Changing it starts a new export.",
				Optional:           true,
				DeprecationMessage: domainArgumentDeprecation("domain"),
				Validators:         []validator.String{bareHostname},
				PlanModifiers:      []planmodifier.String{replaceDomainArgument.String},
			},

			"project_id": schema.StringAttribute{
				MarkdownDescription: "The project to export with the project-scoped contract (without `domain`). " +
					"Defaults to the provider's `project_id`. Changing it starts a new export.",
				Optional:   true,
				Computed:   true,
				Validators: core.ProjectIDValidators,
			},
			"base_path": schema.StringAttribute{
				MarkdownDescription: "The path the site is served under, for the project-scoped contract: one of " +
					core.BacktickList(basePathChoices) + ". Defaults to the root. Changing it starts a new export.",
				Optional:      true,
				Validators:    []validator.String{stringvalidator.OneOf(mintlify.ProjectExportBasePaths...)},
				PlanModifiers: []planmodifier.String{replaceExportUnlessImported.String},
			},

			// Optional
			"version": schema.StringAttribute{
				MarkdownDescription: "A version label to tag the export with, such as `2024-06-01`; it is also " +
					"written into `helm_values`. Changing it starts a new export.",
				Optional:           true,
				DeprecationMessage: domainArgumentDeprecation("version"),
				Validators:         []validator.String{versionLabel},
				PlanModifiers:      []planmodifier.String{replaceDomainArgument.String},
			},
			"paths": schema.ListAttribute{
				MarkdownDescription: "The page paths to export, relative to the docs root, such as `index`. " +
					"When unset, every published page is exported. Changing it starts a new export.",
				ElementType:        types.StringType,
				Optional:           true,
				DeprecationMessage: domainArgumentDeprecation("paths"),
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(pagePath),
					distinctPaths{},
				},
				PlanModifiers: []planmodifier.List{replaceDomainArgument.List},
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary strings whose change starts a new export, such as the commit of " +
					"the docs repository: `triggers = { docs_commit = var.docs_sha }`.",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Map{replaceExportUnlessImported.Map},
			},
			"renew_before": schema.StringAttribute{
				MarkdownDescription: "Renew the link in place when less than this is left before it expires, as a " +
					"duration such as `9h`. Defaults to a quarter of the link's lifetime. Set it only when runs are " +
					"further apart than that.",
				Optional:   true,
				Validators: []validator.String{core.Durations.Positive},
			},
			"renew_triggers": renewTriggersAttribute(),
			"store_link":     storeLinkAttribute(),
			"renew_link":     renewLinkAttribute(),
			"timeouts": core.Timeouts.Resource(ctx, timeouts.Opts{
				Create:            true,
				Update:            true,
				CreateDescription: "How long to wait for the export and its link. Defaults to `30m`.",
				UpdateDescription: "How long renewing the link or resuming an export may take. Defaults to `30m`.",
				Read:              true,
				ReadDescription:   "How long a refresh may take. Defaults to `" + core.FormatDuration(core.DefaultReadTimeout) + "`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The export job ID, the same as `job_id`.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the static export job, such as `se_3f9a2c1b8e7d4a06`.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The job's status when last read: " + core.BacktickList(mintlify.StaticExportStatuses) + "." +
					core.UndocumentedStatus,
				Computed:      true,
				PlanModifiers: core.KeepString,
			},
			"progress": schema.Float64Attribute{
				MarkdownDescription: "The job's completion percentage, from `0` to `100`, when last read.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Float64{float64planmodifier.UseStateForUnknown()},
			},
			"page_count": schema.Int64Attribute{
				MarkdownDescription: "The number of pages exported.",
				Computed:            true,
				PlanModifiers:       keepInt64,
			},
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "The presigned link to the bundle archive, valid until `expires_at`. Null " +
					"when `store_link` is `false`.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: core.KeepString,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "The size of the bundle archive in bytes.",
				Computed:            true,
				PlanModifiers:       keepInt64,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When `bundle_url` stops working, in RFC 3339 format.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the export job was created, in RFC 3339 format.",
				Computed:            true,
				PlanModifiers:       core.KeepString,
			},
			"helm_values": schema.StringAttribute{
				MarkdownDescription: "The Enterprise Helm chart's `staticExport` values as YAML, link included. " +
					"Null when `store_link` is `false`.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: core.KeepString,
			},
			"link_revision": schema.Int64Attribute{
				MarkdownDescription: "A number that grows with each new link, known at plan time: give it to " +
					"`set_wo_revision`.",
				Computed:      true,
				PlanModifiers: keepInt64,
			},
		},
	}
}

type staticExportBundleIdentityModel struct {
	JobID     types.String `tfsdk:"job_id"`
	ProjectID types.String `tfsdk:"project_id"`
}

func (r *staticExportBundleResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Version: bundleIdentityVersion, // bundle_identity.go upgrades earlier ones
		Attributes: map[string]identityschema.Attribute{
			"job_id": identityschema.StringAttribute{
				Description:       "The ID of the static export job, such as `se_3f9a2c1b8e7d4a06`.",
				RequiredForImport: true,
			},
			"project_id": identityschema.StringAttribute{
				Description:       "The project of a project-scoped static export job; null for a job of the domain-scoped contract.",
				OptionalForImport: true,
			},
		},
	}
}

// setBundleIdentity records the bundle's identity, its job and its
// project, where the framework asks for one (identity is nil for a
// Terraform without identity support) and the job is known.
func setBundleIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, m *staticExportBundleModel) diag.Diagnostics {
	if identity == nil || !known(m.JobID) {
		return nil
	}
	projectID := m.ProjectID
	if projectID.IsUnknown() {
		projectID = types.StringNull()
	}
	return identity.Set(ctx, staticExportBundleIdentityModel{JobID: m.JobID, ProjectID: projectID})
}

// keepInt64 keeps a computed number from state while a plan does not
// change it.
var keepInt64 = []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
