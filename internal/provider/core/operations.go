package core

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
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

// BeginDataRead bounds the read of a data source by its `timeouts.read`
// (defaultTimeout unless set); the caller defers Cancel. ok is false, with
// the diagnostics, when the timeout cannot be read.
func BeginDataRead(ctx context.Context, data *ProviderData, t timeouts.Value, defaultTimeout time.Duration,
	diags *diag.Diagnostics,
) (read Call[struct{}], ok bool) {
	timeout, d := t.Read(ctx, defaultTimeout)
	diags.Append(d...)
	if diags.HasError() {
		read.Ctx = ctx
		return read, false
	}
	read.bounded = bound(ctx, data, "timeouts.read", timeout)
	return read, true
}
