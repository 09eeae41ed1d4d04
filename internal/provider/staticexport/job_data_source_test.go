package staticexport

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

func TestAccStaticExportJobDataSource_fromBundle(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "data.mintlify_static_export_job")
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.BundleConfig("docs.example.com", "") + `
data "mintlify_static_export_job" "this" {
  job_id = mintlify_static_export_bundle.docs.job_id
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs(providertest.JobAddr, tfjsonpath.New("job_id"), providertest.BundleAddr, tfjsonpath.New("job_id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("progress"), knownvalue.Float64Exact(100)),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(42)),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("created_at"), knownvalue.StringExact("2026-11-21T09:00:00Z")),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("updated_at"), knownvalue.StringExact("2026-11-21T09:00:22Z")),
				statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("error"), knownvalue.Null()),
			},
		}},
	})
}

func TestAccStaticExportJobDataSource_failedAndMissing(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Minute, FailWith: "render error", FailAtProgress: 60}
	}}))
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(2 * time.Minute)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(`
data "mintlify_static_export_job" "this" {
  job_id = "` + job + `"
}
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("status"), knownvalue.StringExact("failed")),
					statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("progress"), knownvalue.Float64Exact(60)),
					statecheck.ExpectKnownValue(providertest.JobAddr, tfjsonpath.New("error"), knownvalue.StringExact("render error")),
				},
			},
			{
				Config: env.Config(`
data "mintlify_static_export_job" "this" {
  job_id = "se_does_not_exist"
}
`),
				ExpectError: providertest.ExpectError("Static Export Job Not Found", `"se_does_not_exist"`),
			},
		},
	})
}
