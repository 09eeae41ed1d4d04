package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// `renew_link = false` leaves the link alone once generated: no plan renews
// it as it ages or expires. It is for an export whose own link nothing
// uses, such as one whose archive mintlify_static_export_archive downloads
// into the user's storage with a link of its own. A change of
// `renew_triggers` still renews the link: that is asked for.

func renewLinkAttribute() schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "Whether plans renew the link as it ages. Defaults to `true`. Set it to " +
			"`false` when nothing uses the link, such as when `mintlify_static_export_archive` downloads the archive.",
		Optional:      true,
		Computed:      true,
		PlanModifiers: []planmodifier.Bool{renewLinkDefault{}},
	}
}

// renewLinkDefault plans `renew_link` as true when it is not configured, but
// keeps it null for a state written before the attribute existed (null
// renews as true does), so that such a state plans no change.
type renewLinkDefault struct{}

func (renewLinkDefault) Description(context.Context) string {
	return "Defaults to true; a state without renew_link keeps it null."
}

func (d renewLinkDefault) MarkdownDescription(ctx context.Context) string { return d.Description(ctx) }

func (renewLinkDefault) PlanModifyBool(_ context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	switch {
	case !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull():
		// Configured, or a destroy: the plan is what Terraform made it.
	case !req.State.Raw.IsNull() && req.StateValue.IsNull():
		resp.PlanValue = types.BoolNull()
	default:
		resp.PlanValue = types.BoolValue(true)
	}
}

// renewsLink reports whether plans renew the model's link as it ages.
// Unknown counts as true: the apply decides, when it is known.
func (m *staticExportBundleModel) renewsLink() bool {
	return m.RenewLink.IsNull() || m.RenewLink.IsUnknown() || m.RenewLink.ValueBool()
}
