package staticexport

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The bundle's identity is the export job, `{ job_id }` (with `project_id`
// under the project-scoped contract), which is all that identifies a bundle
// (Terraform 1.12 and later, OpenTofu 1.12). An `import` block with
// `identity = { job_id = "se_…" }` adopts an export exactly as importing by
// id does.
//
// The identity has versions: 0, `{"job_id"}` (before the
// project-scoped contract, as the provider of 9da46d7 wrote it), which
// later builds extended with `project_id` without a new version; and 1,
// `{"job_id", "project_id"}`. OpenTofu refuses a stored identity that lacks
// an attribute of the schema ("attribute "project_id" is required"), so
// every change of the identity's attributes takes a new version and an
// upgrade from each earlier one.

var _ resource.ResourceWithUpgradeIdentity = (*staticExportBundleResource)(nil)

// bundleIdentityVersion is the version of the identity schema.
const bundleIdentityVersion = 1

// UpgradeIdentity upgrades an identity of version 0, in either shape it
// was written in: the raw JSON, since no one prior schema reads both.
func (r *staticExportBundleResource) UpgradeIdentity(context.Context) map[int64]resource.IdentityUpgrader {
	return map[int64]resource.IdentityUpgrader{0: {IdentityUpgrader: upgradeBundleIdentityV0}}
}

// upgradeBundleIdentityV0 reads `{"job_id"}` or `{"job_id", "project_id"}`;
// a missing `project_id` is a job of today's domain-scoped contract, the
// only one the provider spoke when it wrote that shape.
func upgradeBundleIdentityV0(ctx context.Context, req resource.UpgradeIdentityRequest, resp *resource.UpgradeIdentityResponse) {
	var prior struct {
		JobID     *string `json:"job_id"`
		ProjectID *string `json:"project_id"`
	}
	if req.RawIdentity == nil || len(req.RawIdentity.JSON) == 0 || string(req.RawIdentity.JSON) == "null" {
		// A state written without identity (by Terraform before 1.12), which
		// Terraform upgrades all the same. The framework refuses an empty
		// answer ("Missing Upgraded Resource Identity"): answer nulls, which
		// the next refresh fills in.
		resp.Diagnostics.Append(resp.Identity.Set(ctx, staticExportBundleIdentityModel{
			JobID: types.StringNull(), ProjectID: types.StringNull()})...)
		return
	}
	if err := json.Unmarshal(req.RawIdentity.JSON, &prior); err != nil || prior.JobID == nil {
		resp.Diagnostics.AddError("Unreadable Resource Identity",
			fmt.Sprintf("The state holds an identity of mintlify_static_export_bundle (version 0) that is not "+
				"`{\"job_id\": …}` or `{\"job_id\": …, \"project_id\": …}`: %s. The state was edited, or written by "+
				"another provider; restore it from a backup, or remove the resource from state and import its job "+
				"by id.", describeJSONError(err)))
		return
	}
	resp.Diagnostics.Append(resp.Identity.Set(ctx, staticExportBundleIdentityModel{
		JobID: types.StringPointerValue(prior.JobID), ProjectID: types.StringPointerValue(prior.ProjectID),
	})...)
}

// describeJSONError says what was wrong with an identity's JSON.
func describeJSONError(err error) string {
	if err != nil {
		return "it is not a JSON object of strings (" + err.Error() + ")"
	}
	return "it has no `job_id`"
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
