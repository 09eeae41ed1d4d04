package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
)

// TestAccStaticExportBundle_identity: a bundle's identity is its job; an
// import block with that identity adopts an export exactly as importing by
// id does: an in-place update that generates a link, no new export.
func TestAccStaticExportBundle_identity(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	cfg := env.Config(bundleConfig("docs.example.com", ""))
	adoptedJob := env.StartExportOutsideTerraform(t) // outside Terraform, by a CI script
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   identityVersions,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(bundleAddr, map[string]knownvalue.Check{"job_id": knownJobID()}),
					statecheck.ExpectIdentityValueMatchesState(bundleAddr, tfjsonpathRoot("job_id")),
				},
			},
			{
				// The framework's own round trip: import by the identity in state.
				ResourceName:       bundleAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{Config: env.Config("")},
			{
				// A job started elsewhere, adopted by identity and applied.
				Config: env.Config(fmt.Sprintf("import {\n  to       = %s\n  identity = { job_id = %q }\n}\n", bundleAddr, adoptedJob) +
					bundleConfig("docs.example.com", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(bundleAddr, "job_id", adoptedJob),
					acctest.CheckBundleLinkWorks(bundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 2) },
				),
			},
		},
	})
}
