package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// replaceUnlessImported builds the plan modifiers of inputs that start a new
// remote job when they change, except right after an import: the API does
// not return them, so the prior state has them null and the first plan
// adopts them from configuration instead of replacing the adopted job.
//
// marker is a required string input of the resource (`domain` for the
// bundle, `prompt` for the agent job): null in state means exactly "just
// imported".
type replaceUnlessImported struct {
	marker      path.Path
	description string
}

var replaceExportUnlessImported = replaceUnlessImported{
	marker:      path.Root("domain"),
	description: "Changing this value starts a new export, except on the first plan after an import.",
}

var replaceAgentJobUnlessImported = replaceUnlessImported{
	marker:      pathPrompt,
	description: "Changing this value starts a new agent job, except on the first plan after an import.",
}

func (r replaceUnlessImported) requiresReplace(ctx context.Context, state tfsdk.State) bool {
	var marker types.String
	if diags := state.GetAttribute(ctx, r.marker, &marker); diags.HasError() {
		return true
	}
	return !marker.IsNull()
}

func (r replaceUnlessImported) String() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = r.requiresReplace(ctx, req.State)
	}, r.description, r.description)
}

func (r replaceUnlessImported) List() planmodifier.List {
	return listplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = r.requiresReplace(ctx, req.State)
	}, r.description, r.description)
}

func (r replaceUnlessImported) Map() planmodifier.Map {
	return mapplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = r.requiresReplace(ctx, req.State)
	}, r.description, r.description)
}

// keepString and keepInt64 keep a computed value from state while a plan
// does not change it.
var (
	keepString = []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepInt64  = []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
)
