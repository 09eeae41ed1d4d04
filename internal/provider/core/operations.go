package core

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// What the operations of the resources start from, read in one way.

// ConfiguredModel reads the configuration of a data source, an ephemeral
// resource or an action, which all need the client: ok is false, with the
// diagnostics, while the provider is not configured or when the
// configuration cannot be read.
func ConfiguredModel[M any](ctx context.Context, data *ProviderData, config tfsdk.Config, diags *diag.Diagnostics) (m M, ok bool) {
	if data == nil {
		diags.Append(NotConfiguredDiagnostic())
		return m, false
	}
	diags.Append(config.Get(ctx, &m)...)
	return m, !diags.HasError()
}
