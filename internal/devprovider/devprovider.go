// Package devprovider builds this provider as a real plugin binary and writes
// a CLI configuration that installs it with no registry, for Terraform and
// OpenTofu alike: dev_overrides, so that plan and apply run the fresh binary
// without `terraform init`, and a filesystem mirror, so that `terraform init`
// works too. It also serves the fake API on loopback in real time, runs the
// CLI with that configuration (Commands), identifies a CLI binary (IdentifyBinary), and
// adds the real helm provider to the mirror (InstallWithHelm). The demo, the
// sandbox, the benchmarks, the release rehearsal, the compatibility matrix
// and the real-binary tests use it: the one place that knows how to run
// Terraform outside terraform-plugin-testing.
package devprovider

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Addresses are the provider's registry addresses that the configuration
// overrides: `source = "mintlify/mintlify"` means the first under Terraform
// and the second under OpenTofu.
var Addresses = []string{
	"registry.terraform.io/mintlify/mintlify",
	"registry.opentofu.org/mintlify/mintlify",
}

// MirrorVersion is the version under which the mirror offers the built
// provider to `terraform init`: the release being developed (CHANGELOG.md),
// so that a configuration's version constraint for it is met.
const MirrorVersion = "0.1.0"

// Installation is a built provider and the CLI configuration that uses it.
// Everything it names lies under the directory given to Install.
type Installation struct {
	// Binary is the provider executable, as terraform starts it.
	Binary string
	// CLIConfig is the path for TF_CLI_CONFIG_FILE.
	CLIConfig string
}

// Install builds the provider from the module at moduleDir into dir/bin,
// lays out dir/mirror and writes dir/terraform.rc. The configuration
// installs nothing from a registry: only this provider and the built-in ones
// (terraform_data) are available. Install tells progress what it is doing.
func Install(ctx context.Context, moduleDir, dir string, progress io.Writer) (Installation, error) {
	binDir := filepath.Join(dir, "bin")
	inst := Installation{
		Binary:    filepath.Join(binDir, "terraform-provider-mintlify"),
		CLIConfig: filepath.Join(dir, "terraform.rc"),
	}
	if err := Build(ctx, moduleDir, inst.Binary, progress); err != nil {
		return inst, err
	}
	mirror := filepath.Join(dir, "mirror")
	if err := writeMirror(mirror, inst.Binary); err != nil {
		return inst, err
	}
	if err := os.WriteFile(inst.CLIConfig, []byte(cliConfig(binDir, mirror, Addresses)), 0o600); err != nil {
		return inst, err
	}
	return inst, nil
}

// heartbeat is how often Build says it is still building.
const heartbeat = 30 * time.Second

// Build compiles the provider from the module at moduleDir into binary. A
// cold build compiles the whole plugin framework and gRPC and takes minutes,
// so it tells progress so first, every 30 seconds that it is still at it,
// and how long it took, each on an indented line under the caller's own
// heading.
func Build(ctx context.Context, moduleDir, binary string, progress io.Writer) error {
	_, _ = fmt.Fprintln(progress, "  go build (the first build takes a few minutes)...")
	start := time.Now()
	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				_, _ = fmt.Fprintf(progress, "  still building (%s)...\n", time.Since(start).Round(time.Second))
			}
		}
	}()
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, ".")
	build.Dir = moduleDir
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the provider: %v\n%s", err, out)
	}
	_, _ = fmt.Fprintf(progress, "  built in %s\n", time.Since(start).Round(100*time.Millisecond))
	return nil
}

// writeMirror lays binary out as an unpacked filesystem mirror at dir, under
// both registry addresses, by symbolic links.
func writeMirror(dir, binary string) error {
	target := runtime.GOOS + "_" + runtime.GOARCH
	for _, addr := range Addresses {
		pkg := filepath.Join(dir, filepath.FromSlash(addr), MirrorVersion, target)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return err
		}
		if err := os.Symlink(binary, filepath.Join(pkg, filepath.Base(binary))); err != nil {
			return err
		}
	}
	return nil
}

// cliConfig is the CLI configuration: dev_overrides run the binary in
// binDir, the mirror serves `terraform init` the providers at mirrored
// (this one's Addresses, and the helm provider's once added), and nothing
// comes from a registry.
func cliConfig(binDir, mirror string, mirrored []string) string {
	var overrides, include []string
	for _, addr := range Addresses {
		overrides = append(overrides, fmt.Sprintf("    %q = %q", addr, binDir))
	}
	for _, addr := range mirrored {
		include = append(include, fmt.Sprintf("%q", addr))
	}
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
%s
  }
  filesystem_mirror {
    path    = %q
    include = [%s]
  }
  direct {
    exclude = ["registry.terraform.io/*/*", "registry.opentofu.org/*/*"]
  }
}
`, strings.Join(overrides, "\n"), mirror, strings.Join(include, ", "))
}
