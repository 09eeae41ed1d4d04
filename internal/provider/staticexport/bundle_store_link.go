package staticexport

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// `store_link = false` keeps the bundle's link out of state: `bundle_url`
// and `helm_values` are null, known at plan time, while `expires_at`,
// `size_bytes` and `link_revision` still describe the link the last apply
// generated, so renewal and `set_wo_revision` work as before. The link then
// reaches its consumer another way, such as the ephemeral resource through a
// write-only argument.

func storeLinkAttribute() schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "Whether to keep the link in state, as `bundle_url` and `helm_values`. Defaults to " +
			"`true`. Set it to `false` when the ephemeral `mintlify_static_export_bundle` hands the link over: " +
			"`bundle_url` and `helm_values` are then null.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
	}
}

// storesLink reports whether the model keeps its link in state. Unknown
// counts as true: the apply decides, when it is known.
func (m *staticExportBundleModel) storesLink() bool {
	return m.StoreLink.IsNull() || m.StoreLink.IsUnknown() || m.StoreLink.ValueBool()
}

// dropLinkUnlessStored nulls `bundle_url` and `helm_values` when the model
// keeps no link.
func (m *staticExportBundleModel) dropLinkUnlessStored() {
	if !m.storesLink() {
		m.BundleURL = types.StringNull()
		m.HelmValues = types.StringNull()
	}
}

// planStoredLink shows `bundle_url` and `helm_values` as null in the plan
// when `store_link` is false, and as unknown while `store_link` is: the
// apply decides then. A reference to either is then null at plan time.
func (m *staticExportBundleModel) planStoredLink() {
	switch {
	case m.StoreLink.IsUnknown():
		m.BundleURL, m.HelmValues = types.StringUnknown(), types.StringUnknown()
	case !m.storesLink():
		m.BundleURL, m.HelmValues = types.StringNull(), types.StringNull()
	}
}

// linkWantedInState reports whether `store_link` is known and true while
// the state holds no `bundle_url` for a link that exists (`expires_at`):
// `store_link` was just turned on, so a fresh link is due.
func linkWantedInState(storeLink types.Bool, bundleURL, expiresAt types.String) bool {
	stored, exists := known(bundleURL), known(expiresAt)
	return !storeLink.IsNull() && !storeLink.IsUnknown() && storeLink.ValueBool() && exists && !stored
}
