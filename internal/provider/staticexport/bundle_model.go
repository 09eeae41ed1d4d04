package staticexport

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// staticExportBundleModel is mintlify_static_export_bundle's state and plan;
// its methods fill it from the API's answers and shape plans.
type staticExportBundleModel struct {
	// Inputs
	Domain types.String `tfsdk:"domain"`
	// ProjectID and BasePath: the project-scoped contract, without Domain
	// (bundle_contract.go).
	ProjectID types.String `tfsdk:"project_id"`
	BasePath  types.String `tfsdk:"base_path"`
	Version   types.String `tfsdk:"version"`
	Paths     types.List   `tfsdk:"paths"`
	Triggers  types.Map    `tfsdk:"triggers"`
	// RenewTriggers: a change renews the link (renew_triggers.go).
	RenewTriggers types.Map    `tfsdk:"renew_triggers"`
	RenewBefore   types.String `tfsdk:"renew_before"`
	StoreLink     types.Bool   `tfsdk:"store_link"`
	// RenewLink: false leaves the link as it is (bundle_renew_link.go).
	RenewLink types.Bool     `tfsdk:"renew_link"`
	Timeouts  timeouts.Value `tfsdk:"timeouts"`

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
	// LinkRevision grows with every link the plan schedules.
	LinkRevision types.Int64 `tfsdk:"link_revision"`
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
