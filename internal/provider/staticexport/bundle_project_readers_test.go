package staticexport

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// projectReaders are the job data source and the ephemeral link given the
// bundle's `project_id`, so that they follow the bundle's contract.
const projectReaders = `
data "mintlify_static_export_job" "this" {
  project_id = mintlify_static_export_bundle.docs.project_id
  job_id     = mintlify_static_export_bundle.docs.job_id
}

ephemeral "mintlify_static_export_bundle" "link" {
  project_id = mintlify_static_export_bundle.docs.project_id
  job_id     = mintlify_static_export_bundle.docs.job_id
}

provider "echo" {
  data = ephemeral.mintlify_static_export_bundle.link
}
resource "echo" "link" {}
`

// TestAccStaticExportJobDataSource_project: with `project_id`, the data
// source reads a project-scoped job (no progress, no page count) and the
// ephemeral resource reads a fresh link of it, a ZIP archive's.
func TestAccStaticExportJobDataSource_project(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "data.mintlify_static_export_job", "ephemeral.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t, providertest.NextOnly)
	factories := env.ProviderFactories()
	factories["echo"] = echoprovider.NewProviderServer()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		TerraformVersionChecks:   providertest.EphemeralResources,
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.ProjectBundleConfig("") + projectReaders),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("progress"), knownvalue.Null()),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("page_count"), knownvalue.Null()),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("updated_at"), knownvalue.StringRegexp(providertest.Rfc3339)),
				statecheck.ExpectKnownValue("echo.link", tfjsonpath.New("data").AtMapKey("bundle_url"), knownvalue.StringRegexp(
					regexp.MustCompile(`/export\.zip\?.*X-Amz-Signature=`))),
				statecheck.CompareValuePairs("echo.link", tfjsonpath.New("data").AtMapKey("job_id"),
					providertest.BundleAddr, tfjsonpath.New("job_id"), compare.ValuesSame()),
			},
		}},
	})
}
