package agentjob

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccAgentJob_identity: an agent job's identity is its project and id;
// import blocks by identity adopt a job, with or without the project.
func TestAccAgentJob_identity(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_agent_job")
	env := providertest.NewTestEnv(t, providertest.AgentPlan(3*time.Minute, "", false))
	providertest.SeedImportableAgentJobs(env)
	cfg := env.Config(providertest.AgentJobResourceConfig("Document release 2.3", ""))
	importByIdentity := func(identity string) string {
		return env.Config(fmt.Sprintf("import {\n  to       = %s\n  identity = %s\n}\n", providertest.AgentJobAddr, identity) +
			providertest.AgentJobResourceConfig("Document release 2.3", ""))
	}
	adopted := func(id string) resource.TestCheckFunc {
		return resource.ComposeTestCheckFunc(
			resource.TestCheckResourceAttr(providertest.AgentJobAddr, "id", id),
			resource.TestCheckResourceAttr(providertest.AgentJobAddr, "project_id", providertest.ProjectID),
			resource.TestCheckResourceAttr(providertest.AgentJobAddr, "status", "completed"),
			func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
		)
	}
	inPlace := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(providertest.AgentJobAddr, plancheck.ResourceActionUpdate),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.IdentityVersions,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(providertest.AgentJobAddr, map[string]knownvalue.Check{
						"project_id": knownvalue.StringExact(providertest.ProjectID),
						"job_id":     providertest.AgentJobID,
					}),
					statecheck.ExpectIdentityValueMatchesStateAtPath(providertest.AgentJobAddr, tfjsonpath.New("job_id"), tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:       providertest.AgentJobAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true, // the API does not return the prompt: the plan adopts it in place
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.AgentJobAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{Config: env.Config("")},
			{
				Config:           importByIdentity(fmt.Sprintf("{\n    project_id = %q\n    job_id     = \"aj_running\"\n  }", providertest.ProjectID)),
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

// TestAccAgentJob_importGeneratesConfigThatPlansClean: `terraform plan
// -generate-config-out` writes `prompt = null` for an imported job (the API
// does not return its prompt), and that configuration plans nothing but the
// import: no missing argument, no update, no new job.
func TestAccAgentJob_importGeneratesConfigThatPlansClean(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_agent_job")
	env := providertest.NewTestEnv(t, providertest.AgentPlan(3*time.Minute, "", false))
	providertest.SeedImportableAgentJobs(env)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.ActionVersions, // GenerateConfig steps need Terraform 1.14
		Steps: []resource.TestStep{
			{Config: env.Config(providertest.AgentJobResourceConfig("Document release 2.3", ""))},
			{
				ResourceName:    providertest.AgentJobAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   providertest.ProjectID + "/aj_done",
				GenerateConfig:  true,
			},
		},
	})
	if err := env.ExpectAgentJobsWithoutFollowUps(1); err != nil {
		t.Error(err)
	}
}
