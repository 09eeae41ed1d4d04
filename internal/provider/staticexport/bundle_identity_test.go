package staticexport

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportBundle_identity: a bundle's identity is its job; an
// import block with that identity adopts an export exactly as importing by
// id does: an in-place update that generates a link, no new export.
func TestAccStaticExportBundle_identity(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	cfg := env.Config(providertest.BundleConfig("docs.example.com", ""))
	adoptedJob := env.StartExportOutsideTerraform(t) // outside Terraform, by a CI script
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.IdentityVersions,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(providertest.BundleAddr, map[string]knownvalue.Check{"job_id": providertest.KnownJobID(), "project_id": knownvalue.Null()}),
					statecheck.ExpectIdentityValueMatchesState(providertest.BundleAddr, tfjsonpath.New("job_id")),
				},
			},
			{
				// The framework's own round trip: import by the identity in state.
				ResourceName:       providertest.BundleAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{Config: env.Config("")},
			{
				// A job started elsewhere, adopted by identity and applied.
				Config: env.Config(fmt.Sprintf("import {\n  to       = %s\n  identity = { job_id = %q }\n}\n", providertest.BundleAddr, adoptedJob) +
					providertest.BundleConfig("docs.example.com", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", adoptedJob),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 2) },
				),
			},
		},
	})
}
