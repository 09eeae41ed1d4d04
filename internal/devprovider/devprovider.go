// Package devprovider builds this provider as a real plugin binary and writes
// a Terraform CLI configuration that installs it through dev_overrides, so
// that the terraform CLI runs it with no registry and no `terraform init`.
// The demo, the end-to-end benchmark and the real-binary tests use it.
package devprovider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Addresses are the provider's registry addresses, which the override
// replaces: `source = "mintlify/mintlify"` means the first under Terraform
// and the second under OpenTofu.
var Addresses = []string{"registry.terraform.io/mintlify/mintlify", "registry.opentofu.org/mintlify/mintlify"}

// Installation is a built provider and the CLI configuration that uses it.
type Installation struct {
	// Binary is the provider executable, as terraform starts it.
	Binary string
	// CLIConfig is the path for TF_CLI_CONFIG_FILE.
	CLIConfig string
}

// Install builds the provider from the module at moduleDir into dir/bin and
// writes dir/terraform.rc. The configuration installs nothing from a
// registry: the built-in providers (terraform_data) still work.
func Install(ctx context.Context, moduleDir, dir string) (Installation, error) {
	binDir := filepath.Join(dir, "bin")
	inst := Installation{
		Binary:    filepath.Join(binDir, "terraform-provider-mintlify"),
		CLIConfig: filepath.Join(dir, "terraform.rc"),
	}
	build := exec.CommandContext(ctx, "go", "build", "-o", inst.Binary, ".")
	build.Dir = moduleDir
	if out, err := build.CombinedOutput(); err != nil {
		return inst, fmt.Errorf("building the provider: %v\n%s", err, out)
	}
	if err := os.WriteFile(inst.CLIConfig, []byte(CLIConfig(binDir)), 0o600); err != nil {
		return inst, err
	}
	return inst, nil
}

// CLIConfig is a CLI configuration that runs the provider from binDir through
// dev_overrides under both registry hosts and installs nothing from a
// registry. Built-in providers (terraform_data) need no installation.
func CLIConfig(binDir string) string {
	var b strings.Builder
	b.WriteString("provider_installation {\n  dev_overrides {\n")
	for _, addr := range Addresses {
		fmt.Fprintf(&b, "    %q = %q\n", addr, binDir)
	}
	b.WriteString("  }\n")
	b.WriteString("  direct {\n    exclude = [\"registry.terraform.io/*/*\", \"registry.opentofu.org/*/*\"]\n  }\n}\n")
	return b.String()
}
