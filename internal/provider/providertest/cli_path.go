// The CLI under test, the one way the tests of internal/provider and
// internal/docstest drive it outside terraform-plugin-testing: for the
// commands its steps do not run (taint, `apply -invoke`, an import on the
// command line), for an apply interrupted half-way, and for what only a
// real plugin process shows (signals, logs at TF_LOG=TRACE). The provider
// under test is either
//
//   - served (ServedCLI, or Env.CLI): run by the test process and
//     reattached for each command (TF_REATTACH_PROVIDERS), so that it, the
//     fake API and the test share one virtual clock; or
//   - built (BuiltCLI): the plugin binary that internal/devprovider builds
//     (once per test process), which the CLI starts itself through
//     dev_overrides.
//
// Either way a CLI is one working directory and one environment:
//
//	cli := ServedCLI(t, providerserver.NewProtocol6(provider.NewOnClock("test", env.Clock)()))
//	cli.WriteConfig(`resource "mintlify_static_export_bundle" "docs" { domain = "docs.example.com" }`)
//	out := cli.MustRun("apply", "-auto-approve", "-no-color").Output
//
// The CLI is TF_ACC_TERRAFORM_PATH, else `terraform` on PATH (CLIPath), and
// never downloaded.

package providertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
)

// EnvCLIPath names the variable that points at the CLI under test, the one
// terraform-plugin-testing reads.
const EnvCLIPath = "TF_ACC_TERRAFORM_PATH"

// commandTimeout bounds every command: one that runs longer is killed and
// fails its test, rather than the whole test binary's -timeout.
const commandTimeout = 5 * time.Minute

// cliPath finds the CLI once per test process. terraform-plugin-testing
// reads only EnvCLIPath and downloads a CLI without it, so a CLI found on
// PATH is written there for it.
var cliPath = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv(EnvCLIPath); bin != "" {
		path, err := exec.LookPath(bin)
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvCLIPath, bin, err)
		}
		return path, nil
	}
	path, err := exec.LookPath("terraform")
	if err != nil {
		return "", fmt.Errorf("`terraform` is not on PATH, and %s is not set", EnvCLIPath)
	}
	return path, os.Setenv(EnvCLIPath, path)
})

// CLIPath returns the CLI under test: TF_ACC_TERRAFORM_PATH, else `terraform`
// on PATH. A test that needs the CLI calls it (the constructors here do)
// before terraform-plugin-testing runs; without a CLI the test fails, never
// skips, and nothing is downloaded.
func CLIPath(t testing.TB) string {
	t.Helper()
	path, err := cliPath()
	if err != nil {
		t.Fatalf("%s needs the Terraform CLI, and nothing is downloaded: %v. Put `terraform` on PATH, or set %s "+
			"to a Terraform or OpenTofu binary.", t.Name(), err, EnvCLIPath)
	}
	return path
}

// cliVersion asks the CLI under test for its version, once per test
// process. OpenTofu prints its own version in the same field, which is
// also what it checks `required_version` against.
var cliVersion = sync.OnceValues(func() (*version.Version, error) {
	path, err := cliPath()
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(path, "version", "-json").Output()
	if err != nil {
		return nil, fmt.Errorf("%s version -json: %w", path, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, fmt.Errorf("%s version -json: %w", path, err)
	}
	return version.NewVersion(v.Version)
})

// SkipUnlessVersion is tfversion.SkipBelow for tests that run the CLI
// directly, and for examples that declare `required_version`: it skips t
// when the CLI under test does not meet constraint (such as ">= 1.14"),
// in the words `make test-compat` counts as a version skip.
func SkipUnlessVersion(t testing.TB, constraint string) {
	t.Helper()
	if !VersionMeets(t, constraint) {
		v, _ := cliVersion()
		t.Skipf("Terraform CLI version %s is below minimum version %s: skipping test", v, constraint)
	}
}

// Main runs a package's tests and then removes the provider that Built
// built for them. Call it from TestMain in a package whose tests use
// Built:
//
//	func TestMain(m *testing.M) { runRemovingBuilds(m) }
func runRemovingBuilds(m *testing.M) {
	builds.mu.Lock()
	builds.main = true
	builds.mu.Unlock()
	code := m.Run()
	if err := removeBuilds(); err != nil {
		fmt.Fprintln(os.Stderr, "providertest:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// moduleRoot is the directory of the go.mod above the working directory
// (a test runs in its package's directory).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// VersionMeets reports whether the CLI under test meets constraint (such as
// ">= 1.16"), for a test whose expectations depend on the CLI's behaviour.
// OpenTofu is judged by its own version.
func VersionMeets(t testing.TB, constraint string) bool {
	t.Helper()
	CLIPath(t)
	v, err := cliVersion()
	if err != nil {
		t.Fatalf("asking the CLI under test for its version: %v", err)
	}
	c, err := version.NewConstraint(constraint)
	if err != nil {
		t.Fatalf("version constraint %q: %v", constraint, err)
	}
	return c.Check(v)
}
