package docstest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// exampleStatusID is the status id the examples name.
const exampleStatusID = "6650f1c2a0b1c2d3e4f50617"

// deploysCommit makes every deployment of the fake deploy commit 3b1f0c9
// after a few minutes.
func deploysCommit() fakeapi.Option {
	return fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: 20 * time.Second, RunFor: 3 * time.Minute, CommitSHA: "3b1f0c9",
			Logs: []string{"Built 48 pages"}}
	}})
}

// expectDeployments checks how many deployments the fake was asked for.
func expectDeployments(env *providertest.Env, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := len(env.Fake.DeploymentRequests()); got != n {
			return fmt.Errorf("deployments triggered = %d, want %d", got, n)
		}
		return nil
	}
}

// triggerOutsideTerraform triggers a deployment as a CI job would, and
// returns its status id.
func triggerOutsideTerraform(t *testing.T, env *providertest.Env) string {
	t.Helper()
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(env.URL), mintlify.WithClock(env.Clock))
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.TriggerDeployment(t.Context(), providertest.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestAccExampleDeploymentResource runs the registry example of the
// resource: one deployment per docs commit, the commit as an output.
func TestAccExampleDeploymentResource(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	example := readExample(t, filepath.Join("resources", "mintlify_deployment"), "resource.tf")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(withDefault(example, "3b1f0c9")),
				Check:  resource.ComposeTestCheckFunc(resource.TestCheckOutput("deployed_commit", "3b1f0c9"), expectDeployments(env, 1)),
			},
			{
				Config: env.Config(withDefault(example, "9d2e4a1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("mintlify_deployment.docs", plancheck.ResourceActionReplace),
				}},
				Check: expectDeployments(env, 2),
			},
		},
	})
}

// TestAccExampleDeploymentExpectedCommit runs the postcondition example:
// the apply succeeds when Mintlify deployed the expected commit, and fails
// naming both commits when the branch's head is another.
func TestAccExampleDeploymentExpectedCommit(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	example := readExample(t, filepath.Join("resources", "mintlify_deployment", "expected-commit"), "main.tf")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(withDefault(example, "3b1f0c9")), Check: expectDeployments(env, 1)},
			{
				Config:      env.Config(withDefault(example, "9d2e4a1")),
				ExpectError: regexp.MustCompile(`Mintlify deployed 3b1f0c9, not 9d2e4a1`),
			},
		},
	})
}

// TestAccExampleDeploymentImportAndDataSource runs the import block and
// the data source examples on deployments triggered outside Terraform: the
// import adopts one in place, the data source waits for another, and
// nothing is triggered.
func TestAccExampleDeploymentImportAndDataSource(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	imported, read := triggerOutsideTerraform(t, env), triggerOutsideTerraform(t, env)
	importBlock := strings.ReplaceAll(readExample(t, filepath.Join("resources", "mintlify_deployment", "import-by-id"), "main.tf"),
		exampleStatusID, imported)
	dataSource := withDefault(readExample(t, filepath.Join("data-sources", "mintlify_deployment"), "data-source.tf"), read)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(importBlock),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("mintlify_deployment.docs", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("mintlify_deployment.docs", "id", imported),
					resource.TestCheckResourceAttr("mintlify_deployment.docs", "status", "success"),
					expectDeployments(env, 2)),
			},
			{
				Config: env.Config(dataSource),
				Check:  resource.ComposeTestCheckFunc(resource.TestCheckOutput("deployed_commit", "3b1f0c9"), expectDeployments(env, 2)),
			},
		},
	})
}

// TestAccExampleDeploymentImportByIdentity runs the identity import
// example.
func TestAccExampleDeploymentImportByIdentity(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	id := triggerOutsideTerraform(t, env)
	example := strings.ReplaceAll(readExample(t, filepath.Join("resources", "mintlify_deployment", "import-by-identity"), "main.tf"),
		exampleStatusID, id)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   identityVersions,
		Steps: []resource.TestStep{{
			Config: env.Config(example),
			Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr("mintlify_deployment.docs", "id", id),
				expectDeployments(env, 1)),
		}},
	})
}

// TestDeploymentActionExample invokes the action of the registry example
// as written.
func TestDeploymentActionExample(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := newTestEnv(t, deploysCommit())
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(readExample(t, filepath.Join("actions", "mintlify_deployment"), "action.tf")))
	cli.MustRun("init", "-no-color", "-input=false")
	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_deployment.docs").Output
	lines := providertest.ProgressLines(out, "action.mintlify_deployment.docs", "CLI")
	if len(lines) == 0 || !strings.HasSuffix(lines[len(lines)-1], "success: commit 3b1f0c9 (Deployed).") {
		t.Errorf("the action's progress does not end with the commit deployed:\n%s", out)
	}
	if n := len(env.Fake.DeploymentRequests()); n != 1 {
		t.Errorf("deployments triggered = %d, want 1", n)
	}
}
