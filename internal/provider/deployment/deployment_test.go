package deployment

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

const deploymentAddr = "mintlify_deployment.docs"

// deploymentPlan makes every deployment of the fake run for runFor, then
// end as fail says, with logs and a known commit.
func deploymentPlan(runFor time.Duration, fail bool, logs ...string) fakeapi.Option {
	return fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(req fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: 30 * time.Second, RunFor: runFor, Fail: fail, Logs: logs,
			CommitSHA: fmt.Sprintf("c0ffee%02d", req.N), CommitRef: "main", CommitMessage: "Document release 2.3"}
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

// isDeployment checks that the resource holds the nth deployment the fake
// made (from 1).
func isDeployment(n int) resource.TestCheckFunc {
	return resource.TestCheckResourceAttr(deploymentAddr, "id", fmt.Sprintf("6650f1c2a0b1c2d3%08x", n))
}

func TestAccDeployment_success(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env := providertest.NewTestEnv(t, deploymentPlan(3*time.Minute, false, "Building 12 pages", "Deployed"))
	cfg := env.Config(providertest.DeploymentResourceConfig(`triggers = { docs_commit = "c0ffee01" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploymentAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
					plancheck.ExpectUnknownValue(deploymentAddr, tfjsonpath.New("commit_sha")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("status"), knownvalue.StringExact("success")),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("summary"), knownvalue.StringExact("Deployed")),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("commit_sha"), knownvalue.StringExact("c0ffee01")),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("commit_ref"), knownvalue.StringExact("main")),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("commit_message"), knownvalue.StringExact("Document release 2.3")),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^2026-`))),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("ended_at"), knownvalue.StringRegexp(regexp.MustCompile(`^2026-`))),
					statecheck.ExpectKnownValue(deploymentAddr, tfjsonpath.New("source"), knownvalue.StringExact("api")),
				},
				Check: resource.ComposeTestCheckFunc(isDeployment(1), expectDeployments(env, 1)),
			},
		},
	})
	// The plans right after apply (the framework's own, a refresh plan
	// among them, both required empty) and the destroy triggered nothing.
	if err := expectDeployments(env, 1)(nil); err != nil {
		t.Error(err)
	}
}

// TestAccDeployment_failure: a failed deployment is an error with its
// summary and last log lines; the tainted resource keeps it, and the next
// apply replaces it with a new deployment, the retry.
func TestAccDeployment_failure(t *testing.T) {
	t.Parallel()
	var logs []string
	for i := 1; i <= 14; i++ {
		logs = append(logs, fmt.Sprintf("step %02d of the build", i))
	}
	logs = append(logs, "Error: broken link /quickstart in index.mdx")
	env := providertest.NewTestEnv(t, deploymentPlan(2*time.Minute, true, logs...))
	cfg := env.Config(providertest.DeploymentResourceConfig(""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: providertest.ExpectError("Deployment Failed", "deployment 6650f1c2a0b1c2d300000001 of project "+
					providertest.ProjectID+" failed: The build failed", "commit c0ffee01",
					"last 10 log lines (5 earlier lines left out", "step 06 of the build",
					"Error: broken link /quickstart in index.mdx", "the next apply replaces it",
					"run `terraform untaint` with the resource's address, shown above after `with`"),
			},
			{
				// The tainted resource still names its deployment.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(isDeployment(1),
					resource.TestCheckResourceAttr(deploymentAddr, "status", "failure"), expectDeployments(env, 1)),
			},
			{
				// The retry fails the same way, with a second deployment.
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploymentAddr, plancheck.ResourceActionReplace),
				}},
				ExpectError: providertest.ExpectError("Deployment Failed", "deployment 6650f1c2a0b1c2d300000002"),
			},
		},
	})
	if got := len(env.Fake.DeploymentRequests()); got != 2 {
		t.Errorf("deployments triggered = %d, want 2 (the first, and the retry)", got)
	}
}

// TestAccDeployment_resumeAfterTimeout: a create that times out leaves a
// tainted resource with its deployment; the next plain apply shows a
// replacement, which waits for the same deployment: no second one is ever
// triggered.
func TestAccDeployment_resumeAfterTimeout(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env := providertest.NewTestEnv(t, deploymentPlan(15*time.Minute, false, "Deployed"))
	cfg := env.Config(providertest.DeploymentResourceConfig(`triggers = { docs_commit = "c0ffee01" }` + "\n" + `timeouts = { create = "10m" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: providertest.ExpectError("Deployment Still Running",
					"deployment 6650f1c2a0b1c2d300000001 of project "+providertest.ProjectID+" did not finish within `timeouts.create` (10m0s); it was `in_progress`",
					"Run `terraform apply` again", "waits for this same deployment instead of triggering another",
					"raise `timeouts.create`"),
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploymentAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(isDeployment(1), expectDeployments(env, 1),
					resource.TestCheckResourceAttr(deploymentAddr, "status", "success"),
					resource.TestCheckResourceAttr(deploymentAddr, "commit_sha", "c0ffee01")),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            expectDeployments(env, 1),
			},
		},
	})
}

// TestAccDeployment_triggers: a change of triggers or of a configured
// project triggers exactly one new deployment; wait_for_completion,
// timeouts and the provider's project trigger nothing.
func TestAccDeployment_triggers(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, deploymentPlan(time.Minute, false))
	step := func(extra string, action plancheck.ResourceActionType, n int) resource.TestStep {
		return resource.TestStep{
			Config: env.Config(providertest.DeploymentResourceConfig(extra)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(deploymentAddr, action)},
			},
			Check: resource.ComposeTestCheckFunc(isDeployment(n), expectDeployments(env, n)),
		}
	}
	steps := []resource.TestStep{
		step(`triggers = { docs_commit = "a" }`, plancheck.ResourceActionCreate, 1),
		step(`triggers = { docs_commit = "b" }`, plancheck.ResourceActionReplace, 2),
		step(`triggers = { docs_commit = "b" }`+"\n"+`wait_for_completion = false`+"\n"+`timeouts = { create = "1h" }`,
			plancheck.ResourceActionUpdate, 2),
		step(`triggers = { docs_commit = "b" }`+"\n"+`project_id = "proj_other"`, plancheck.ResourceActionReplace, 3),
		step(`triggers = { docs_commit = "b" }`, plancheck.ResourceActionNoop, 3),
	}
	// Without project_id, the deployment stays with its project whatever the
	// provider's becomes.
	steps[4].Config = providertest.ConfigWithProvider(env, `project_id = "proj_moved"`, providertest.DeploymentResourceConfig(`triggers = { docs_commit = "b" }`))
	steps[4].Check = resource.ComposeTestCheckFunc(steps[4].Check, resource.TestCheckResourceAttr(deploymentAddr, "project_id", "proj_other"))
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.ProviderFactories(), Steps: steps})
	if got := env.Fake.DeploymentRequests(); len(got) != 3 || got[2].ProjectID != "proj_other" {
		t.Errorf("deployments = %+v, want the third in proj_other", got)
	}
}

// reportedDuration is how long the deployments of the report took (23.7
// s): Mintlify's own 10-second loop notices their end with 3 status
// requests, 6.3 s late.
const reportedDuration = 23700 * time.Millisecond

// expectNoticed checks how soon the wait for the deployment in addr's state
// noticed its end, as the fake saw it: the end is `created_at` plus took;
// the first status request at or after it must come within late, and be at
// most the requests-th request of the deployment.
func expectNoticed(env *providertest.Env, addr string, took, late time.Duration, requests int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[addr].Primary.Attributes
		created, err := time.Parse(time.RFC3339Nano, attrs["created_at"])
		if err != nil {
			return err
		}
		end, n := created.Add(took), 0
		for _, r := range env.Fake.Requests() {
			if r.Method != http.MethodGet || r.Path != "/v1/project/update-status/"+attrs["id"] {
				continue
			}
			n++
			if r.At.Before(end) {
				continue
			}
			if r.At.Sub(end) > late || n > requests {
				return fmt.Errorf("deployment %s was noticed %v after its end, with %d status requests; want at "+
					"most %v and %d", attrs["id"], r.At.Sub(end), n, late, requests)
			}
			return nil
		}
		return fmt.Errorf("no status request saw deployment %s end", attrs["id"])
	}
}

// TestAccDeployment_replacementKnowsHowLongTheLastTook: the first
// deployment is waited for as Mintlify's 10-second loop does; its
// replacement (a change of triggers) knows how long it took, and notices
// its own end within a second, with fewer status requests than the loop.
func TestAccDeployment_replacementKnowsHowLongTheLastTook(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: 3700 * time.Millisecond, RunFor: 20 * time.Second}
	}}))
	at := func(commit string) string {
		return env.Config(providertest.DeploymentResourceConfig(fmt.Sprintf(`triggers = { docs_commit = %q }`, commit)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: at("a"), Check: resource.ComposeTestCheckFunc(isDeployment(1),
				expectNoticed(env, deploymentAddr, reportedDuration, 10*time.Second, 3))},
			{
				Config: at("b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploymentAddr, plancheck.ResourceActionReplace),
				}},
				Check: resource.ComposeTestCheckFunc(isDeployment(2),
					expectNoticed(env, deploymentAddr, reportedDuration, time.Second, 2)),
			},
		},
	})
}

// TestAccDeployment_createBeforeDestroyTriggersAgain: with
// create_before_destroy, the replacement of a deployment that timed out is
// created before the old one is gone, so it triggers a new deployment, as
// the docs say.
func TestAccDeployment_createBeforeDestroyTriggersAgain(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(req fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		if req.N == 1 {
			return fakeapi.DeploymentPlan{RunFor: 15 * time.Minute} // outlasts timeouts.create
		}
		return fakeapi.DeploymentPlan{RunFor: time.Minute}
	}}))
	cfg := env.Config(providertest.DeploymentResourceConfig(`timeouts = { create = "10m" }` + "\n" +
		`lifecycle {` + "\n" + `  create_before_destroy = true` + "\n" + `}`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg, ExpectError: providertest.ExpectError("Deployment Still Running")},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploymentAddr, plancheck.ResourceActionCreateBeforeDestroy),
				}},
				Check: resource.ComposeTestCheckFunc(isDeployment(2), expectDeployments(env, 2),
					resource.TestCheckResourceAttr(deploymentAddr, "status", "success")),
			},
		},
	})
}

// TestAccDeployment_resumeGoneTriggersAgain: when the API no longer has
// the deployment a timed-out create left, the replacement triggers a new
// one instead of waiting for a status that never comes.
func TestAccDeployment_resumeGoneTriggersAgain(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(req fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		if req.N == 1 {
			return fakeapi.DeploymentPlan{RunFor: 15 * time.Minute} // outlasts timeouts.create
		}
		return fakeapi.DeploymentPlan{RunFor: time.Minute}
	}}))
	cfg := env.Config(providertest.DeploymentResourceConfig(`timeouts = { create = "10m" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg, ExpectError: providertest.ExpectError("Deployment Still Running")},
			{
				PreConfig: func() { env.Fake.ForgetDeployment("6650f1c2a0b1c2d300000001") },
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(isDeployment(2), expectDeployments(env, 2),
					resource.TestCheckResourceAttr(deploymentAddr, "status", "success")),
			},
		},
	})
}

// TestDeployment_destroyWarnsTheSiteStays runs the real `terraform
// destroy`: the API cannot undeploy, so the destroy warns, once, that the
// site stays as deployed, naming the deployment and what to do; a change of
// triggers, which replaces the resource, says nothing of the kind.
func TestDeployment_destroyWarnsTheSiteStays(t *testing.T) {
	env := providertest.NewTestEnv(t, deploymentPlan(time.Minute, false, "Deployed"))
	cli := env.CLI(t)
	at := func(commit string) string {
		return env.Config(providertest.DeploymentResourceConfig(fmt.Sprintf(`triggers = { docs_commit = %q }`, commit)))
	}
	cli.WriteConfig(at("a1"))
	cli.MustRun("init", "-no-color", "-input=false")
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	cli.WriteConfig(at("b2"))
	if res := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false"); strings.Contains(res.Output, "Warning") {
		t.Errorf("a new deployment (triggers changed) warned:\n%s", res.Output)
	}
	id := cli.Instance(deploymentAddr).Attr("id")
	res := cli.MustRun("destroy", "-auto-approve", "-no-color", "-input=false")
	if n := strings.Count(res.Output, "Warning: Deployed Site Stays As It Is"); n != 1 {
		t.Errorf("the destroy warned %d times, want once:\n%s", n, res.Output)
	}
	words := strings.Join(strings.Fields(res.Output), " ")
	for _, want := range []string{"deployment " + id + " of project " + providertest.ProjectID,
		"cannot delete a deployment or undeploy a site", "stays online as deployed",
		"push to the deployment branch and deploy again", "Destroy complete!"} {
		if !strings.Contains(words, want) {
			t.Errorf("the destroy does not say %q:\n%s", want, res.Output)
		}
	}
}
