package staticexport

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportArchive_umask creates the archive under a umask of
// 077 as any new file is, 0600; file_permission then sets it exactly, in
// place, without downloading it again. Not parallel: the umask belongs to
// the whole process, and Go runs a package's parallel tests only after its
// sequential ones.
func TestAccStaticExportArchive_umask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	env := providertest.NewTestEnv(t)
	out := filepath.Join(t.TempDir(), "build", "docs-bundle.tar.gz")
	job := strconv.Quote(env.StartExportOutsideTerraform(t))
	mode := func(want os.FileMode) resource.TestCheckFunc {
		return func(*terraform.State) error {
			info, err := os.Stat(out)
			if err != nil || info.Mode().Perm() != want {
				return fmt.Errorf("%s has mode %v (%v), want %v", out, info.Mode().Perm(), err, want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(providertest.ArchiveConfig(job, out)), Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), mode(0o600))},
			{
				Config: env.Config(providertest.ArchiveWith(job, out, `  file_permission = "0640"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), mode(0o640), func(*terraform.State) error {
					if n := providertest.DownloadRequests(env); n != 1 {
						return fmt.Errorf("%d downloads, want 1: a change of file_permission is made in place", n)
					}
					return nil
				}),
			},
			{
				// A restore writes the file with file_permission.
				PreConfig: func() { providertest.MustRemove(t, out) },
				Config:    env.Config(providertest.ArchiveWith(job, out, `  file_permission = "0640"`)),
				Check:     resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), mode(0o640)),
			},
		},
	})
}
