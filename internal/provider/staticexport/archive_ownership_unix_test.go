//go:build !windows

package staticexport

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// specialEntries are what may stand at output_path besides a regular file,
// and how a test makes each. The provider never replaces any of them, not
// even with overwrite = true: a FIFO or a device is not a file a user
// meant to lose, and a symbolic link leads to one.
var specialEntries = []struct {
	name, what string
	make       func(t *testing.T, p string)
	// intact checks that the entry at p is still the one made.
	intact func(p string) error
}{
	{
		name: "FIFO", what: "a FIFO (named pipe)",
		make: func(t *testing.T, p string) {
			t.Helper()
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		intact: func(p string) error {
			if info, err := os.Lstat(p); err != nil || info.Mode().Type() != os.ModeNamedPipe {
				return fmt.Errorf("%s is no longer the FIFO (%v, %v)", p, info, err)
			}
			return nil
		},
	},
	{
		name: "symbolic link", what: "a symbolic link",
		make: func(t *testing.T, p string) {
			t.Helper()
			if err := os.WriteFile(p+".target", []byte("my notes"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Base(p)+".target", p); err != nil {
				t.Fatal(err)
			}
		},
		intact: func(p string) error {
			if target, err := os.Readlink(p); err != nil || target != filepath.Base(p)+".target" {
				return fmt.Errorf("%s is no longer the link (%q, %v)", p, target, err)
			}
			return holds(p+".target", "my notes", 0o644)
		},
	},
}

// TestAccStaticExportArchive_neverReplacesASpecialFile refuses a create
// over a FIFO or a symbolic link, with or without overwrite = true: at plan
// when output_path is known, at apply, before any download, when it is not.
func TestAccStaticExportArchive_neverReplacesASpecialFile(t *testing.T) {
	t.Parallel()
	for _, entry := range specialEntries {
		t.Run(entry.name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t)
			job := env.StartExportOutsideTerraform(t)
			out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
			entry.make(t, out)
			unknownAtPlan := fmt.Sprintf(`"%s${substr(mintlify_static_export_bundle.docs.job_id, 0, 0)}"`, out)
			unknownConfig := env.Config(providertest.BundleConfig("docs.example.com", "") + strings.Replace(
				providertest.ArchiveWith("mintlify_static_export_bundle.docs.job_id", out, "  overwrite = true"), strconv.Quote(out), unknownAtPlan, 1))
			refused := []string{"Output Path Is Not A Regular File", out, "is " + entry.what, "never replaces anything but a regular file",
				"not even with `overwrite = true`"}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: env.ProviderFactories(),
				Steps: []resource.TestStep{
					{
						Config:      env.Config(providertest.ArchiveWith(strconv.Quote(job), out, "  overwrite = true")),
						PlanOnly:    true,
						ExpectError: providertest.ExpectError(append(refused, "Nothing was downloaded", "Remove it, or set `output_path` to another path")...),
					},
					{
						Config:      env.Config(providertest.ArchiveConfig(strconv.Quote(job), out)),
						PlanOnly:    true,
						ExpectError: providertest.ExpectError(refused...),
					},
					{
						// Refused by the plan that Terraform makes again at apply,
						// once output_path is known.
						Config:      unknownConfig,
						ExpectError: providertest.ExpectError(append(refused, "Nothing was downloaded")...),
					},
				},
			})
			if err := entry.intact(out); err != nil {
				t.Error(err)
			}
			if n := providertest.DownloadRequests(env); n != 0 {
				t.Errorf("%d downloads, want none", n)
			}
		})
	}
}

// TestAccStaticExportArchive_neverRestoresOverASpecialFile leaves a FIFO
// or a symbolic link that took the archive's place, even with
// overwrite = true: a warning at plan, an error at apply, the entry as it
// was; destroy leaves it too.
func TestAccStaticExportArchive_neverRestoresOverASpecialFile(t *testing.T) {
	t.Parallel()
	for _, entry := range specialEntries {
		t.Run(entry.name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t)
			job := strconv.Quote(env.StartExportOutsideTerraform(t))
			out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
			cli := env.CLI(t)
			cli.WriteConfig(env.Config(providertest.ArchiveWith(job, out, "  overwrite = true")))
			cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
			providertest.MustRemove(t, out)
			entry.make(t, out)

			plan := cli.Run("plan", "-no-color", "-input=false")
			if want := providertest.ExpectError("Warning: Output Path Is Not A Regular File", out, "is "+entry.what,
				"not even with `overwrite = true`", "the apply will stop with an error"); plan.Exit != 0 || !want.MatchString(plan.Output) {
				t.Errorf("terraform plan: exit %d, and it does not say %s:\n%s", plan.Exit, want, plan.Output)
			}
			apply := cli.Run("apply", "-auto-approve", "-no-color", "-input=false")
			if want := providertest.ExpectError("Error: Output Path Is Not A Regular File", out, "is "+entry.what,
				"never replaces anything but a regular file"); apply.Exit == 0 || !want.MatchString(apply.Output) {
				t.Errorf("terraform apply: exit %d, and it does not say %s:\n%s", apply.Exit, want, apply.Output)
			}
			if err := entry.intact(out); err != nil {
				t.Error(err)
			}
			if n := providertest.DownloadRequests(env); n != 1 {
				t.Errorf("%d downloads, want only the create's", n)
			}
			cli.MustRun("destroy", "-auto-approve", "-no-color", "-input=false")
			if err := entry.intact(out); err != nil {
				t.Errorf("after destroy: %v", err)
			}
		})
	}
}
