package core

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ReplaceUnlessImported builds the plan modifiers of inputs that start a new
// remote job when they change, except right after an import: the API does
// not return them, so the prior state has them null and the first plan
// adopts them from configuration instead of replacing the adopted job.
//
// Marker names a top-level attribute, of any type, that is null in state
// exactly when the resource was just imported: a required input (`domain`
// for the bundle, `prompt` for the agent job) or one that always has a
// value once Terraform created the resource (the deployment's
// `wait_for_completion`).
type ReplaceUnlessImported struct {
	Marker      string
	Description string
}

func (r ReplaceUnlessImported) requiresReplace(state tfsdk.State) bool {
	v, _, err := tftypes.WalkAttributePath(state.Raw, tftypes.NewAttributePath().WithAttributeName(r.Marker))
	marker, ok := v.(tftypes.Value)
	return err != nil || !ok || !marker.IsNull()
}

func (r ReplaceUnlessImported) String() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = r.requiresReplace(req.State)
	}, r.Description, r.Description)
}

func (r ReplaceUnlessImported) List() planmodifier.List {
	return listplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = r.requiresReplace(req.State)
	}, r.Description, r.Description)
}

func (r ReplaceUnlessImported) Map() planmodifier.Map {
	return mapplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = r.requiresReplace(req.State)
	}, r.Description, r.Description)
}

// KeepString keeps a computed value from state while a plan does not
// change it.
var KeepString = []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
