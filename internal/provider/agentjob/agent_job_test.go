package agentjob

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
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// firstAgentJob checks that the resource holds the first job the fake made.
func firstAgentJob(env *providertest.Env) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ids := env.Fake.AgentJobIDs()
		if len(ids) == 0 {
			return fmt.Errorf("the fake made no agent job")
		}
		return resource.TestCheckResourceAttr(providertest.AgentJobAddr, "id", ids[0])(s)
	}
}

func TestAccAgentJob_createAndWait(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_agent_job")
	env := providertest.NewTestEnv(t, providertest.AgentPlan(12*time.Minute, "", false))
	cfg := env.Config(providertest.AgentJobResourceConfig("Document the --dry-run flag of release 2.3", `triggers = { release = "2.3.0" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.AgentJobAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
					plancheck.ExpectUnknownValue(providertest.AgentJobAddr, tfjsonpath.New("pr_link")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("id"), providertest.AgentJobID),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("pr_link"), knownvalue.StringExact(fakeapi.AgentRepository+"/pull/101")),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("source"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"repository": knownvalue.StringExact(fakeapi.AgentRepository),
						"ref":        knownvalue.StringRegexp(regexp.MustCompile(`^mintlify/docs-agent-[0-9a-f]{8}$`)),
					})),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("model"), knownvalue.StringExact("sonnet")),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("created_at"), knownvalue.StringExact("2026-11-21T09:00:00Z")),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("archived_at"), knownvalue.Null()),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("wait_for_completion"), knownvalue.Bool(true)),
				},
				Check: resource.ComposeTestCheckFunc(
					firstAgentJob(env),
					func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
					func(*terraform.State) error {
						for _, r := range env.Fake.Requests() {
							if r.Method == http.MethodPost {
								if want := `{"prompt":"Document the --dry-run flag of release 2.3"}`; string(r.Body) != want {
									return fmt.Errorf("create body = %s, want %s", r.Body, want)
								}
							}
						}
						return nil
					},
				),
			},
		},
	})
	// The plans right after apply (the framework's own, a refresh plan
	// among them, both required empty) and the destroy started nothing.
	if err := env.ExpectAgentJobsWithoutFollowUps(1); err != nil {
		t.Error(err)
	}
}

func TestAccAgentJob_completedWithoutChanges(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.AgentPlan(3*time.Minute, "", true))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobResourceConfig("Check the quickstart for typos", "")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("pr_link"), knownvalue.Null()),
			},
			Check: func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
		}},
	})
}

// TestAccAgentJob_noWait: without wait_for_completion the apply records
// the job as started; a refresh fills in the rest, and plans stay empty.
func TestAccAgentJob_noWait(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.AgentPlan(3*time.Minute, "", false))
	cfg := env.Config(providertest.AgentJobResourceConfig("Document release 2.3", "wait_for_completion = false"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("status"), knownvalue.StringExact("active")),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("pr_link"), knownvalue.Null()),
				},
			},
			{
				PreConfig: func() { env.Clock.Advance(5 * time.Minute) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
					statecheck.ExpectKnownValue(providertest.AgentJobAddr, tfjsonpath.New("pr_link"), knownvalue.StringExact(fakeapi.AgentRepository+"/pull/101")),
				},
				Check: func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
			},
		},
	})
}

func TestAccAgentJob_failed(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.AgentPlan(4*time.Minute, "failed", false))
	cfg := env.Config(providertest.AgentJobResourceConfig("Document the impossible", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: providertest.ExpectError("Agent Job Failed", "agent job aj_", "in project "+providertest.ProjectID+" failed",
					"The resource is tainted and keeps the job id", "run `terraform untaint` with the resource's address"),
			},
			{
				// The tainted resource still names its job.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					firstAgentJob(env),
					resource.TestCheckResourceAttr(providertest.AgentJobAddr, "status", "failed"),
					func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
				),
			},
			{
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPreRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.AgentJobAddr, plancheck.ResourceActionReplace)},
				},
			},
		},
	})
}

// TestAccAgentJob_resumeAfterTimeout: a create that times out leaves a
// tainted resource with its job; the next plain apply shows a replacement,
// which waits for the same job, and no second job is ever started.
func TestAccAgentJob_resumeAfterTimeout(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_agent_job")
	env := providertest.NewTestEnv(t, providertest.AgentPlan(15*time.Minute, "", false))
	cfg := env.Config(providertest.AgentJobResourceConfig("Document release 2.3", `timeouts = { create = "10m" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				// The error points at the `timeouts` line, which Terraform quotes above the detail.
				ExpectError: providertest.ExpectError("Agent Job Still Running", `timeouts = { create = "10m" }`,
					"did not finish within `timeouts.create` (10m0s); it was `active`",
					"Run `terraform apply` again", "the replacement waits for this same job instead of starting another",
					"raise `timeouts.create`"),
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.AgentJobAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(
					firstAgentJob(env),
					resource.TestCheckResourceAttr(providertest.AgentJobAddr, "status", "completed"),
					resource.TestCheckResourceAttr(providertest.AgentJobAddr, "pr_link", fakeapi.AgentRepository+"/pull/101"),
					func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
				),
			},
		},
	})
}

// TestAccAgentJob_replace: a change of triggers, prompt or a configured
// project starts exactly one new job; wait_for_completion, timeouts and the
// provider's project change nothing remote.
func TestAccAgentJob_replace(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.AgentPlan(3*time.Minute, "", false))
	var first string
	step := func(prompt, extra string, action plancheck.ResourceActionType, jobs int) resource.TestStep {
		return resource.TestStep{
			Config: env.Config(providertest.AgentJobResourceConfig(prompt, extra)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.AgentJobAddr, action)},
			},
			Check: func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(jobs) },
		}
	}
	steps := []resource.TestStep{
		step("Document release 2.3", `triggers = { release = "2.3.0" }`, plancheck.ResourceActionCreate, 1),
		step("Document release 2.3", `triggers = { release = "2.4.0" }`, plancheck.ResourceActionReplace, 2),
		step("Document release 2.4", `triggers = { release = "2.4.0" }`, plancheck.ResourceActionReplace, 3),
		step("Document release 2.4", `triggers = { release = "2.4.0" }`+"\n"+`wait_for_completion = false`+"\n"+
			`timeouts = { create = "1h" }`, plancheck.ResourceActionUpdate, 3),
		step("Document release 2.4", `triggers = { release = "2.4.0" }`+"\n"+`project_id = "proj_other"`, plancheck.ResourceActionReplace, 4),
		step("Document release 2.4", `triggers = { release = "2.4.0" }`, plancheck.ResourceActionNoop, 4),
	}
	// Without project_id, the job stays in its project whatever the
	// provider's becomes.
	steps[5].Config = providertest.ConfigWithProvider(env, `project_id = "proj_moved"`,
		providertest.AgentJobResourceConfig("Document release 2.4", `triggers = { release = "2.4.0" }`))
	steps[5].Check = resource.ComposeTestCheckFunc(steps[5].Check, resource.TestCheckResourceAttr(providertest.AgentJobAddr, "project_id", "proj_other"))
	steps[0].Check = resource.ComposeTestCheckFunc(steps[0].Check, resource.TestCheckResourceAttrWith(providertest.AgentJobAddr, "id", providertest.Capture(&first)))
	steps[1].Check = resource.ComposeTestCheckFunc(steps[1].Check, resource.TestCheckResourceAttrWith(providertest.AgentJobAddr, "id", func(v string) error {
		if v == first || !strings.HasPrefix(v, "aj_") {
			return fmt.Errorf("id = %q, want a new job (previous %q)", v, first)
		}
		return nil
	}))
	steps[4].Check = func(*terraform.State) error {
		if got := env.Fake.Count(http.MethodPost, "/v2/agent/proj_other/job"); got != 1 {
			return fmt.Errorf("jobs started in proj_other = %d, want 1", got)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.ProviderFactories(), Steps: steps})
}

// TestAccAgentJob_jobGoneIsKept: a job the API no longer returns stays in
// state with a warning; nothing is started again.
func TestAccAgentJob_jobGoneIsKept(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.AgentPlan(3*time.Minute, "", false))
	cfg := env.Config(providertest.AgentJobResourceConfig("Document release 2.3", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() { env.Fake.ForgetAgentJob(providertest.ProjectID, env.Fake.AgentJobIDs()[0]) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					firstAgentJob(env),
					resource.TestCheckResourceAttr(providertest.AgentJobAddr, "pr_link", fakeapi.AgentRepository+"/pull/101"),
					func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
				),
			},
		},
	})
}

func TestAccAgentJob_importByID(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_agent_job")
	env := providertest.NewTestEnv(t)
	providertest.SeedImportableAgentJobs(env)
	cfg := env.Config(providertest.AgentJobResourceConfig("Document release 2.3", ""))
	importBlock := func(id string) string {
		return env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.AgentJobAddr, id) +
			providertest.AgentJobResourceConfig("Document release 2.3", ""))
	}
	adopted := func(id, project string) resource.TestCheckFunc {
		return resource.ComposeTestCheckFunc(
			resource.TestCheckResourceAttr(providertest.AgentJobAddr, "id", id),
			resource.TestCheckResourceAttr(providertest.AgentJobAddr, "project_id", project),
			resource.TestCheckResourceAttr(providertest.AgentJobAddr, "status", "completed"),
			resource.TestCheckResourceAttr(providertest.AgentJobAddr, "prompt", "Document release 2.3"),
			func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(0) },
		)
	}
	inPlace := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(providertest.AgentJobAddr, plancheck.ResourceActionUpdate),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				// `terraform import` with the project, then an apply that
				// adopts the prompt in place and waits for the active job.
				Config:             cfg,
				ResourceName:       providertest.AgentJobAddr,
				ImportState:        true,
				ImportStateId:      providertest.ProjectID + "/aj_running",
				ImportStatePersist: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.AgentJobAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(providertest.AgentJobAddr, tfjsonpath.New("pr_link")),
				}},
				Check: adopted("aj_running", providertest.ProjectID),
			},
			{Config: env.Config("")},
			{
				// An import block with the job id alone: the provider's project.
				Config:           importBlock("aj_done"),
				ConfigPlanChecks: inPlace,
				Check:            adopted("aj_done", providertest.ProjectID),
			},
			{Config: env.Config("")},
			{
				Config:      importBlock("proj_test/aj_missing"),
				ExpectError: providertest.ExpectError("Agent Job Not Found", `no agent job "aj_missing" in project "proj_test"`, "nothing to import"),
			},
			{
				Config:      importBlock("proj_test/"),
				ExpectError: providertest.ExpectError("Invalid Import ID", "Import as `PROJECT_ID/JOB_ID`"),
			},
		},
	})
}

func TestAccAgentJob_badInputRefusedBeforeAnyRequest(t *testing.T) {
	env := providertest.NewTestEnv(t)
	// The provider without a project ID: an aliased block beside the
	// default one.
	noProject := fmt.Sprintf(`
provider "mintlify" {
  alias    = "no_project"
  api_key  = %[1]q
  base_url = %[2]q
}
`, fakeapi.DefaultAPIKey, env.URL)
	const onNoProject = "provider = mintlify.no_project"
	t.Setenv(core.Env.ProjectID, "")
	// Terraform plans nothing once validation fails: the arguments refused
	// at validation share one plan; what is refused when the plan is made
	// has a plan of its own (the first such error of a plan ends it).
	atValidation := []providertest.Refusal{
		{Config: providertest.AgentJobResourceConfig("  ", ""), Want: "Empty Argument|The `prompt` argument is empty"},
		{Config: providertest.AgentJobResourceConfig("Document v2", `project_id = ""`), Want: "Empty Argument|The `project_id` argument is empty"},
		{Config: providertest.AgentJobResourceConfig("Document v2", `timeouts = { create = "soon" }`), Want: "Invalid Duration|The value \"soon\" of `timeouts.create` is not a duration"},
		{Config: providertest.AgentJobResourceConfig("Document v2", `timeouts = { create = "-5m" }`), Want: "Invalid Duration|must be longer than zero"},
		{Config: providertest.AgentJobResourceConfig("Document v2", `timeouts = { create = "87600h" }`), Want: "Invalid Duration|`timeouts.create` is longer than 24h"},
		{Config: providertest.AgentJobResourceConfig("Document v2", `timeouts = { read = "1ns" }`), Want: "Invalid Duration|`timeouts.read` is shorter than 10s"},
		{Config: providertest.AgentJobResourceConfig("Document v2", `project_id = "-proj"`), Want: "Invalid Project ID|The `project_id` \"-proj\" is not a Mintlify project ID: it must begin with a letter or a digit"},
	}
	atPlan := []providertest.Refusal{
		{Config: "resource \"mintlify_agent_job\" \"docs\" {}\n", Want: "Missing Agent Job Prompt|This plan starts a new agent job but `prompt` is not set|Only an imported job may leave `prompt` out"},
		{Config: providertest.AgentJobResourceConfig("Document v2", onNoProject), Want: "Missing Project ID|Set `project_id` on this resource, or `project_id` on the mintlify provider|`MINTLIFY_PROJECT_ID`"},
	}
	// Each case is its own resource: each error must point into its own
	// resource's block.
	for i := range atValidation {
		atValidation[i].Config = strings.Replace(atValidation[i].Config, `"docs"`, fmt.Sprintf(`"docs_%d"`, i), 1)
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(noProject), atValidation)
	for _, r := range atPlan {
		providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(noProject), []providertest.Refusal{r})
	}
	// MINTLIFY_PROJECT_ID is checked where it is used, at plan too.
	t.Setenv(core.Env.ProjectID, "proj_demo\n")
	providertest.ExpectEachRefusedInOnePlan(t, env, noProject, []providertest.Refusal{
		{Config: providertest.AgentJobResourceConfig("Document v2", onNoProject), Want: "Invalid Project ID|The provider's project ID (from `project_id` or the `MINTLIFY_PROJECT_ID` environment variable) \"proj_demo\\n\" is not a Mintlify project ID: it contains a control character"},
	})
}

// TestAccAgentJob_mayHaveStarted: a create request that got no definite
// answer is not repeated, and the error says a job may be running.
func TestAccAgentJob_mayHaveStarted(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsCreateAgentJobRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusBadGateway)},
	}))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobResourceConfig("Document v2", "")),
			ExpectError: providertest.ExpectError("Agent Job May Have Started", "HTTP 502", "did not retry", "second pull request",
				"nothing was saved in state"),
		}},
	})
	if got := env.Fake.Count(http.MethodPost, "/v2/agent/"); got != 1 {
		t.Errorf("create requests = %d, want 1: never repeated", got)
	}
}
