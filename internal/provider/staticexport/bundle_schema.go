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
		MarkdownDescription: "Runs a Mintlify static export of a documentation deployment and produces a presigned " +
			"link to the bundle (plain HTML, CSS and JS) that the self-hosted Enterprise Helm chart downloads at " +
			"pod start.\n\n" +
			"Creating the resource starts an export job, waits for it to complete, then generates the bundle " +
			"link. The job id is saved in state when the create returns, also after an error, a timeout or an " +
			"interruption (Ctrl-C), which leave a tainted resource that remembers its job: the next `terraform " +
			"apply` replaces it with a resource that waits for the same job instead of starting another. A Terraform process that is killed (SIGKILL, out of memory, a CI " +
			"runner's hard timeout) loses the id, and the next apply starts a second export; the id is logged at " +
			"`INFO` the moment the job starts, so that the job can be imported instead (see the guide Running in " +
			"CI). Refreshing only reads the job's status and never generates a link.\n\n" +
			"The link expires. When it is due for renewal (see `renew_before`), judged at plan time from the clock " +
			"whether or not the plan refreshes, the plan shows an in-place update that generates a fresh link for the " +
			"same export; no new export runs. Run `terraform apply` on a " +
			"schedule to keep the link fresh.\n\n" +
			"Changing any of `domain`, `version`, `paths` or `triggers` starts a new export. The Mintlify API " +
			"cannot delete an export: destroying this resource only removes it from Terraform state, and the " +
			"link keeps working until `expires_at`.",
		Attributes: map[string]schema.Attribute{
			// Optional: the contract
			"domain": schema.StringAttribute{
				MarkdownDescription: "The bare hostname of the deployment to export with today's domain-scoped " +
					"contract: the custom domain of the project (`docs.example.com`) or its Mintlify subdomain " +
					"(`acme.mintlify.app`), without scheme, port, path or trailing slash. Without it, the export uses " +
					"the project-scoped contract (`project_id`, `base_path`). Changing or removing it starts a new " +
					"export.",
				Optional:           true,
				DeprecationMessage: domainArgumentDeprecation("domain"),
				Validators:         []validator.String{core.BareHostname},
				PlanModifiers:      []planmodifier.String{replaceDomainArgument.String},
			},

			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project to export with the project-scoped contract, when " +
					"`domain` is not set. Defaults to the provider's `project_id` (or `" + core.EnvProjectID + "`); " +
					"null with `domain`, which cannot be combined with it. Changing it starts a new export.",
				Optional:   true,
				Computed:   true,
				Validators: core.ProjectIDValidators,
			},
			"base_path": schema.StringAttribute{
				MarkdownDescription: "The path the exported site is served under, for the project-scoped contract " +
					"(without `domain`): one of " + core.BacktickList(basePathChoices) + ". When unset, the API's " +
					"default, the root. Changing it starts a new export.",
				Optional:      true,
				Validators:    []validator.String{stringvalidator.OneOf(mintlify.ProjectExportBasePaths...)},
				PlanModifiers: []planmodifier.String{replaceExportUnlessImported.String()},
			},

			// Optional
			"version": schema.StringAttribute{
				MarkdownDescription: "A version label to tag the export with, such as `2024-06-01`; it is also " +
					"written into `helm_values`. It may not be blank or hold control characters. When unset, the API " +
					"exports the latest published version. " +
					"Changing it starts a new export.",
				Optional:           true,
				DeprecationMessage: domainArgumentDeprecation("version"),
				Validators:         []validator.String{versionLabel},
				PlanModifiers:      []planmodifier.String{replaceDomainArgument.String},
			},
			"paths": schema.ListAttribute{
				MarkdownDescription: "The page paths to export, relative to the docs root and without a leading " +
					"slash (`index`, `guides/getting-started`), with no query (`?`), fragment (`#`), `.` or `..` segment, " +
					"surrounding space or control character; a path listed twice earns a warning. When unset, every " +
					"published page is exported. " +
					"Changing it starts a new export.",
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
				PlanModifiers: []planmodifier.Map{replaceExportUnlessImported.Map()},
			},
			"renew_before": schema.StringAttribute{
				MarkdownDescription: "Renew the link in place when, at plan time, less than this is left before it expires, as a " +
					"duration such as `9h`. When unset, the link is renewed once less than a quarter of its lifetime " +
					"is left, or once it has expired. Set it only when runs are further apart than that, between the " +
					"time from one run to the next and the lifetime; a longer value renews the link on every run, " +
					"with a warning.",
				Optional:   true,
				Validators: []validator.String{core.PositiveDuration},
			},
			"renew_triggers": renewTriggersAttribute(),
			"store_link":     storeLinkAttribute(),
			"renew_link":     renewLinkAttribute(),
			"timeouts": core.ResourceTimeouts(ctx, timeouts.Opts{
				Create: true,
				Update: true,
				CreateDescription: "How long to wait for the export to complete and its link to be generated, " +
					"as a duration such as `45m`. Defaults to `30m`.",
				UpdateDescription: "How long an update (renewing the link, or resuming an interrupted export) may " +
					"take, as a duration such as `45m`. Defaults to `30m`.",
				Read: true,
				ReadDescription: "How long a refresh (one read of the job's status, retries included) may take, as " +
					"a duration such as `5m`. Defaults to `" + core.FormatDuration(core.DefaultReadTimeout) + "`.",
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
				PlanModifiers:       core.KeepInt64,
			},
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "The presigned link to the bundle archive, which grants read access to the " +
					"exported docs until `expires_at`. Hand it to a `helm_release` through `set_sensitive`. Null when " +
					"`store_link` is `false`.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: core.KeepString,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "The size of the bundle archive in bytes.",
				Computed:            true,
				PlanModifiers:       core.KeepInt64,
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
				MarkdownDescription: "Values for the Mintlify Enterprise Helm chart as a YAML document: " +
					"`staticExport` with `enabled: true`, `bundleUrl` and, when `version` is set, `version`. The helm " +
					"provider shows `values` in the plan of an upgrade, link included: prefer `bundle_url` through " +
					"`set_sensitive`. Null when `store_link` is `false`.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: core.KeepString,
			},
			"link_revision": schema.Int64Attribute{
				MarkdownDescription: "A number that grows every time a new link is generated (create, renewal, " +
					"resumption, replacement, a change of `renew_triggers`), known at plan time; a new resource starts " +
					"at the Unix time of its first link. Give it to a `helm_release`'s `set_wo_revision` to re-send " +
					"write-only values exactly when a fresh link is due.",
				Computed:      true,
				PlanModifiers: core.KeepInt64,
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
