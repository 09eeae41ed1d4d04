package staticexport

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// `renew_triggers` renews the bundle's link, in place, when any of its
// values changes: the same export, a fresh link, and `link_revision` one
// higher, so that `set_wo_revision = link_revision` re-sends the write-only
// link with any other change of the release (the helm provider re-sends
// `set_wo` only when `set_wo_revision` grows).

func renewTriggersAttribute() schema.MapAttribute {
	return schema.MapAttribute{
		MarkdownDescription: "Arbitrary strings whose change renews the link in place. Put here the other " +
			"inputs of a `helm_release` that takes the link through `set_wo`.",
		ElementType: types.StringType,
		Optional:    true,
	}
}

// renewTriggersChanged reports whether the planned `renew_triggers` differ
// from the state's, an empty map being the same as none, or are only known
// after apply.
func renewTriggersChanged(state, plan types.Map) bool {
	if plan.IsUnknown() {
		return true
	}
	for _, v := range plan.Elements() {
		if v.IsUnknown() {
			return true
		}
	}
	if len(state.Elements()) == 0 && len(plan.Elements()) == 0 {
		return false
	}
	return !plan.Equal(state)
}

// sameInputs reports whether the plan keeps every input that an in-place
// update can change: then the plan of m has no change. `domain`, `version`,
// `paths`, `triggers` and `base_path` change in place only for a job just
// imported or whose domain is untold (bundle_import_contract.go).
func (m *staticExportBundleModel) sameInputs(state *staticExportBundleModel) bool {
	return m.RenewBefore.Equal(state.RenewBefore) && m.StoreLink.Equal(state.StoreLink) && m.RenewLink.Equal(state.RenewLink) &&
		m.Timeouts.Equal(state.Timeouts) && m.RenewTriggers.Equal(state.RenewTriggers) &&
		m.Domain.Equal(state.Domain) && m.Version.Equal(state.Version) && m.Paths.Equal(state.Paths) &&
		m.Triggers.Equal(state.Triggers) && m.BasePath.Equal(state.BasePath)
}
