package docstest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// archiveExample is the archive's registry example, with its output_path
// under dir: path.module would be this package's directory for a provider
// served from the test process.
func archiveExample(t *testing.T, dir string) string {
	t.Helper()
	return strings.ReplaceAll(readExample(t, filepath.Join("resources", "mintlify_static_export_archive"), "resource.tf"),
		"${path.module}", dir)
}

// readArchive returns the archive's bytes, failing the test when it is not
// on disk.
func readArchive(t *testing.T, path, when string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: the archive is not on disk: %v", when, err)
	}
	return raw
}

// TestAccExampleArchiveRemovedKeepsTheFile applies the registry example,
// then the example that replaces its archive by a removed block with
// `lifecycle { destroy = false }`: the archive leaves the state, and its
// file stays on disk as it was.
func TestAccExampleArchiveRemovedKeepsTheFile(t *testing.T) {
	t.Parallel()
	providertest.SkipUnlessVersion(t, ">= 1.7") // removed blocks
	env := newTestEnv(t, providertest.SizedArchives(1<<20))
	dir := t.TempDir()
	out := filepath.Join(dir, "build", "docs-bundle.tar.gz")
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(archiveExample(t, dir)))
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	before := readArchive(t, out, "after the first apply")

	cli.WriteConfig(env.Config(readExample(t, filepath.Join("resources", "mintlify_static_export_archive", "keep-the-file"), "main.tf")))
	res := cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if after := readArchive(t, out, "after the removed block"); !bytes.Equal(before, after) {
		t.Errorf("the removed block changed the archive on disk")
	}
	if cli.Instance(archiveAddr).Exists || !cli.Instance(bundleAddr).Exists {
		t.Errorf("after the removed block, the state holds the archive, or lost the bundle:\n%s", res)
	}
}

// TestAccArchiveDestroyFalseInTheResourceBlock: `lifecycle { destroy =
// false }` in the archive's own block (Terraform 1.16, OpenTofu 1.12) keeps
// the file through `terraform destroy` (which OpenTofu then ends in an
// error). Once the resource block is deleted from the configuration,
// OpenTofu still forgets the archive and keeps its file, and Terraform
// deletes it, as the archive's page says: under Terraform, only a removed
// block keeps it.
func TestAccArchiveDestroyFalseInTheResourceBlock(t *testing.T) {
	t.Parallel()
	providertest.SkipUnlessVersion(t, resourceDestroyFalseVersion(t))
	env := newTestEnv(t, providertest.SizedArchives(1<<20))
	keep := func(dir string) string {
		return strings.Replace(archiveExample(t, dir), "  output_path = ", "  lifecycle {\n    destroy = false\n  }\n\n  output_path = ", 1)
	}

	destroyed := t.TempDir()
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(keep(destroyed)))
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	// OpenTofu ends such a destroy in an error, unless told
	// -suppress-forget-errors; Terraform does not.
	res := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color")
	forgotten := strings.Contains(oneLine(res.Output), "Destroy was successful but left behind forgotten instances")
	if openTofu(t) != (res.Exit != 0) || openTofu(t) != forgotten {
		t.Errorf("the destroy that forgets the archive ended unlike the archive's page says:\n%s", res)
	}
	readArchive(t, filepath.Join(destroyed, "build", "docs-bundle.tar.gz"), "after terraform destroy")

	deleted := t.TempDir()
	cli = env.CLI(t)
	cli.WriteConfig(env.Config(keep(deleted)))
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	cli.WriteConfig(env.Config(`resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}
`))
	res = cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	_, err := os.Stat(filepath.Join(deleted, "build", "docs-bundle.tar.gz"))
	if kept := err == nil; kept != openTofu(t) {
		t.Errorf("the archive whose block was deleted: on disk %v, want %v (OpenTofu remembers destroy = false, Terraform does not):\n%s",
			kept, openTofu(t), res)
	}
}

// resourceDestroyFalseVersion is the constraint a CLI must meet for
// `destroy` in a resource's lifecycle block: Terraform 1.16, OpenTofu 1.12.
func resourceDestroyFalseVersion(t *testing.T) string {
	t.Helper()
	if openTofu(t) {
		return ">= 1.12"
	}
	return ">= 1.16"
}
