package docstest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccExampleProjectScopedArchive applies the archive's project-scoped
// example against an API that serves only the project-scoped contract: the
// archive is a ZIP, `format` says so, and `unzip`, as the example and the
// guides say, extracts the site. output_path is moved from path.module to a
// temporary directory.
func TestAccExampleProjectScopedArchive(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext}}))
	dir := t.TempDir()
	example := strings.ReplaceAll(readExample(t, filepath.Join("resources", "mintlify_static_export_archive", "project-scoped"), "main.tf"), "${path.module}", dir)
	out := filepath.Join(dir, "build", "docs-export.zip")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(example),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("archive_format", knownvalue.StringExact("zip")),
				statecheck.ExpectKnownValue(archiveAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
			},
			Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(archiveAddr, out), func(*terraform.State) error {
				site := t.TempDir()
				if res, err := exec.Command("unzip", "-q", out, "-d", site).CombinedOutput(); err != nil {
					return fmt.Errorf("unzip %s, as the guides say: %w\n%s", out, err, res)
				}
				index, err := os.ReadFile(filepath.Join(site, "index.html"))
				if err != nil || !strings.Contains(string(index), "Static export of project "+providertest.ProjectID) {
					return fmt.Errorf("unzip extracted no index.html of the project's site (%v):\n%s", err, index)
				}
				return nil
			}),
		}},
	})
}
