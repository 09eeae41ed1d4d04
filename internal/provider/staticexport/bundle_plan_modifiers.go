package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// replaceExportUnlessImported replaces the export when `triggers` or
// `base_path` changes, except on the first plan after an import
// (justImported).
var replaceExportUnlessImported = struct {
	String planmodifier.String
	Map    planmodifier.Map
}{
	String: stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !justImported(ctx, storeLinkOf(ctx, req.State), req.Private)
	}, replaceExportDescription, replaceExportDescription),
	Map: mapplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !justImported(ctx, storeLinkOf(ctx, req.State), req.Private)
	}, replaceExportDescription, replaceExportDescription),
}

const replaceExportDescription = "Changing this value starts a new export, except on the first plan after an import."

// storeLinkOf reads `store_link` from state: null right after an import
// that the apply adopts.
func storeLinkOf(ctx context.Context, state tfsdk.State) types.Bool {
	var storeLink types.Bool
	if state.GetAttribute(ctx, path.Root("store_link"), &storeLink).HasError() {
		return types.BoolValue(true) // replace, as a state of another shape would
	}
	return storeLink
}

// The arguments of the domain-scoped contract replace the export when they
// change, except right after an import and while the state holds a job
// imported by `JOB_ID`, whose `domain`, `version` and `paths` the API never
// told: setting them then describes the job, and starts nothing.
const domainArgumentDescription = "Changing this value starts a new export, except on the first plan after an " +
	"import, and when it is first set for a job imported by its id."

func replaceDomainExport(ctx context.Context, state tfsdk.State, private privateState) bool {
	var untold struct {
		Domain    types.String `tfsdk:"domain"`
		ProjectID types.String `tfsdk:"project_id"`
		JobID     types.String `tfsdk:"job_id"`
		StoreLink types.Bool   `tfsdk:"store_link"`
	}
	for name, v := range map[string]any{"domain": &untold.Domain, "project_id": &untold.ProjectID,
		"job_id": &untold.JobID, "store_link": &untold.StoreLink} {
		if diags := state.GetAttribute(ctx, path.Root(name), v); diags.HasError() {
			return true
		}
	}
	m := staticExportBundleModel{Domain: untold.Domain, ProjectID: untold.ProjectID, JobID: untold.JobID}
	return !justImported(ctx, untold.StoreLink, private) && !m.domainUntold()
}

var replaceDomainArgument = struct {
	String planmodifier.String
	List   planmodifier.List
}{
	String: stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaceDomainExport(ctx, req.State, req.Private)
	}, domainArgumentDescription, domainArgumentDescription),
	List: listplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaceDomainExport(ctx, req.State, req.Private)
	}, domainArgumentDescription, domainArgumentDescription),
}
