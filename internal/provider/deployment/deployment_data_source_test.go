package deployment

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

const deploymentDataAddr = "data.mintlify_deployment.this"

// deploymentDataConfig is the data source named "this" for a status id.
func deploymentDataConfig(id, extra string) string {
	return fmt.Sprintf(`
data "mintlify_deployment" "this" {
  id = %q
  %s
}
`, id, extra)
}

// TestAccDeploymentDataSource reads a deployment that something else
// triggered: as it is, then waiting for it; a failed one is read like any
// other status; an unknown id is an error naming it.
func TestAccDeploymentDataSource(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "data.mintlify_deployment")
	env := providertest.NewTestEnv(t, deploymentPlan(5*time.Minute, false, "Deployed"))
	id := triggerOutsideTerraform(t, env)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(deploymentDataConfig(id, "")),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(deploymentDataAddr, "status", "queued"),
					resource.TestCheckResourceAttr(deploymentDataAddr, "project_id", providertest.ProjectID),
					resource.TestCheckNoResourceAttr(deploymentDataAddr, "ended_at"),
				),
			},
			{
				Config: env.Config(deploymentDataConfig(id, "wait_for_completion = true")),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(deploymentDataAddr, "status", "success"),
					resource.TestCheckResourceAttr(deploymentDataAddr, "commit_sha", "c0ffee01"),
					resource.TestCheckResourceAttr(deploymentDataAddr, "summary", "Deployed"),
					expectDeployments(env, 1),
				),
			},
			{
				Config:      env.Config(deploymentDataConfig("6650f1c2a0b1c2d3ffffffff", "")),
				ExpectError: providertest.ExpectError("Deployment Not Found", `no deployment status "6650f1c2a0b1c2d3ffffffff"`),
			},
		},
	})
}

// TestAccDeploymentDataSource_idRefusedAtPlan: only what cannot be an id
// in a URL path is refused at plan, before any request, with the fix.
func TestAccDeploymentDataSource_idRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	refusals := []providertest.Refusal{
		{Config: deploymentDataConfig("project/update-status/"+firstStatusID, ""),
			Want: "Invalid Deployment Status ID|give the id alone (use \"" + firstStatusID + "\"|the `statusId` that triggering the deployment answered"},
		{Config: deploymentDataConfig(" ", ""), Want: "Invalid Deployment Status ID|it is empty"},
	}
	// One plan of every case, each its own data source: each error must point into
	// its own block.
	for i := range refusals {
		refusals[i].Config = strings.Replace(refusals[i].Config, `"this"`, fmt.Sprintf(`"this_%d"`, i), 1)
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(""), refusals)
}

// triggerOutsideTerraform triggers a deployment of providertest.ProjectID as a
// CI job would, and returns its status id.
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
