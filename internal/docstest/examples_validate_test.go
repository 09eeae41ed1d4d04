package docstest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestExamplesAsWritten validates every example a user may copy, exactly as
// written: each fenced HCL block of README.md and of the templates under
// templates/ (the docs/ pages are generated from them) and each .tf file
// under examples/ (which the templates embed). A block is valid when it
// parses, is `terraform fmt` clean, and declares
// `mintlify = { source = "mintlify/mintlify" }` and every other provider it
// uses in required_providers. Then:
//
//   - a block that needs only this provider (and built-in ones) goes through
//     the real `terraform init` (from a local filesystem mirror of the
//     provider just built; nothing is downloaded) and `terraform validate`;
//   - a block that needs another provider (helm) cannot be initialised in
//     `make test`, so every reference in it must name something it declares;
//     built with the `ecosystem` tag (`make test-compat`), a block that needs
//     only helm besides goes through init and validate too, with the real
//     helm provider.
//
// An example that declares `required_version` goes through init and validate
// only under a CLI that meets it; under an older one it is skipped with the
// version gate's words, which `make test-compat` counts.
//
// Blocks that are deliberately fragments carry a marker with the reason
// (`<!-- fragment: reason -->` before the fence, `# fragment: reason` on a
// .tf file's first line); they must parse and be formatted, nothing more.
// A failure names the file and the line where the block starts; line numbers
// in Terraform's output are the source file's.
func TestExamplesAsWritten(t *testing.T) {
	providertest.CLIContract(t)
	root := filepath.Join("..", "..")
	blocks, err := collectExampleBlocks(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) == 0 {
		t.Fatal("found no example blocks")
	}
	t.Logf("validating %d example blocks:\n  %s", len(blocks), strings.Join(blockNames(blocks, false), "\n  "))
	fragments := blockNames(blocks, true)
	if len(fragments) == 0 {
		fragments = []string{"(none)"}
	}
	t.Logf("of which fragments, checked for syntax and format only:\n  %s", strings.Join(fragments, "\n  "))

	// `terraform fmt -check` once for every block, each its own file.
	formatted(t, blocks)
	for _, b := range blocks {
		t.Run(b.where(), func(t *testing.T) {
			t.Parallel()
			validateExample(t, b)
		})
	}
}

// formatted runs `terraform fmt -check` once on a directory that holds
// each block as a file of its own (at the line it has in its source, so
// that a diff gives the source's line numbers), and fails for each block
// that is not formatted, naming it.
func formatted(t *testing.T, blocks []exampleBlock) {
	t.Helper()
	dir := t.TempDir()
	names := map[string]exampleBlock{}
	for i, b := range blocks {
		name := fmt.Sprintf("%03d-%s.tf", i, strings.TrimSuffix(filepath.Base(b.source), ".tf"))
		names[name] = b
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.padded()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(providertest.CLIPath(t), "fmt", "-check", "-diff", "-no-color", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("terraform fmt -check: %v\n%s", err, out)
	}
	unformatted := 0
	for _, line := range strings.Split(string(out), "\n") {
		if b, ok := names[strings.TrimSpace(line)]; ok {
			unformatted++
			t.Errorf("%s: the example is not `terraform fmt` clean", b.where())
		}
	}
	if unformatted == 0 {
		t.Errorf("terraform fmt -check failed, naming none of the examples' files")
	}
	t.Logf("terraform fmt -check -diff:\n%s", out)
}

// helmExamplesCLI, set in builds with the ecosystem tests, returns a CLI
// that installs this provider and the real helm provider.
var helmExamplesCLI func(*testing.T, ...providertest.CLIOption) *providertest.CLI

func validateExample(t *testing.T, b exampleBlock) {
	file, diags := hclsyntax.ParseConfig([]byte(b.text), b.source, hcl.Pos{Line: b.line, Column: 1})
	if diags.HasErrors() {
		t.Fatalf("%s: the example does not parse:\n%s", b.where(), diags.Error())
	}
	// The file holds the block at the line it has in its source, so that
	// Terraform's messages give the source's line numbers. The provider is
	// the one built from this checkout (providertest.Built).
	name := strings.TrimSuffix(filepath.Base(b.source), ".tf") + ".tf"
	padded := b.padded()
	if b.fragment != "" {
		return // formatted (TestExamplesAsWritten) checked its format
	}
	cli := providertest.BuiltCLI(t)
	cli.WriteFile(name, padded)
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		t.Fatalf("%s: not native HCL syntax", b.where())
	}
	config := analyseExample(body)
	alone := config.runsWithThisProviderAlone()
	if problems := config.problems(!alone); len(problems) > 0 {
		t.Fatalf("%s: the example is incomplete:\n  %s", b.where(), strings.Join(problems, "\n  "))
	}
	if !alone && helmExamplesCLI != nil && config.needsOnly("helm") {
		cli, alone = helmExamplesCLI(t), true
		cli.WriteFile(name, padded)
	}
	if alone {
		// An example for a newer CLI says so, and is run only where it can
		// be: under an older CLI the version gate skips it, visibly.
		if config.requiredVersion != "" {
			providertest.SkipUnlessVersion(t, config.requiredVersion)
		}
		if hasRemoteBackend(body) {
			// Validate checks that the backend type exists, and some builds
			// have only the local backend (the Terraform 1.16.4 of
			// make test-compat): an override file puts it in the remote
			// backend's place, and everything else is validated as written.
			cli.WriteFile("backend_override.tf", "terraform {\n  backend \"local\" {}\n}\n")
		}
		runExample(t, cli, b, "init", "-backend=false", "-input=false", "-no-color")
		runExample(t, cli, b, "validate", "-no-color")
	}
}

// runExample runs a command on an example and fails the test, naming the
// example, when the command fails.
func runExample(t *testing.T, cli *providertest.CLI, b exampleBlock, args ...string) {
	t.Helper()
	if res := cli.Run(args...); res.Exit != 0 {
		t.Fatalf("%s: terraform %s failed (exit %d):\n%s", b.where(), strings.Join(args, " "), res.Exit, res.Output)
	}
}

// hasRemoteBackend is true when the example's terraform block has a backend
// other than local.
func hasRemoteBackend(body *hclsyntax.Body) bool {
	for _, block := range body.Blocks {
		if block.Type != "terraform" {
			continue
		}
		for _, inner := range block.Body.Blocks {
			if inner.Type == "backend" && len(inner.Labels) == 1 && inner.Labels[0] != "local" {
				return true
			}
		}
	}
	return false
}
