package docstest

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// withDefault gives the example's first `type = string` variable a default,
// as a user's -var would.
func withDefault(example, value string) string {
	return strings.Replace(example, `type        = string`, `type        = string`+"\n  default     = \""+value+"\"", 1)
}

// TestAccExampleAgentJobResource runs the registry example of the resource:
// one job per release, its pull request as an output.
func TestAccExampleAgentJobResource(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, providertest.AgentPlan(20*time.Minute, "", false))
	example := readExample(t, filepath.Join("resources", "mintlify_agent_job"), "resource.tf")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(withDefault(example, "2.3.0")),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckOutput("docs_pull_request", fakeapi.AgentRepository+"/pull/101"),
					func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(1) },
				),
			},
			{
				Config: env.Config(withDefault(example, "2.4.0")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("mintlify_agent_job.release_docs", plancheck.ResourceActionReplace),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckOutput("docs_pull_request", fakeapi.AgentRepository+"/pull/102"),
					func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(2) },
				),
			},
		},
	})
}

// TestAgentJobActionExample invokes both actions of the registry example as
// written: a new job that ends with its pull request, and a follow-up to the
// job the example names.
func TestAgentJobActionExample(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := newTestEnv(t, providertest.AgentPlanByPrompt())
	env.Fake.AddAgentJob(providertest.ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_3f9a2c1b8e7d4a06", Repository: fakeapi.AgentRepository, PRLink: providertest.Ptr(fakeapi.AgentRepository + "/pull/42"),
	})
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(readExample(t, filepath.Join("actions", "mintlify_agent_job"), "action.tf")))
	cli.MustRun("init", "-no-color", "-input=false")

	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_agent_job.docs").Output
	lines := providertest.ProgressLines(out, "action.mintlify_agent_job.docs", "CLI")
	providertest.ExpectLines(t, "the example's progress", lines[len(lines)-1:],
		`Agent job aj_[0-9a-f]{16} completed: pull request https://github\.com/acme/docs/pull/101`)

	out = cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_agent_job.docs_follow_up").Output
	lines = providertest.ProgressLines(out, "action.mintlify_agent_job.docs_follow_up", "CLI")
	providertest.ExpectLines(t, "the example follow-up's progress", lines[len(lines)-1:],
		`Agent job aj_3f9a2c1b8e7d4a06 completed: pull request https://github\.com/acme/docs/pull/42`)
	if env.Fake.AgentJobsCreated() != 1 || env.Fake.AgentMessagesSent() != 1 {
		t.Errorf("jobs, follow-ups = %d, %d; want 1, 1", env.Fake.AgentJobsCreated(), env.Fake.AgentMessagesSent())
	}
}

// TestAgentJobActionOnFailureExample applies the `on_failure = continue`
// example as written, with an agent job that fails: the apply succeeds with
// the failure as a warning, and the next plan is empty.
func TestAgentJobActionOnFailureExample(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.16")
	env := newTestEnv(t, providertest.AgentPlan(10*time.Minute, "failed", false))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(withDefault(readExample(t, filepath.Join("actions", "mintlify_agent_job", "on-failure-continue"), "main.tf"), "2.3.0")))
	cli.MustRun("init", "-no-color", "-input=false")

	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false").Output
	for _, want := range []string{"Warning: Agent Job Failed", "Apply complete! Resources: 1 added", "Actions: 1 invoked, 1 failed."} {
		if !strings.Contains(out, want) {
			t.Errorf("the example's apply does not say %q:\n%s", want, out)
		}
	}
	if out := cli.MustRun("plan", "-no-color", "-input=false").Output; !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after the failed job is not empty:\n%s", out)
	}
	if n := env.Fake.AgentJobsCreated(); n != 1 {
		t.Errorf("agent jobs created = %d, want 1", n)
	}
}

// TestAccExampleAgentJobImport runs the import block example: the job the
// example names is adopted in place, and no job is started.
func TestAccExampleAgentJobImport(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	env.Fake.AddAgentJob("proj_0123456789", fakeapi.AgentJobSeed{ID: "aj_3f9a2c1b8e7d4a06", Repository: fakeapi.AgentRepository})
	example := readExample(t, filepath.Join("resources", "mintlify_agent_job", "import-by-id"), "main.tf")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(example),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("mintlify_agent_job.release_docs", plancheck.ResourceActionUpdate),
			}},
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("mintlify_agent_job.release_docs", "project_id", "proj_0123456789"),
				resource.TestCheckResourceAttr("mintlify_agent_job.release_docs", "status", "completed"),
				func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(0) },
			),
		}},
	})
}

// TestAccExampleImportByIdentity runs both identity import examples: each
// adopts what it names in place, and nothing is started.
func TestAccExampleImportByIdentity(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	env := newTestEnv(t)
	job := env.StartExportOutsideTerraform(t)
	env.Fake.AddAgentJob("proj_0123456789", fakeapi.AgentJobSeed{ID: "aj_3f9a2c1b8e7d4a06", Repository: fakeapi.AgentRepository})
	bundle := strings.ReplaceAll(readExample(t, filepath.Join("resources", "mintlify_static_export_bundle", "import-by-identity"), "main.tf"),
		"se_3f9a2c1b8e7d4a06", job)
	agent := readExample(t, filepath.Join("resources", "mintlify_agent_job", "import-by-identity"), "main.tf")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   identityVersions,
		Steps: []resource.TestStep{{
			Config: env.Config(bundle + agent),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("mintlify_agent_job.release_docs", plancheck.ResourceActionUpdate),
			}},
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(bundleAddr, "job_id", job),
				providertest.CheckBundleLinkWorks(bundleAddr),
				resource.TestCheckResourceAttr("mintlify_agent_job.release_docs", "id", "aj_3f9a2c1b8e7d4a06"),
				func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
				func(*terraform.State) error { return env.ExpectAgentJobsWithoutFollowUps(0) },
			),
		}},
	})
}
