package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var replaceExportUnlessImported = core.ReplaceUnlessImported{
	Marker:      "store_link",
	Description: "Changing this value starts a new export, except on the first plan after an import.",
}

// The arguments of the domain-scoped contract replace the export when they
// change, except right after an import and while the state holds a job
// imported by `JOB_ID`, whose `domain`, `version` and `paths` the API never
// told: setting them then describes the job, and starts nothing.
const domainArgumentDescription = "Changing this value starts a new export, except on the first plan after an " +
	"import, and when it is first set for a job imported by its id."

func replaceDomainExport(ctx context.Context, state tfsdk.State) bool {
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
	return !untold.StoreLink.IsNull() && !m.domainUntold()
}

var replaceDomainArgument = struct {
	String planmodifier.String
	List   planmodifier.List
}{
	String: stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaceDomainExport(ctx, req.State)
	}, domainArgumentDescription, domainArgumentDescription),
	List: listplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaceDomainExport(ctx, req.State)
	}, domainArgumentDescription, domainArgumentDescription),
}
