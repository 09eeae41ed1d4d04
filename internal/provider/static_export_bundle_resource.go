package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// defaultExportTimeout bounds create and update when `timeouts` is not set.
const defaultExportTimeout = 30 * time.Minute

// defaultReadTimeout bounds one refresh of a resource, and one read of a data
// source or ephemeral resource, retries included, when `timeouts.read` (or
// `timeouts.open`) is not set.
const defaultReadTimeout = 2 * time.Minute

var (
	_ resource.Resource                = (*staticExportBundleResource)(nil)
	_ resource.ResourceWithConfigure   = (*staticExportBundleResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*staticExportBundleResource)(nil)
	_ resource.ResourceWithImportState = (*staticExportBundleResource)(nil)
)

var pathExpiresAt = path.Root("expires_at")

// NewStaticExportBundleResource returns the mintlify_static_export_bundle
// resource.
func NewStaticExportBundleResource() resource.Resource {
	return withBundleIdentity(&staticExportBundleResource{})
}

type staticExportBundleResource struct {
	data *providerData
}

type staticExportBundleModel struct {
	// Inputs
	Domain      types.String   `tfsdk:"domain"`
	Version     types.String   `tfsdk:"version"`
	Paths       types.List     `tfsdk:"paths"`
	Triggers    types.Map      `tfsdk:"triggers"`
	RenewBefore types.String   `tfsdk:"renew_before"`
	StoreLink   types.Bool     `tfsdk:"store_link"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`

	// Computed
	ID         types.String  `tfsdk:"id"`
	JobID      types.String  `tfsdk:"job_id"`
	Status     types.String  `tfsdk:"status"`
	Progress   types.Float64 `tfsdk:"progress"`
	PageCount  types.Int64   `tfsdk:"page_count"`
	BundleURL  types.String  `tfsdk:"bundle_url"`
	SizeBytes  types.Int64   `tfsdk:"size_bytes"`
	ExpiresAt  types.String  `tfsdk:"expires_at"`
	CreatedAt  types.String  `tfsdk:"created_at"`
	HelmValues types.String  `tfsdk:"helm_values"`
	// ReadyForRenewal is set by Read from the clock; plan decides.
	ReadyForRenewal types.Bool `tfsdk:"ready_for_renewal"`
	// LinkRevision grows with every link the plan schedules.
	LinkRevision types.Int64 `tfsdk:"link_revision"`
}

func (r *staticExportBundleResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_bundle"
}

func (r *staticExportBundleResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a Mintlify static export of a documentation deployment and produces a presigned " +
			"link to the bundle (plain HTML, CSS and JS) that the self-hosted Enterprise Helm chart downloads at " +
			"pod start.\n\n" +
			"Creating the resource starts an export job, waits for it to complete, then generates the bundle " +
			"link. The job id is saved in state when the create returns, also after an error, a timeout or an " +
			"interruption (Ctrl-C), which leave a tainted resource that remembers its job: `terraform untaint` and " +
			"apply again to resume the same job. A Terraform process that is killed (SIGKILL, out of memory, a CI " +
			"runner's hard timeout) loses the id, and the next apply starts a second export; the id is logged at " +
			"`INFO` the moment the job starts, so that the job can be imported instead (see the guide Running in " +
			"CI). Refreshing only reads the job's status and never generates a link.\n\n" +
			"The link expires. When it is due for renewal (see `renew_before`), the plan shows an in-place update " +
			"that generates a fresh link for the same export; no new export runs. Run `terraform apply` on a " +
			"schedule to keep the link fresh.\n\n" +
			"Changing any of `domain`, `version`, `paths` or `triggers` starts a new export. The Mintlify API " +
			"cannot delete an export: destroying this resource only removes it from Terraform state, and the " +
			"link keeps working until `expires_at`.",
		Attributes: map[string]schema.Attribute{
			// Required
			"domain": schema.StringAttribute{
				MarkdownDescription: "The bare hostname of the deployment to export: the custom domain of the " +
					"project (`docs.example.com`) or its Mintlify subdomain (`acme.mintlify.app`), without scheme, " +
					"port, path or trailing slash. Changing it starts a new export.",
				Required:      true,
				Validators:    []validator.String{bareHostname},
				PlanModifiers: []planmodifier.String{replaceExportUnlessImported.String()},
			},

			// Optional
			"version": schema.StringAttribute{
				MarkdownDescription: "A version label to tag the export with, such as `2024-06-01`; it is also " +
					"written into `helm_values`. It may not be blank or hold control characters. When unset, the API " +
					"exports the latest published version. " +
					"Changing it starts a new export.",
				Optional:      true,
				Validators:    []validator.String{versionLabel},
				PlanModifiers: []planmodifier.String{replaceExportUnlessImported.String()},
			},
			"paths": schema.ListAttribute{
				MarkdownDescription: "The page paths to export, relative to the docs root and without a leading " +
					"slash (`index`, `guides/getting-started`), with no query (`?`), fragment (`#`), `.` or `..` segment, " +
					"surrounding space or control character; a path listed twice earns a warning. When unset, every " +
					"published page is exported. " +
					"Changing it starts a new export.",
				ElementType: types.StringType,
				Optional:    true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(pagePath),
					distinctPaths{},
				},
				PlanModifiers: []planmodifier.List{replaceExportUnlessImported.List()},
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary strings whose change starts a new export, such as the commit of " +
					"the docs repository: `triggers = { docs_commit = var.docs_sha }`.",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Map{replaceExportUnlessImported.Map()},
			},
			"renew_before": schema.StringAttribute{
				MarkdownDescription: "Renew the link when, at plan time, less than this is left before it expires, " +
					"as a duration such as `9h`. Renewal is an in-place update that generates a fresh link for the " +
					"same export job. When unset, the link is renewed once less than a quarter of its lifetime is " +
					"left, or once it has expired, which suits any lifetime: set it only when runs are further apart " +
					"than a quarter of the lifetime, to a value between the time from one run to the next and the " +
					"lifetime. A value at least as long as the lifetime renews the link, and rolls anything that " +
					"uses it, on every run; the apply that first learns the lifetime warns about it.",
				Optional:   true,
				Validators: []validator.String{positiveDuration},
			},
			"store_link": storeLinkAttribute(),
			"timeouts": resourceTimeouts(ctx, timeouts.Opts{
				Create: true,
				Update: true,
				CreateDescription: "How long to wait for the export to complete and its link to be generated, " +
					"as a duration such as `45m`. Defaults to `30m`.",
				UpdateDescription: "How long an update (renewing the link, or resuming an interrupted export) may " +
					"take, as a duration such as `45m`. Defaults to `30m`.",
				Read: true,
				ReadDescription: "How long a refresh (one read of the job's status, retries included) may take, as " +
					"a duration such as `5m`. Defaults to `" + formatDuration(defaultReadTimeout) + "`.",
			}),

			// Computed
			"id": schema.StringAttribute{
				MarkdownDescription: "The export job ID, the same as `job_id`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the static export job, such as `se_3f9a2c1b8e7d4a06`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The job's status when last read: " + backtickList(mintlify.StaticExportStatuses) + "." +
					undocumentedStatus,
				Computed:      true,
				PlanModifiers: keep,
			},
			"progress": schema.Float64Attribute{
				MarkdownDescription: "The job's completion percentage, from `0` to `100`, when last read.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Float64{float64planmodifier.UseStateForUnknown()},
			},
			"page_count": schema.Int64Attribute{
				MarkdownDescription: "The number of pages exported.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "The presigned link to the bundle archive. It grants read access to the " +
					"exported docs to whoever holds it, so it is sensitive, and it stops working at `expires_at`. " +
					"Null when `store_link` is `false`.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: keep,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "The size of the bundle archive in bytes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When `bundle_url` stops working, in RFC 3339 format.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the export job was created, in RFC 3339 format.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"helm_values": schema.StringAttribute{
				MarkdownDescription: "Values for the Mintlify Enterprise Helm chart as a YAML document, ready for " +
					"`helm_release.values`: `staticExport` with `enabled: true`, `bundleUrl` and, when `version` is " +
					"set, `version`. Sensitive because it holds the link. Null when `store_link` is `false`.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: keep,
			},
			"link_revision": schema.Int64Attribute{
				MarkdownDescription: "A number that grows every time a new link is generated: on create, renewal, " +
					"resumption and replacement. A new resource starts at the Unix time of its first link, so the " +
					"number still grows across a replacement; each renewal adds one, known at plan time. With " +
					"`set_wo_revision = mintlify_static_export_bundle.docs.link_revision` on a `helm_release` re-sends " +
					"write-only values exactly when a fresh link is due.",
				Computed:      true,
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"ready_for_renewal": schema.BoolAttribute{
				MarkdownDescription: "Whether the link was due for renewal when last refreshed, by the policy of " +
					"`renew_before`. A plan renews a due link, so this is `false` after apply; " +
					"`terraform plan -refresh-only` shows it turning `true`.",
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

func (r *staticExportBundleResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *staticExportBundleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	var plan staticExportBundleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultExportTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	start, diags := plan.startRequest(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	client := r.data.client
	ctx, cancel := client.Clock().WithTimeout(ctx, timeout)
	defer cancel()

	job, err := client.StartStaticExport(ctx, start)
	if err != nil {
		resp.Diagnostics.Append(startStaticExportOp(start.Domain).diagnostic(err))
		return
	}
	ctx = tflog.SetField(ctx, "job_id", job.JobID)
	// The state gets the job only when Create returns: a Terraform killed
	// meanwhile loses it, and this line is how its user finds the job to
	// import (guide "Running in CI").
	tflog.Info(ctx, "Static export job started", map[string]any{"import_id": job.JobID})

	// Record the job before waiting, so that every return below, errors and
	// interruptions included, hands it to Terraform with the state.
	plan.setJob(job)
	plan.setBundle(nil)
	plan.ReadyForRenewal = types.BoolValue(false)
	plan.LinkRevision = types.Int64Null()
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}

	resp.Diagnostics.Append(r.complete(ctx, &plan, job, 0, resp.Private, waitContext{timeout: timeout, op: "create"})...)
	// The first link tells the lifetime: this apply, not the next plan,
	// warns about a renew_before that would renew on every run.
	resp.Diagnostics.Append(warnIfRenewsEveryRun(ctx, &plan, resp.Private)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// waitContext tells diagnostics which operation waited and for how long.
type waitContext struct {
	timeout time.Duration
	op      string // "create" or "update"
}

// goneAdvice says what follows when the job turns out to be gone during
// the operation.
func (wc waitContext) goneAdvice() string {
	if wc.op == "create" {
		return "The resource is tainted, so the next apply starts a new export."
	}
	return "Apply again: the refresh will find the job gone, and the plan replaces the resource with a new export."
}

// complete brings the model's job to a fresh link: it waits for the job
// unless it is already completed, then generates a link. started is the
// answer of the start that just created the job, nil for a job from state:
// it counts as the wait's first status. The model is kept current with
// whatever was learned, also on failure.
func (r *staticExportBundleResource) complete(ctx context.Context, m *staticExportBundleModel, started *mintlify.StaticExportJob, priorRevision int64, private privateSetter, wc waitContext) diag.Diagnostics {
	var diags diag.Diagnostics
	client := r.data.client
	jobID := m.JobID.ValueString()

	var last *mintlify.StaticExportJob
	if m.Status.ValueString() != mintlify.StatusCompleted {
		logProgress := func(j mintlify.StaticExportJob) {
			tflog.Info(ctx, "Static export progress", map[string]any{
				"status": j.Status, "progress": j.Progress, "page_count": j.PageCount,
			})
		}
		job, err := client.WaitForStaticExport(ctx, jobID, mintlify.Started(started), mintlify.OnChange(logProgress))
		if job != nil {
			m.setJob(job)
			last = job
		}
		if err != nil {
			diags.Append(waitDiagnostic(err, jobID, last, wc))
			return diags
		}
	}

	bundle, err := client.GenerateBundle(ctx, jobID)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		diags.Append(linkCutShort(err, jobID, wc))
		return diags
	case err != nil:
		diags.Append(generateBundleOp(jobID).advise(http.StatusNotFound, wc.goneAdvice()).diagnostic(err))
		return diags
	}
	now := client.Clock().Now()
	m.setBundle(bundle)
	m.ReadyForRenewal = types.BoolValue(false)
	if m.LinkRevision.IsUnknown() || m.LinkRevision.IsNull() {
		// Not planned (create, import, resume): the Unix time keeps the
		// revision growing past any resource this one replaced.
		m.LinkRevision = types.Int64Value(max(priorRevision+1, now.Unix()))
	}
	diags.Append(recordLink(ctx, private, now)...)
	tflog.Info(ctx, "Static export bundle link generated", map[string]any{
		"size_bytes": bundle.SizeBytes, "expires_at": bundle.ExpiresAt.UTC().Format(time.RFC3339),
	})
	return diags
}

// waitDiagnostic explains why waiting for a job ended early, and how to
// pick the same job up again.
func waitDiagnostic(err error, jobID string, last *mintlify.StaticExportJob, wc waitContext) diag.Diagnostic {
	reached := "before its first status was read"
	if last != nil {
		reached = fmt.Sprintf("`%s` at %s%% with %d pages exported", last.Status,
			mintlify.FormatProgress(last.Progress), last.PageCount)
	}
	resume := "Apply again to resume waiting for the same job; no new export starts."
	if wc.op == "create" {
		// The provider is never told the resource's address; Terraform
		// prints it above this message, after "with".
		resume = "The resource is tainted but keeps the job id. To resume this same job instead of starting a " +
			"new export, run `terraform untaint mintlify_static_export_bundle.NAME`, with the address shown " +
			"above after `with`, then `terraform apply`."
	}
	var failed *mintlify.JobFailedError[mintlify.StaticExportJob]
	switch {
	case errors.As(err, &failed):
		reason := "the API gave no reason"
		if failed.Job.Error != nil && *failed.Job.Error != "" {
			reason = fmt.Sprintf("%q", *failed.Job.Error)
		}
		return diag.NewErrorDiagnostic("Static Export Job Failed",
			fmt.Sprintf("The Mintlify static export job %s failed at %s%% (%d pages exported): %s.\n\n"+
				"Fix the cause the message names (for example the `domain` or `paths`), then apply again: a "+
				"failed job cannot be resumed, so the next apply starts a new export.",
				jobID, mintlify.FormatProgress(failed.Job.Progress), failed.Job.PageCount, reason))
	case errors.Is(err, context.DeadlineExceeded) && !isRetryDeadline(err):
		return diag.NewErrorDiagnostic("Static Export Timed Out",
			fmt.Sprintf("The Mintlify static export job %s did not complete within `timeouts.%s` (%s); it was %s. "+
				"The job keeps running on the Mintlify side.\n\n%s If exports usually take this long, raise "+
				"`timeouts.%s` in the resource, for example `timeouts = { %s = \"1h\" }`.",
				jobID, wc.op, wc.timeout, reached, resume, wc.op, wc.op))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Static Export Interrupted",
			fmt.Sprintf("Terraform was interrupted while waiting for the Mintlify static export job %s; it was %s. "+
				"The job keeps running on the Mintlify side.\n\n%s", jobID, reached, resume))
	default:
		op := getStaticExportJobOp(jobID).while(fmt.Sprintf("waiting for static export job %s (%s)", jobID, reached))
		d := op.advise(http.StatusNotFound, wc.goneAdvice()).diagnostic(err)
		if mintlify.IsNotFound(err) {
			return d
		}
		return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+resume)
	}
}

// linkCutShort explains a timeout or an interrupt while the link of a
// completed job was being generated, and how to get it without a new export.
func linkCutShort(err error, jobID string, wc waitContext) diag.Diagnostic {
	next := "Apply again to generate the link; no new export starts."
	if wc.op == "create" {
		next = "The resource is tainted but keeps the job id. To generate the link of this same job instead of " +
			"starting a new export, run `terraform untaint mintlify_static_export_bundle.NAME`, with the address " +
			"shown above after `with`, then `terraform apply`."
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return diag.NewErrorDiagnostic("Static Export Timed Out",
			fmt.Sprintf("The static export job %s completed, but `timeouts.%s` (%s) ran out while its bundle link "+
				"was being generated.\n\n%s", jobID, wc.op, wc.timeout, next))
	}
	return diag.NewErrorDiagnostic("Static Export Interrupted",
		fmt.Sprintf("Terraform was interrupted while generating the bundle link of the completed static export "+
			"job %s.\n\n%s", jobID, next))
}

func (r *staticExportBundleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		// The provider's arguments are unknown until apply: keep the state
		// as it is; the apply refreshes nothing it needs.
		tflog.Warn(ctx, "Skipping refresh: the mintlify provider is not configured yet")
		return
	}
	var state staticExportBundleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Read(ctx, defaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	jobID := state.JobID.ValueString()
	op := getStaticExportJobOp(jobID).within("timeouts.read", timeout)
	readCtx, cancel := r.data.client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	job, err := r.data.client.GetStaticExportJob(readCtx, jobID)
	now := r.data.client.Clock().Now()
	if mintlify.IsNotFound(err) {
		if state.Domain.IsNull() {
			// Freshly imported: there is nothing to adopt.
			resp.Diagnostics.Append(op.advise(http.StatusNotFound, "There is nothing to "+
				"import: check the job ID; jobs belong to the organization of the API key.").diagnostic(err))
			return
		}
		// Keep the resource so that the plan shows a replacement, and why,
		// instead of silently forgetting the export.
		resp.Diagnostics.Append(recordRefresh(ctx, resp.Private, now, true)...)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(op.while(fmt.Sprintf("refreshing static export job %s", jobID)).diagnostic(err))
		return
	}

	// Only the job's progress is refreshed: Read never generates a link.
	// The facts of private state are written afresh from this answer.
	priv, diags := readBundlePrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(recordRefresh(ctx, resp.Private, now, false)...)
	priv.RefreshedAt, priv.JobGone = now, false
	prior := state
	state.setJob(job)
	facts, diags := newLinkFacts(state.JobID, state.Domain, state.Status, state.BundleURL, state.ExpiresAt, state.RenewBefore, state.StoreLink, priv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !facts.HasLink {
		resp.Diagnostics.Append(forgetLink(ctx, resp.Private)...)
	}
	// ready_for_renewal tells what the next plan decides, unless the
	// configuration changes first.
	action, _ := planLink(facts)
	state.ReadyForRenewal = types.BoolValue(action == actionRenew)
	// The response starts as the prior state. A completed export's refresh
	// usually changes nothing, and writing the whole model back is the
	// framework's most expensive step of Read: skip it then.
	if !sameValues(&state, &prior) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	}
}

// ModifyPlan asks planLink what to do about the job and its link, shapes
// the plan after the answer, and carries the answer to Update in planned
// private state: only a plan ever schedules a new link or a new export, so
// an apply does exactly what the plan showed.
func (r *staticExportBundleResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	resp.Diagnostics.Append(planLinkNotStored(ctx, req, resp)...)
	if req.State.Raw.IsNull() || resp.Diagnostics.HasError() {
		return // create
	}
	facts, diags := planFacts(ctx, req)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if renewsEveryRun(facts.Link, facts.RenewBefore) {
		resp.Diagnostics.Append(renewsEveryRunWarning(facts.Link, facts.RenewBefore))
	}
	action, reason := planLink(facts)
	resp.Diagnostics.Append(recordPlannedAction(ctx, resp.Private, action)...)
	if action == actionNone {
		if reason != "" {
			tflog.Debug(ctx, "Leaving the bundle link as it is: "+reason, map[string]any{"job_id": facts.JobID})
		}
		return
	}

	// Most plans stop above. Reading the whole state and plan into models
	// costs the framework ten times as much as the attributes planFacts
	// reads, so it is done only when the plan changes.
	var state, plan staticExportBundleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Info(ctx, "Planning to "+string(action)+": "+reason, map[string]any{"job_id": facts.JobID})
	if action.replaces() {
		summary := "Static Export Job No Longer Exists"
		if action == actionReplaceFailed {
			summary = "Static Export Job Failed"
		}
		detail := capitalize(reason) + ". The plan replaces the resource: the apply starts a new export."
		if action == actionReplaceGone {
			detail += " If the 404 came from a wrong API key or `base_url`, fix that first: once a refresh finds " +
				"the job again, the replacement is no longer planned."
		}
		resp.Diagnostics.AddWarning(summary, detail)
		plan.ID = types.StringUnknown()
		plan.JobID = types.StringUnknown()
		plan.CreatedAt = types.StringUnknown()
		plan.LinkRevision = types.Int64Unknown()
		plan.markJobUnknown()
		plan.markLinkUnknown()
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("job_id"))
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	if facts.Status != mintlify.StatusCompleted {
		plan.markJobUnknown()
	}
	plan.markLinkUnknown()
	plan.ReadyForRenewal = types.BoolValue(false)
	plan.LinkRevision = types.Int64Unknown() // set by the apply
	if rev := state.LinkRevision; !rev.IsNull() && !rev.IsUnknown() {
		plan.LinkRevision = types.Int64Value(rev.ValueInt64() + 1)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planFacts gathers planLink's facts from the prior state, the plan and
// private state, reading single attributes.
func planFacts(ctx context.Context, req resource.ModifyPlanRequest) (linkFacts, diag.Diagnostics) {
	var jobID, domain, status, bundleURL, expiresAt, renewBefore types.String
	var storeLink types.Bool
	var diags diag.Diagnostics
	for _, a := range []struct {
		name string
		dst  *types.String
	}{{"job_id", &jobID}, {"domain", &domain}, {"status", &status}, {"bundle_url", &bundleURL}, {"expires_at", &expiresAt}} {
		diags.Append(req.State.GetAttribute(ctx, path.Root(a.name), a.dst)...)
	}
	diags.Append(req.Plan.GetAttribute(ctx, path.Root("renew_before"), &renewBefore)...)
	diags.Append(req.Plan.GetAttribute(ctx, pathStoreLink, &storeLink)...)
	priv, d := readBundlePrivate(ctx, req.Private)
	diags.Append(d...)
	if diags.HasError() {
		return linkFacts{}, diags
	}
	facts, d := newLinkFacts(jobID, domain, status, bundleURL, expiresAt, renewBefore, storeLink, priv)
	diags.Append(d...)
	return facts, diags
}

// newLinkFacts builds planLink's facts from attribute values and private
// state; Read and ModifyPlan both use it. A link exists when `expires_at`
// does: `bundle_url` is null when `store_link` is false.
func newLinkFacts(jobID, domain, status, bundleURL, expiresAt, renewBefore types.String, storeLink types.Bool, priv bundlePrivate) (linkFacts, diag.Diagnostics) {
	link, diags := linkFromState(expiresAt, priv.LinkGeneratedAt)
	return linkFacts{
		JobID:              jobID.ValueString(),
		Imported:           domain.IsNull(),
		Gone:               priv.JobGone,
		Status:             status.ValueString(),
		HasLink:            !expiresAt.IsNull() && !expiresAt.IsUnknown(),
		LinkWantedInState:  linkWantedInState(storeLink, bundleURL, expiresAt),
		Link:               link,
		RenewBefore:        renewBeforeValue(renewBefore),
		RenewBeforeUnknown: renewBefore.IsUnknown(),
		RefreshedAt:        priv.RefreshedAt,
	}, diags
}

// Update does what the plan decided (see planLink): for actionRenew, a fresh
// link for the same job; for actionResume and actionAdoptImport, waiting for
// the job unless it completed, then its link. For actionNone, only arguments
// such as `timeouts` or `renew_before` changed, and no request is made.
func (r *staticExportBundleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	action, diags := takePlannedAction(ctx, resp.Private)
	resp.Diagnostics.Append(diags...)
	var plan, state staticExportBundleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch {
	case action == actionNone:
		plan.keepStoredLink(&state)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	case !action.requestsLink():
		resp.Diagnostics.AddError("Unexpected Planned Action",
			fmt.Sprintf("The plan asked to update the bundle in place with the action %q, which replaces it. This is "+
				"a bug in the mintlify provider: please report it. Running `terraform apply` again plans afresh.", action))
		return
	case r.data == nil:
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultExportTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.data.client.Clock().WithTimeout(ctx, timeout)
	defer cancel()
	ctx = tflog.SetField(ctx, "job_id", state.JobID.ValueString())
	tflog.Info(ctx, "Applying the planned action: "+string(action))

	// The plan warned about a renew_before that renews on every run if it
	// knew the lifetime of the link in state; otherwise the new link tells.
	prior, diags := readBundlePrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	priorLink, _ := linkFromState(state.ExpiresAt, prior.LinkGeneratedAt)
	planWarned := renewsEveryRun(priorLink, renewBeforeValue(plan.RenewBefore))

	// Start from what is known: the job as last read and the current link,
	// which stays in state if a fresh one cannot be had.
	plan.copyJobAndLink(&state)
	diags = r.complete(ctx, &plan, nil, state.LinkRevision.ValueInt64(), resp.Private, waitContext{timeout: timeout, op: "update"})
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		// No new link: the revision stays, so nothing downstream rolls.
		plan.LinkRevision = state.LinkRevision
	} else if !planWarned {
		resp.Diagnostics.Append(warnIfRenewsEveryRun(ctx, &plan, resp.Private)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete forgets the bundle: the API has no way to delete an export or
// revoke its link, so it warns that the link keeps working.
func (r *staticExportBundleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var jobID, expiresAt types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("job_id"), &jobID)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathExpiresAt, &expiresAt)...)
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Info(ctx, "Forgetting static export bundle; the Mintlify API has no delete", map[string]any{
		"job_id": jobID.ValueString(),
	})
	if expiresAt.IsNull() || expiresAt.IsUnknown() {
		return // no link was ever generated
	}
	resp.Diagnostics.AddWarning("Bundle Link Still Works Until It Expires",
		fmt.Sprintf("Terraform forgot the static export job %s, but the Mintlify API cannot delete an export or "+
			"revoke its link: the bundle link in the former state keeps working until %s, for anyone who holds "+
			"it. Nothing else needs to be done; pods that still use the link can download the bundle until then.",
			jobID.ValueString(), expiresAt.ValueString()))
}

// ImportState adopts an existing export job by its id. The API does not
// return `domain`, `version` or `paths`: the first plan after the import
// takes them from configuration, and generates a link for the job.
func (r *staticExportBundleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" {
		resp.Diagnostics.AddError("Missing Job ID",
			"Import a static export bundle by the id of its export job, for example "+
				"`terraform import mintlify_static_export_bundle.docs se_3f9a2c1b8e7d4a06`.")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("job_id"), req.ID)...)
}

// startRequest builds the API request from the plan.
func (m *staticExportBundleModel) startRequest(ctx context.Context) (mintlify.StartStaticExportRequest, diag.Diagnostics) {
	req := mintlify.StartStaticExportRequest{
		Domain:  m.Domain.ValueString(),
		Version: m.Version.ValueString(),
	}
	var diags diag.Diagnostics
	if !m.Paths.IsNull() {
		diags = m.Paths.ElementsAs(ctx, &req.Paths, false)
	}
	return req, diags
}

// setJob copies a job's state into the model.
func (m *staticExportBundleModel) setJob(job *mintlify.StaticExportJob) {
	m.ID = types.StringValue(job.JobID)
	m.JobID = types.StringValue(job.JobID)
	m.Status = types.StringValue(job.Status)
	m.Progress = types.Float64Value(job.Progress)
	m.PageCount = types.Int64Value(job.PageCount)
	m.CreatedAt = types.StringValue(job.CreatedAt.UTC().Format(time.RFC3339))
}

// markJobUnknown plans new values for the job's progress.
func (m *staticExportBundleModel) markJobUnknown() {
	m.Status = types.StringUnknown()
	m.Progress = types.Float64Unknown()
	m.PageCount = types.Int64Unknown()
}

// markLinkUnknown plans a new link.
func (m *staticExportBundleModel) markLinkUnknown() {
	m.BundleURL = types.StringUnknown()
	m.SizeBytes = types.Int64Unknown()
	m.ExpiresAt = types.StringUnknown()
	m.HelmValues = types.StringUnknown()
	m.dropLinkUnlessStored()
}

// copyJobAndLink takes the job's progress and the link from prior state,
// where the plan left them unknown.
func (m *staticExportBundleModel) copyJobAndLink(prior *staticExportBundleModel) {
	m.ID, m.JobID, m.CreatedAt = prior.JobID, prior.JobID, prior.CreatedAt
	m.Status, m.Progress, m.PageCount = prior.Status, prior.Progress, prior.PageCount
	m.BundleURL, m.SizeBytes, m.ExpiresAt = prior.BundleURL, prior.SizeBytes, prior.ExpiresAt
	m.HelmValues = types.StringNull()
	if !prior.BundleURL.IsNull() {
		m.HelmValues = types.StringValue(helmValues(prior.BundleURL.ValueString(), m.Version.ValueString()))
	}
	m.ReadyForRenewal = prior.ReadyForRenewal
	m.dropLinkUnlessStored()
}

// setBundle copies a generated link into the model; nil records that no link
// exists yet.
func (m *staticExportBundleModel) setBundle(b *mintlify.Bundle) {
	if b == nil {
		m.BundleURL = types.StringNull()
		m.SizeBytes = types.Int64Null()
		m.ExpiresAt = types.StringNull()
		m.HelmValues = types.StringNull()
		return
	}
	m.BundleURL = types.StringValue(b.BundleURL)
	m.SizeBytes = types.Int64Value(b.SizeBytes)
	m.ExpiresAt = types.StringValue(b.ExpiresAt.UTC().Format(time.RFC3339))
	m.HelmValues = types.StringValue(helmValues(b.BundleURL, m.Version.ValueString()))
	m.dropLinkUnlessStored()
}
