package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The static export bundle's resource identity, `{ job_id }`: the export
// job, which is all that identifies a bundle (Terraform 1.12 and later,
// OpenTofu 1.12). It wraps the resource rather than living in its file: every
// operation of the resource runs unchanged, and the identity is set from
// the `job_id` each one leaves in state. An `import` block with
// `identity = { job_id = "se_…" }` then adopts an export exactly as
// importing by id does.

var (
	_ resource.ResourceWithIdentity    = staticExportBundleIdentity{}
	_ resource.ResourceWithImportState = staticExportBundleIdentity{}
	_ resource.ResourceWithModifyPlan  = staticExportBundleIdentity{}
	_ resource.ResourceWithConfigure   = staticExportBundleIdentity{}
)

// staticExportBundleIdentity is the bundle resource with its identity.
type staticExportBundleIdentity struct {
	*staticExportBundleResource
}

// withBundleIdentity gives the bundle resource its identity.
func withBundleIdentity(r *staticExportBundleResource) resource.Resource {
	return staticExportBundleIdentity{r}
}

type staticExportBundleIdentityModel struct {
	JobID types.String `tfsdk:"job_id"`
}

func (r staticExportBundleIdentity) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"job_id": identityschema.StringAttribute{
				Description:       "The ID of the static export job, such as `se_3f9a2c1b8e7d4a06`.",
				RequiredForImport: true,
			},
		},
	}
}

func (r staticExportBundleIdentity) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.staticExportBundleResource.Create(ctx, req, resp)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.State, resp.Identity)...)
}

func (r staticExportBundleIdentity) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	r.staticExportBundleResource.Read(ctx, req, resp)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.State, resp.Identity)...)
}

func (r staticExportBundleIdentity) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.staticExportBundleResource.Update(ctx, req, resp)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.State, resp.Identity)...)
}

// ImportState imports by id as the resource does; an import by identity
// is an import by the identity's job_id.
func (r staticExportBundleIdentity) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" && req.Identity != nil {
		var identity staticExportBundleIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		if resp.Diagnostics.HasError() {
			return
		}
		req.ID = identity.JobID.ValueString()
	}
	r.staticExportBundleResource.ImportState(ctx, req, resp)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.State, resp.Identity)...)
}

// setBundleIdentity sets the identity from the job_id in state, when there
// is one (identity is nil for a Terraform without identity support).
func setBundleIdentity(ctx context.Context, state tfsdk.State, identity *tfsdk.ResourceIdentity) diag.Diagnostics {
	if identity == nil || state.Raw.IsNull() {
		return nil
	}
	var jobID types.String
	diags := state.GetAttribute(ctx, path.Root("job_id"), &jobID)
	if diags.HasError() || jobID.IsNull() || jobID.IsUnknown() {
		return diags
	}
	return append(diags, identity.Set(ctx, staticExportBundleIdentityModel{JobID: jobID})...)
}
