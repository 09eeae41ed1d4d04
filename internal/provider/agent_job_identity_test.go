package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
)

// TestAccAgentJob_identity: an agent job's identity is its project and id;
// import blocks by identity adopt a job, with or without the project.
func TestAccAgentJob_identity(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, acctest.AgentPlan(3*time.Minute, "", false))
	seedImportableAgentJobs(env)
	cfg := env.Config(agentJobResourceConfig("Document release 2.3", ""))
	importByIdentity := func(identity string) string {
		return env.Config(fmt.Sprintf("import {\n  to       = %s\n  identity = %s\n}\n", agentJobAddr, identity) +
			agentJobResourceConfig("Document release 2.3", ""))
	}
	adopted := func(id string) resource.TestCheckFunc {
		return resource.ComposeTestCheckFunc(
			resource.TestCheckResourceAttr(agentJobAddr, "id", id),
			resource.TestCheckResourceAttr(agentJobAddr, "project_id", acctest.ProjectID),
			resource.TestCheckResourceAttr(agentJobAddr, "status", "completed"),
			func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
		)
	}
	inPlace := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(agentJobAddr, plancheck.ResourceActionUpdate),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   identityVersions,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(agentJobAddr, map[string]knownvalue.Check{
						"project_id": knownvalue.StringExact(acctest.ProjectID),
						"job_id":     agentJobID,
					}),
					statecheck.ExpectIdentityValueMatchesStateAtPath(agentJobAddr, tfjsonpathRoot("job_id"), tfjsonpathRoot("id")),
				},
			},
			{
				ResourceName:       agentJobAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true, // the API does not return the prompt: the plan adopts it in place
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentJobAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{Config: env.Config("")},
			{
				Config:           importByIdentity(fmt.Sprintf("{\n    project_id = %q\n    job_id     = \"aj_running\"\n  }", acctest.ProjectID)),
				ConfigPlanChecks: inPlace,
				Check:            adopted("aj_running"),
			},
			{Config: env.Config("")},
			{
				// Without project_id, the provider's project.
				Config:           importByIdentity(`{ job_id = "aj_done" }`),
				ConfigPlanChecks: inPlace,
				Check:            adopted("aj_done"),
			},
		},
	})
}
