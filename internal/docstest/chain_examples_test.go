package docstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The chain guide's example (guides/commit-to-cluster) without its
// helm_release, which internal/provider's ecosystem chain test installs
// into a real API server: what the fake API was asked, and when.

// chainWithoutRelease is the example with its helm_release replaced by a
// terraform_data that takes the same link and version, so that the
// chain's last link still waits for the export.
func chainWithoutRelease(t *testing.T) string {
	t.Helper()
	example := readExample(t, filepath.Join("guides", "commit-to-cluster"), "main.tf")
	file, diags := hclwrite.ParseConfig([]byte(example), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	removed := false
	for _, block := range file.Body().Blocks() {
		if block.Type() == "resource" && block.Labels()[0] == "helm_release" {
			removed = file.Body().RemoveBlock(block)
		}
	}
	if !removed {
		t.Fatal("the chain example has no helm_release")
	}
	return string(file.Bytes()) + `
resource "terraform_data" "release" {
  input = {
    version    = mintlify_static_export_bundle.docs.version
    bundle_url = mintlify_static_export_bundle.docs.bundle_url
  }
}
`
}

// chainVars are the example's variables for a docs commit.
func chainVars(commit string) config.Variables {
	return config.Variables{
		"docs_commit":      config.StringVariable(commit),
		"chart_repository": config.StringVariable("oci://registry.example.com/mintlify"),
	}
}

// deploymentSucceededAt is when the fake first answered that a deployment
// succeeded, and exportStartedAt when it received the first export start
// (and its version); zero when it never did.
func deploymentSucceededAt(env *providertest.Env) time.Time {
	for _, r := range env.Fake.Requests() {
		var d struct{ Status string }
		if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v1/project/update-status/") &&
			json.Unmarshal(r.Response, &d) == nil && d.Status == "success" {
			return r.At
		}
	}
	return time.Time{}
}

func exportStartedAt(env *providertest.Env) (time.Time, string) {
	for _, r := range env.Fake.Requests() {
		var start fakeapi.StartRequest
		if r.Method == http.MethodPost && r.Path == "/v1/static-export/jobs" && json.Unmarshal(r.Body, &start) == nil {
			return r.At, start.Version
		}
	}
	return time.Time{}, ""
}

// TestAccExampleChainFromCommitToCluster: the export starts only after the
// deployment succeeded, tagged with the deployed commit; an apply with the
// same commit changes nothing; a new commit deploys and exports once more.
func TestAccExampleChainFromCommitToCluster(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	cfg := env.Config(chainWithoutRelease(t))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:          cfg,
				ConfigVariables: chainVars("4f1c2e9"),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckOutput("deployed_commit", "3b1f0c9"),
					resource.TestCheckResourceAttr(bundleAddr, "version", "3b1f0c9"),
					providertest.CheckBundleLinkWorks(bundleAddr),
					func(*terraform.State) error {
						succeeded := deploymentSucceededAt(env)
						started, version := exportStartedAt(env)
						switch {
						case succeeded.IsZero() || started.IsZero():
							return fmt.Errorf("deployment succeeded at %v, export started at %v: want both", succeeded, started)
						case started.Before(succeeded):
							return fmt.Errorf("the export started at %v, before the deployment succeeded at %v", started, succeeded)
						case version != "3b1f0c9":
							return fmt.Errorf("the export was tagged %q, want the deployed commit 3b1f0c9", version)
						}
						return nil
					},
					expectDeployments(env, 1),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
				),
			},
			{
				Config:           cfg,
				ConfigVariables:  chainVars("4f1c2e9"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:          cfg,
				ConfigVariables: chainVars("9d0e7a1"),
				Check: resource.ComposeTestCheckFunc(
					expectDeployments(env, 2),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 2) },
				),
			},
		},
	})
}

// TestAccExampleChainStopsAtAFailedDeployment: when no deployment has
// succeeded yet, a failed one fails the apply, and nothing is exported.
func TestAccExampleChainStopsAtAFailedDeployment(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: 20 * time.Second, RunFor: time.Minute, Fail: true,
			Summary: "Build failed", Logs: []string{"Error: mint.json: unknown key \"navigaton\""}}
	}}))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:          env.Config(chainWithoutRelease(t)),
			ConfigVariables: chainVars("4f1c2e9"),
			ExpectError:     providertest.ExpectError("No deployment of the docs has succeeded yet"),
		}},
	})
	if started, _ := exportStartedAt(env); !started.IsZero() {
		t.Errorf("an export started at %v after the deployment failed", started)
	}
	if err := env.ExpectExportJobsAndLinks(0, 0); err != nil {
		t.Error(err)
	}
}
