package deployment

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccDeployment_import adopts deployments by status id: one the
// resource made (import verifies the state), and one something else
// triggered, still running, which the first apply waits for without
// triggering another.
func TestAccDeployment_import(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env := providertest.NewTestEnv(t, deploymentPlan(4*time.Minute, false, "Deployed"))
	outside := triggerOutsideTerraform(t, env)
	cfg := env.Config(providertest.DeploymentResourceConfig(`triggers = { docs_commit = "c0ffee" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg, Check: expectDeployments(env, 2)},
			{
				ResourceName:            deploymentAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"triggers", "wait_for_completion", "timeouts"},
			},
			{Config: env.Config("")},
			{
				Config: env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", deploymentAddr, outside) +
					providertest.DeploymentResourceConfig(`triggers = { docs_commit = "c0ffee" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploymentAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(expectDeployments(env, 2),
					resource.TestCheckResourceAttr(deploymentAddr, "id", outside),
					resource.TestCheckResourceAttr(deploymentAddr, "project_id", providertest.ProjectID),
					resource.TestCheckResourceAttr(deploymentAddr, "status", "success")),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:      env.Config(`import {` + "\n" + `  to = mintlify_deployment.other` + "\n" + `  id = "proj_test/6650f1c2a0b1c2d300000001"` + "\n}\n" + `resource "mintlify_deployment" "other" {}`),
				ExpectError: providertest.ExpectError("Invalid Import ID", "Import by the deployment's status ID"),
			},
		},
	})
}

// TestAccDeployment_identity: a deployment's identity is its status id;
// an import block by identity adopts it.
func TestAccDeployment_identity(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env := providertest.NewTestEnv(t, deploymentPlan(time.Minute, false))
	outside := triggerOutsideTerraform(t, env)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.IdentityVersions,
		Steps: []resource.TestStep{
			{
				Config: env.Config(providertest.DeploymentResourceConfig("")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(deploymentAddr, map[string]knownvalue.Check{
						"status_id": knownvalue.StringExact("6650f1c2a0b1c2d300000002"),
					}),
					statecheck.ExpectIdentityValueMatchesStateAtPath(deploymentAddr, tfjsonpath.New("status_id"), tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:       deploymentAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true, // wait_for_completion is adopted from configuration, in place
			},
			{Config: env.Config("")},
			{
				Config: env.Config(fmt.Sprintf("import {\n  to       = %s\n  identity = { status_id = %q }\n}\n", deploymentAddr, outside) +
					providertest.DeploymentResourceConfig("")),
				Check: resource.ComposeTestCheckFunc(expectDeployments(env, 2),
					resource.TestCheckResourceAttr(deploymentAddr, "id", outside),
					resource.TestCheckResourceAttr(deploymentAddr, "status", "success")),
			},
		},
	})
}

// TestDeployment_quietRefreshAndGone: refreshing an unchanged deployment
// changes nothing (plan -refresh-only -detailed-exitcode exits 0); a
// status the API no longer returns stays in state, with a warning, and
// triggers nothing.
func TestDeployment_quietRefreshAndGone(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env := providertest.NewTestEnv(t, deploymentPlan(time.Minute, false, "Deployed"))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.DeploymentResourceConfig(`triggers = { docs_commit = "c0ffee01" }`)))
	cli.MustRun("init", "-no-color", "-input=false")
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	id := cli.Instance(deploymentAddr).Attr("id")

	if res := cli.Run("plan", "-refresh-only", "-detailed-exitcode", "-no-color", "-input=false"); res.Exit != 0 {
		t.Errorf("a refresh of an unchanged deployment changed something:\n%s", res)
	}
	env.Fake.ForgetDeployment(id)
	res := cli.Run("plan", "-refresh-only", "-detailed-exitcode", "-no-color", "-input=false")
	out := strings.Join(strings.Fields(res.Output), " ")
	for _, want := range []string{"Deployment No Longer Found", "404 for the deployment " + id + " of project proj_test",
		"no new deployment is triggered"} {
		if res.Exit != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d (want 0), and the output does not say %q:\n%s", res.Exit, want, res.Output)
		}
	}
	if res := cli.Run("plan", "-detailed-exitcode", "-no-color", "-input=false"); res.Exit != 0 {
		t.Errorf("a deployment gone from the API changed the plan:\n%s", res)
	}
	if inst := cli.Instance(deploymentAddr); inst.Attr("id") != id || inst.Attr("status") != "success" {
		t.Errorf("state: id %q status %q, want %s kept as success", inst.Attr("id"), inst.Attr("status"), id)
	}
	if n := len(env.Fake.DeploymentRequests()); n != 1 {
		t.Errorf("deployments triggered = %d, want 1", n)
	}
}

// generateConfigVersions gates the tests of `plan -generate-config-out`,
// which the testing framework's GenerateConfig step drives from Terraform
// 1.14 on.
var generateConfigVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// TestAccImportGeneratesConfigThatPlansClean: `terraform plan
// -generate-config-out` writes, for every importable resource of the
// family, a configuration whose plan is nothing but the import: no missing
// required argument (a preview's `branch` comes from the deployment's
// commit ref), no update.
func TestAccImportGeneratesConfigThatPlansClean(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env := providertest.NewTestEnv(t, deploymentPlan(time.Minute, false, "Deployed"))
	cfg := env.Config(providertest.DeploymentResourceConfig(`triggers = { docs_commit = "c0ffee" }`) +
		previewConfig(previewBranch, `triggers = { commit = "a1" }`))
	generated := func(addr, id string) resource.TestStep {
		return resource.TestStep{
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportStateId:   id,
			GenerateConfig:  true,
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   generateConfigVersions,
		Steps: []resource.TestStep{
			{Config: cfg},
			generated(deploymentAddr, "6650f1c2a0b1c2d300000001"),
			generated(previewAddr, "6650f1c2a0b1c2d300000002"),
		},
	})
}
