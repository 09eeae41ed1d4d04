package docstest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
)

// servedCLI runs the terraform CLI against the provider served from the
// test process, on the test env's virtual clock, through
// TF_REATTACH_PROVIDERS, for the commands terraform-plugin-testing does not
// run, such as `terraform apply -invoke` (Terraform 1.14).
type servedCLI struct {
	t   *testing.T
	dir string
	env []string
}

// newServedCLI serves the provider for env and returns a CLI in an empty
// working directory. The provider stops at the end of the test.
func newServedCLI(t *testing.T, env *testEnv) *servedCLI {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	address := providerAddress()
	served := make(chan error, 1)
	go func() {
		served <- tf6server.Serve(address, providerserver.NewProtocol6(provider.NewOnClock("test", env.clock)()),
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

// mustRun runs terraform and fails the test if it fails; it returns the
// combined output.
func (c *servedCLI) mustRun(args ...string) string {
	c.t.Helper()
	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), args...)
	cmd.Dir = c.dir
	cmd.Env = c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		c.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// cliVersion is the version of the CLI under test (TF_ACC_TERRAFORM_PATH),
// asked once per test process. OpenTofu prints its own version in the same
// field, which is also what it checks `required_version` against.
var cliVersion = sync.OnceValues(func() (*version.Version, error) {
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output()
	if err != nil {
		return nil, err
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	return version.NewVersion(v.Version)
})

// skipUnlessCLIMeets is tfversion.SkipBelow for tests that run the CLI
// directly, and for examples that declare `required_version`: it skips when
// the CLI under test does not meet constraint (such as ">= 1.11"), with the
// words `make test-compat` counts as a version skip.
func skipUnlessCLIMeets(t *testing.T, constraint string) {
	t.Helper()
	v, err := cliVersion()
	if err != nil {
		t.Fatalf("asking the CLI under test for its version: %v", err)
	}
	c, err := version.NewConstraint(constraint)
	if err != nil {
		t.Fatalf("version constraint %q: %v", constraint, err)
	}
	if !c.Check(v) {
		t.Skipf("Terraform CLI version %s is below minimum version %s: skipping test", v, constraint)
	}
}
