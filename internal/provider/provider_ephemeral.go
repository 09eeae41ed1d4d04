package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/provider"
)

var _ provider.ProviderWithEphemeralResources = (*mintlifyProvider)(nil)

// EphemeralResources lists the provider's ephemeral resources: values that
// are produced at each run and never stored.
func (p *mintlifyProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewStaticExportBundleEphemeralResource,
	}
}
