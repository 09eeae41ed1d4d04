package provider

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

// The export inputs force a new export when they change, except right after
// an import: the API does not return them, so the prior state has them null
// and the first plan adopts them from configuration instead of replacing the
// adopted job. `domain` is required, so a null `domain` in state means
// exactly that.

const replaceUnlessImportedDescription = "Changing this value starts a new export, except on the first plan after an import."

func replaceUnlessImported(ctx context.Context, state tfsdk.State) bool {
	var domain types.String
	if diags := state.GetAttribute(ctx, path.Root("domain"), &domain); diags.HasError() {
		return true
	}
	return !domain.IsNull()
}

func replaceUnlessImportedString() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaceUnlessImported(ctx, req.State)
	}, replaceUnlessImportedDescription, replaceUnlessImportedDescription)
}

func replaceUnlessImportedList() planmodifier.List {
	return listplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaceUnlessImported(ctx, req.State)
	}, replaceUnlessImportedDescription, replaceUnlessImportedDescription)
}

func replaceUnlessImportedMap() planmodifier.Map {
	return mapplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaceUnlessImported(ctx, req.State)
	}, replaceUnlessImportedDescription, replaceUnlessImportedDescription)
}
