package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// servedCLI runs the terraform CLI against the provider served from the
// test process, on the test env's virtual clock, through
// TF_REATTACH_PROVIDERS: what terraform-plugin-testing does for each of its
// steps, for the commands it does not run, such as
// `terraform apply -invoke` (Terraform 1.14). Its output is the CLI's, as a
// user sees it.
type servedCLI struct {
	t   *testing.T
	dir string
	env []string
}

// newServedCLI serves the provider for env and returns a CLI in an empty
// working directory. The provider stops at the end of the test.
func newServedCLI(t *testing.T, env *testEnv) *servedCLI {
	t.Helper()
	return newServedCLIOn(t, env.clock)
}

// newServedCLIOn is newServedCLI for a provider on clk.
func newServedCLIOn(t *testing.T, clk clock.Clock) *servedCLI {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	address := providerAddress()
	served := make(chan error, 1)
	go func() {
		served <- tf6server.Serve(address, providerserver.NewProtocol6(&mintlifyProvider{version: "test", clock: clk}),
			tf6server.WithDebug(ctx, reattach, closed), tf6server.WithLoggingSink(t),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()))
	}()
	var cfg *plugin.ReattachConfig
	select {
	case cfg = <-reattach:
	case err := <-served:
		cancel()
		t.Fatalf("serving the provider: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-closed
	})
	info, err := json.Marshal(map[string]any{address: map[string]any{
		"Protocol":        cfg.Protocol,
		"ProtocolVersion": cfg.ProtocolVersion,
		"Pid":             cfg.Pid,
		"Test":            cfg.Test,
		"Addr":            map[string]string{"Network": cfg.Addr.Network(), "String": cfg.Addr.String()},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return &servedCLI{t: t, dir: t.TempDir(), env: append(os.Environ(),
		"TF_REATTACH_PROVIDERS="+string(info), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}
}

// providerAddress is the provider's registry address under the CLI being
// tested: `source = "mintlify/mintlify"` means registry.opentofu.org under
// OpenTofu (the compatibility matrix sets TF_ACC_PROVIDER_HOST for it).
func providerAddress() string {
	host := "registry.terraform.io"
	if h := os.Getenv("TF_ACC_PROVIDER_HOST"); h != "" {
		host = h
	}
	return host + "/mintlify/mintlify"
}

// writeConfig writes main.tf: the required_providers block, then body.
func (c *servedCLI) writeConfig(body string) {
	c.t.Helper()
	hcl := "terraform {\n  required_providers {\n    mintlify = { source = \"mintlify/mintlify\" }\n  }\n}\n" + body
	if err := os.WriteFile(filepath.Join(c.dir, "main.tf"), []byte(hcl), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

// run runs terraform to completion and returns its combined output.
func (c *servedCLI) run(args ...string) (string, error) {
	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), args...)
	cmd.Dir = c.dir
	cmd.Env = c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// mustRun runs terraform and fails the test if it fails.
func (c *servedCLI) mustRun(args ...string) string {
	c.t.Helper()
	out, err := c.run(args...)
	if err != nil {
		c.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
