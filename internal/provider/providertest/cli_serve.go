package providertest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// serve serves provider in this process until stop, as
// terraform-plugin-testing does for each of its steps, and returns the
// TF_REATTACH_PROVIDERS value that points the CLI at it. The provider's
// logs go to the test's log sink (TF_LOG, TF_ACC_LOG_PATH), not to the
// CLI's output.
func serve(t *testing.T, provider func() tfprotov6.ProviderServer) (string, func(), error) {
	ctx, cancel := context.WithCancel(context.Background())
	configCh := make(chan *plugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	serveErr := make(chan error, 1)
	go func() {
		serveErr <- tf6server.Serve(devprovider.Addresses[0], provider,
			tf6server.WithDebug(ctx, configCh, closeCh), tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithLoggingSink(t), tf6server.WithoutLogStderrOverride())
	}()
	var rc *plugin.ReattachConfig
	select {
	case rc = <-configCh:
	case err := <-serveErr:
		cancel()
		return "", nil, fmt.Errorf("serving the provider: %w", err)
	}
	stop := func() {
		cancel()
		<-closeCh
	}
	entry := map[string]any{
		"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": rc.Test,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()},
	}
	// `source = "mintlify/mintlify"` means the first address under
	// Terraform and the second under OpenTofu; a CLI ignores the other.
	all := map[string]any{}
	for _, addr := range devprovider.Addresses {
		all[addr] = entry
	}
	raw, err := json.Marshal(all)
	if err != nil {
		stop()
		return "", nil, err
	}
	return string(raw), stop, nil
}
