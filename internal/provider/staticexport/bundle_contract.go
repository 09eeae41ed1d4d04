package staticexport

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// Which contract a bundle speaks is decided by `domain`: with it, today's
// domain-scoped calls (`domain`, `version`, `paths`); without it, the
// project-scoped ones (`project_id`, `base_path`), under which a link is
// renewed by reading the job. The two sets of arguments never mix, which
// ValidateConfig refuses at plan, before any request.

var _ resource.ResourceWithValidateConfig = (*staticExportBundleResource)(nil)

var pathDomain = path.Root("domain")

// basePathChoices are mintlify.ProjectExportBasePaths as HCL strings, for
// the schema's text.
var basePathChoices = func() []string {
	quoted := make([]string, len(mintlify.ProjectExportBasePaths))
	for i, p := range mintlify.ProjectExportBasePaths {
		quoted[i] = strconv.Quote(p)
	}
	return quoted
}()

// moveToProject is what a configuration changes to use the project-scoped
// contract.
const moveToProject = "remove `domain`, `version` and `paths`, and set `project_id` (here or on the provider)"

// projectScoped reports whether the model's job is one of the
// project-scoped contract: it names a project.
func (m *staticExportBundleModel) projectScoped() bool { return !m.ProjectID.IsNull() }

// ValidateConfig refuses a configuration that mixes the arguments of the
// two contracts.
func (r *staticExportBundleResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m staticExportBundleModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Domain.IsUnknown() {
		return
	}
	if !m.Domain.IsNull() {
		for _, a := range []struct {
			name  string
			value types.String
		}{{"base_path", m.BasePath}, {"project_id", m.ProjectID}} {
			if !a.value.IsNull() {
				resp.Diagnostics.AddAttributeError(path.Root(a.name), "Arguments Of Two Static Export Contracts",
					fmt.Sprintf("`%s` belongs to the project-scoped static export, which runs without `domain`; "+
						"`domain` selects today's domain-scoped export, which has no `%[1]s`. Remove `%[1]s` to keep "+
						"today's export, or %s to move to the project-scoped one (a new export replaces this one once).",
						a.name, moveToProject))
			}
		}
		return
	}
	if !m.Version.IsNull() || !m.Paths.IsNull() {
		at := path.Root("version")
		if m.Version.IsNull() {
			at = path.Root("paths")
		}
		resp.Diagnostics.AddAttributeError(at, "Arguments Of Two Static Export Contracts",
			"`version` and `paths` belong to today's domain-scoped static export, which needs `domain`; without "+
				"`domain` the export is project-scoped and exports the project's published docs whole. Set `domain`, "+
				"or remove `version` and `paths`.")
	}
}

// planContract settles `project_id` in the plan: null with `domain`, and
// for a job imported by `JOB_ID` while the configuration names no contract
// (bundle_import_contract.go); otherwise the configured project or the
// provider's (unknown while the provider is not configured). A bundle
// moving to another project, or from `domain` to a project, is replaced: a
// new export. Right after an import, a configuration of another contract
// than the job's is refused.
func (r *staticExportBundleResource) planContract(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan *staticExportBundleModel) {
	var configured types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, core.PathProjectID, &configured)...)
	var state *staticExportBundleModel
	if !req.State.Raw.IsNull() {
		state = &staticExportBundleModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	switch {
	case resp.Diagnostics.HasError():
		return
	case plan.Domain.IsUnknown():
		plan.ProjectID = types.StringUnknown()
		return
	case !plan.Domain.IsNull(), followsUntoldDomain(state, plan, configured):
		plan.ProjectID = types.StringNull()
	case !configured.IsNull():
		plan.ProjectID = configured
	case r.Provider == nil:
		plan.ProjectID = types.StringUnknown()
	default:
		projectID, diags := r.Provider.ProjectFor(configured, "Exporting the docs without `domain`", "resource")
		resp.Diagnostics.Append(diags...)
		plan.ProjectID = types.StringValue(projectID)
	}
	if state == nil || plan.ProjectID.IsUnknown() || resp.Diagnostics.HasError() {
		return
	}
	if justImported(ctx, state.StoreLink, req.Private) {
		refuseOtherContract(state, plan, configured, resp)
		return
	}
	if !plan.ProjectID.Equal(state.ProjectID) {
		resp.RequiresReplace = append(resp.RequiresReplace, core.PathProjectID)
	}
}
