package deployment

import (
	"fmt"
	"net/http"
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
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

const previewAddr = "mintlify_preview_deployment.docs"

// previewBranch is the branch the tests preview.
const previewBranch = "feature/new-api"

// firstStatusID is the status id of the first deployment of a fresh fake.
const firstStatusID = "6650f1c2a0b1c2d300000001"

// previewConfig is a preview resource named "docs" of branch, with extra
// arguments.
func previewConfig(branch, extra string) string {
	return fmt.Sprintf(`
resource "mintlify_preview_deployment" "docs" {
  branch = %q
  %s
}
`, branch, extra)
}

// expectPreviewDeployments checks that the fake deployed exactly n previews,
// all of previewBranch, and nothing else.
func expectPreviewDeployments(env *providertest.Env, n int) resource.TestCheckFunc {
	const branch = previewBranch
	return func(*terraform.State) error {
		reqs := env.Fake.DeploymentRequests()
		if len(reqs) != n {
			return fmt.Errorf("the fake got %d deployments, want %d: %+v", len(reqs), n, reqs)
		}
		for _, r := range reqs {
			if r.Branch != branch || r.ProjectID != providertest.ProjectID {
				return fmt.Errorf("deployment %+v, want a preview of %q in %s", r, branch, providertest.ProjectID)
			}
		}
		return nil
	}
}

// TestAccPreviewDeployment_createAndRedeploy: a preview waits for its
// deployment and gives its address; a change of triggers deploys the same
// preview again in place, at the same address; nothing else deploys.
func TestAccPreviewDeployment_createAndRedeploy(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_preview_deployment")
	env := providertest.NewTestEnv(t)
	url := fakeapi.PreviewURL(providertest.ProjectID, previewBranch)
	at := func(commit string) string {
		return env.Config(previewConfig(previewBranch, fmt.Sprintf(`triggers = { commit = %q }`, commit)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: at("a1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(previewAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("id"), knownvalue.StringExact(firstStatusID)),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("preview_url"), knownvalue.StringExact(url)),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("status"), knownvalue.StringExact("success")),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("summary"), knownvalue.StringExact("Deployed")),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("commit_ref"), knownvalue.StringExact(previewBranch)),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("commit_message"), knownvalue.StringExact("Update docs")),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("source"), knownvalue.StringExact("api")),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("ended_at"), knownvalue.NotNull()),
				},
				// The plans right after apply (the framework's own, a refresh
				// plan among them) are empty, and deploy nothing: the next
				// step counts two deployments.
				Check: expectPreviewDeployments(env, 1),
			},
			{
				Config: at("b2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(previewAddr, tfjsonpath.New("id")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("preview_url"), knownvalue.StringExact(url)),
					statecheck.ExpectKnownValue(previewAddr, tfjsonpath.New("status"), knownvalue.StringExact("success")),
				},
				Check: resource.ComposeTestCheckFunc(
					expectPreviewDeployments(env, 2),
					func(s *terraform.State) error {
						if id := s.RootModule().Resources[previewAddr].Primary.ID; id == firstStatusID {
							return fmt.Errorf("id is still the first deployment's, %s", id)
						}
						return nil
					},
				),
			},
			{
				// A new branch is a new preview.
				Config: env.Config(previewConfig("fix/typo", `triggers = { commit = "b2" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionReplace),
				}},
				Check: resource.TestCheckResourceAttr(previewAddr, "preview_url", fakeapi.PreviewURL(providertest.ProjectID, "fix/typo")),
			},
		},
	})
}

// TestAccPreviewDeployment_redeployKnowsHowLongTheLastTook: a change of
// triggers deploys the preview again, and that wait knows from the state
// how long the last deployment took (41 s): it notices the end within a
// second with 3 status requests, where the first deployment is waited for
// as Mintlify's 10-second loop does (5 requests).
func TestAccPreviewDeployment_redeployKnowsHowLongTheLastTook(t *testing.T) {
	t.Parallel()
	took := 41 * time.Second
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: 5 * time.Second, RunFor: took - 5*time.Second}
	}}))
	at := func(commit string) string {
		return env.Config(previewConfig(previewBranch, fmt.Sprintf(`triggers = { commit = %q }`, commit)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: at("a1"), Check: expectNoticed(env, previewAddr, took, 10*time.Second, 5)},
			{
				Config: at("b2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(expectPreviewDeployments(env, 2),
					expectNoticed(env, previewAddr, took, time.Second, 3)),
			},
		},
	})
}

// TestAccPreviewDeployment_failure: a failed deployment is an error with
// its summary and last log lines; the tainted resource keeps its id.
func TestAccPreviewDeployment_failure(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: time.Second, RunFor: 30 * time.Second, Fail: true,
			Summary: "Broken link in api/overview.mdx",
			Logs:    []string{"Installing dependencies", "Building pages", "Error: broken link /api/missing in api/overview.mdx"}}
	}}))
	cfg := env.Config(previewConfig(previewBranch, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: providertest.ExpectError("Deployment Failed", firstStatusID, "Broken link in api/overview.mdx",
					"Error: broken link /api/missing in api/overview.mdx", "tainted and keeps the status id"),
			},
			{
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(previewAddr, "id", firstStatusID),
					resource.TestCheckResourceAttr(previewAddr, "status", "failure"),
					resource.TestCheckResourceAttr(previewAddr, "preview_url", fakeapi.PreviewURL(providertest.ProjectID, previewBranch)),
				),
			},
		},
	})
}

// TestAccPreviewDeployment_notOnPlan: a 403 names previews not on the
// plan, with the fix, and nothing is saved.
func TestAccPreviewDeployment_notOnPlan(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{PreviewsDisabled: true}))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(previewConfig(previewBranch, "")),
			ExpectError: providertest.ExpectError("Previews Not On The Mintlify Plan", "HTTP 403",
				"Upgrade the plan on the Mintlify dashboard", "No preview was deployed"),
		}},
	})
}

// TestAccPreviewDeployment_noWait: without wait_for_completion the apply
// records the deployment as triggered; a refresh fills in the rest, and
// the plans stay empty.
func TestAccPreviewDeployment_noWait(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	cfg := env.Config(previewConfig(previewBranch, "wait_for_completion = false"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  resource.TestCheckResourceAttr(previewAddr, "status", "queued"),
			},
			{
				PreConfig:        func() { env.Clock.Advance(5 * time.Minute) },
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(previewAddr, "status", "success"),
					expectPreviewDeployments(env, 1),
				),
			},
		},
	})
}

// TestAccPreviewDeployment_import: a preview is imported by its status id;
// the first plan takes branch and triggers from configuration without
// deploying.
func TestAccPreviewDeployment_import(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_preview_deployment")
	env := providertest.NewTestEnv(t)
	cfg := env.Config(previewConfig(previewBranch, `triggers = { commit = "a1" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				ResourceName:            previewAddr,
				ImportState:             true,
				ImportStateId:           firstStatusID,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"branch", "triggers", "%", "triggers.%", "triggers.commit", "preview_url", "wait_for_completion"},
			},
			{Config: env.Config("")}, // forgets the preview
			{
				Config: env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", previewAddr, firstStatusID)) +
					previewConfig(previewBranch, `triggers = { commit = "a1" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(previewAddr, "id", firstStatusID),
					resource.TestCheckResourceAttr(previewAddr, "project_id", providertest.ProjectID),
					resource.TestCheckResourceAttr(previewAddr, "branch", previewBranch),
					resource.TestCheckResourceAttr(previewAddr, "status", "success"),
					expectPreviewDeployments(env, 1),
				),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccPreviewDeployment_identity: the identity is the latest
// deployment's status id in its project, and follows a redeploy; an import
// block by identity adopts the preview.
func TestAccPreviewDeployment_identity(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_preview_deployment")
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.IdentityVersions,
		Steps: []resource.TestStep{
			{
				Config: env.Config(previewConfig(previewBranch, `triggers = { commit = "a1" }`)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(previewAddr, map[string]knownvalue.Check{
						"project_id": knownvalue.StringExact(providertest.ProjectID),
						"status_id":  knownvalue.StringExact(firstStatusID),
					}),
				},
			},
			{
				Config: env.Config(previewConfig(previewBranch, `triggers = { commit = "b2" }`)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentityValueMatchesStateAtPath(previewAddr, tfjsonpath.New("status_id"), tfjsonpath.New("id")),
				},
			},
			{Config: env.Config("")},
			{
				Config: env.Config(fmt.Sprintf("import {\n  to       = %s\n  identity = { status_id = %q }\n}\n", previewAddr, firstStatusID) +
					previewConfig(previewBranch, "")),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(previewAddr, "id", firstStatusID),
					resource.TestCheckResourceAttr(previewAddr, "project_id", providertest.ProjectID),
					expectPreviewDeployments(env, 2),
				),
			},
		},
	})
}

// TestPreviewDeployment_quietRefresh: once the preview is deployed,
// `plan -refresh-only -detailed-exitcode` finds nothing to change (exit 0),
// and a destroy only forgets it, saying that it stays online.
func TestPreviewDeployment_quietRefresh(t *testing.T) {
	env := providertest.NewTestEnv(t)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(previewConfig(previewBranch, `triggers = { commit = "a1" }`)))
	cli.MustRun("init", "-no-color", "-input=false")
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	if res := cli.Run("plan", "-refresh-only", "-detailed-exitcode", "-no-color", "-input=false"); res.Exit != 0 {
		t.Errorf("a refresh-only plan of a deployed preview: want exit 0 (nothing changed)\n%s", res)
	}
	if res := cli.Run("plan", "-detailed-exitcode", "-no-color", "-input=false"); res.Exit != 0 {
		t.Errorf("a plan of a deployed preview: want exit 0 (nothing changed)\n%s", res)
	}
	cli.MustRun("destroy", "-auto-approve", "-no-color", "-input=false")
	if n := len(env.Fake.DeploymentRequests()); n != 1 {
		t.Errorf("deployments = %d, want 1", n)
	}
}

// TestAccPreviewDeployment_resumeAfterUntaint: a create that times out
// leaves a tainted resource with its status id; after `terraform untaint`
// the next apply waits for the same deployment, in place, and nothing
// deploys again.
func TestAccPreviewDeployment_resumeAfterUntaint(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_preview_deployment")
	workRoot := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", workRoot)
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: time.Minute, RunFor: 14 * time.Minute}
	}}))
	cfg := env.Config(previewConfig(previewBranch, `timeouts = { create = "10m" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: providertest.ExpectError("Deployment Still Running", firstStatusID, "`timeouts.create` (10m0s)",
					"it was `in_progress`", "keeps the status id", "Run `terraform apply` again",
					"waits for this same deployment instead of deploying the preview again"),
			},
			{
				PreConfig: func() { providertest.Untaint(t, workRoot, previewAddr) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(previewAddr, tfjsonpath.New("status")),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(previewAddr, "id", firstStatusID),
					resource.TestCheckResourceAttr(previewAddr, "status", "success"),
					resource.TestCheckResourceAttr(previewAddr, "preview_url", fakeapi.PreviewURL(providertest.ProjectID, previewBranch)),
					expectPreviewDeployments(env, 1),
				),
			},
		},
	})
}

// TestAccPreviewDeployment_resumeAfterTimeout: a create that times out
// leaves a tainted resource with its deployment; the next plain apply shows
// a replacement, which waits for the same deployment, at the same address:
// the preview is never deployed a second time.
func TestAccPreviewDeployment_resumeAfterTimeout(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: time.Minute, RunFor: 14 * time.Minute}
	}}))
	cfg := env.Config(previewConfig(previewBranch, `triggers = { commit = "a1" }`+"\n"+`timeouts = { create = "10m" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: providertest.ExpectError("Deployment Still Running",
					"deployment "+firstStatusID+" of project "+providertest.ProjectID+" did not finish within `timeouts.create` (10m0s)",
					"Run `terraform apply` again", "waits for this same deployment instead of deploying the preview again",
					"raise `timeouts.create`"),
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(previewAddr, "id", firstStatusID),
					resource.TestCheckResourceAttr(previewAddr, "status", "success"),
					resource.TestCheckResourceAttr(previewAddr, "preview_url", fakeapi.PreviewURL(providertest.ProjectID, previewBranch)),
					expectPreviewDeployments(env, 1),
				),
			},
		},
	})
	// The plans right after the resumed apply (the framework's own, a
	// refresh plan among them, both required empty) and the destroy
	// deployed nothing.
	if err := expectPreviewDeployments(env, 1)(nil); err != nil {
		t.Error(err)
	}
}

// TestAccPreviewDeployment_refusedRedeploy: a redeploy that the API
// refuses keeps the previous deployment in state, and its triggers, so
// that the next apply tries again.
func TestAccPreviewDeployment_refusedRedeploy(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	at := func(commit string) string {
		return env.Config(previewConfig(previewBranch, fmt.Sprintf(`triggers = { commit = %q }`, commit)))
	}
	refuse := func() {
		env.Fake.SetFaults(fakeapi.FaultRule{
			Match:  func(r *http.Request) bool { return r.Method == http.MethodPost },
			Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusForbidden)},
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: at("a1")},
			{
				PreConfig:   refuse,
				Config:      at("b2"),
				ExpectError: providertest.ExpectError("HTTP 403", "No preview was deployed"),
			},
			{
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(previewAddr, "id", firstStatusID),
					resource.TestCheckResourceAttr(previewAddr, "triggers.commit", "a1"),
					expectPreviewDeployments(env, 1),
				),
			},
			{
				PreConfig: func() { env.Fake.SetFaults() },
				Config:    at("b2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
				}},
				Check: expectPreviewDeployments(env, 2),
			},
		},
	})
}

// TestPreviewForbidden: a 403 whose text names no cause lists the three
// possible ones, previews not on the plan first, each with its fix.
func TestPreviewForbidden(t *testing.T) {
	d := TriggerPreviewOp(providertest.ProjectID, previewBranch).Diagnostic(&mintlify.APIError{StatusCode: http.StatusForbidden, Message: "Forbidden"})
	detail := d.Detail()
	for _, want := range []string{"HTTP 403: Forbidden", "Preview deployments are not on the Mintlify plan", "IP allowlist",
		"read-only", "Upgrade the plan", "`write` scope"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the 403's detail lacks %q:\n%s", want, detail)
		}
	}
	if strings.Index(detail, "not on the Mintlify plan") > strings.Index(detail, "IP allowlist") {
		t.Errorf("the 403 does not name previews not on the plan first:\n%s", detail)
	}
}

// TestPreviewDeployment_destroyWarnsItStaysOnline runs the real `terraform
// destroy`: the API cannot delete a preview, so the destroy warns, once,
// that it stays online at its address, and how to keep it from the public.
// A preview replaced by one of another branch warns the same of the old one.
func TestPreviewDeployment_destroyWarnsItStaysOnline(t *testing.T) {
	env := providertest.NewTestEnv(t)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(previewConfig("feature/old", "")))
	cli.MustRun("init", "-no-color", "-input=false")
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	cli.WriteConfig(env.Config(previewConfig(previewBranch, "")))
	res := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	if words := strings.Join(strings.Fields(res.Output), " "); !strings.Contains(words,
		"Terraform forgot the preview of branch \"feature/old\"") {
		t.Errorf("replacing the preview of another branch does not warn that the old one stays:\n%s", res.Output)
	}
	inst := cli.Instance(previewAddr)
	res = cli.MustRun("destroy", "-auto-approve", "-no-color", "-input=false")
	if n := strings.Count(res.Output, "Warning: Preview Stays Online"); n != 1 {
		t.Errorf("the destroy warned %d times, want once:\n%s", n, res.Output)
	}
	words := strings.Join(strings.Fields(res.Output), " ")
	for _, want := range []string{
		fmt.Sprintf("preview of branch %q (deployment %s of project %s)", previewBranch, inst.Attr("id"), providertest.ProjectID),
		"cannot delete a preview: it stays online at " + fakeapi.PreviewURL(providertest.ProjectID, previewBranch),
		"password-protect it", "preview authentication", "Destroy complete!"} {
		if !strings.Contains(words, want) {
			t.Errorf("the destroy does not say %q:\n%s", want, res.Output)
		}
	}
}
