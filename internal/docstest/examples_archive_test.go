package docstest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccExampleAirGapped runs the part of the air-gapped guide that needs
// only this provider: the archive, and the chart's values and upload key
// that follow from it. output_path is under path.module, which for a
// provider in the test process would be this package's directory: it is
// moved to a temporary one. Once the export's own link has expired, a
// plan is still empty: nothing uses that link (`renew_link = false`).
func TestAccExampleAirGapped(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, providertest.SizedArchives(1<<20))
	dir := t.TempDir()
	example := strings.ReplaceAll(readExample(t, filepath.Join("guides", "air-gapped-storage", "values-only"), "main.tf"), "${path.module}", dir)
	out := filepath.Join(dir, "build", "docs-bundle.tar.gz")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(example),
			Check: resource.ComposeTestCheckFunc(
				providertest.CheckArchiveOnDisk(archiveAddr, out),
				func(s *terraform.State) error {
					archive := s.RootModule().Resources[archiveAddr].Primary.Attributes
					values := s.RootModule().Resources["terraform_data.helm_values"].Primary.Attributes["output"]
					want := fmt.Sprintf("\"staticExport\":\n  \"bundleUrl\": \"https://docs-bundles.s3.internal.example.com/mintlify/docs-%s.tar.gz\"\n"+
						"  \"enabled\": true\n  \"version\": \"%s\"\n", archive["job_id"], archive["sha256"][:12])
					if values != want {
						return fmt.Errorf("helm values =\n%s\nwant\n%s", values, want)
					}
					upload, _ := s.RootModule().Outputs["upload"].Value.(map[string]any)
					if upload["key"] != "mintlify/docs-"+archive["job_id"]+".tar.gz" || upload["md5"] != archive["md5"] {
						return fmt.Errorf("output upload = %v", upload)
					}
					return nil
				},
			),
		}, {
			PreConfig: func() { env.Clock.Advance(25 * time.Hour) },
			Config:    env.Config(example),
			PlanOnly:  true,
		}},
	})
}
