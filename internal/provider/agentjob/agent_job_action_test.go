package agentjob

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// agentPrompts returns the prompts of the requests that created agent jobs
// (or sent follow-ups, when messages) in providertest.ProjectID.
func agentPrompts(env *providertest.Env, messages bool) []string {
	var prompts []string
	for _, r := range env.Fake.Requests() {
		if r.Method != http.MethodPost || strings.HasSuffix(r.Path, "/message") != messages {
			continue
		}
		prompts = append(prompts, string(r.Body))
	}
	return prompts
}

// TestAgentJobAction_invoke runs the action with `terraform apply -invoke`:
// one create request, and progress from the job's start to its pull
// request, or to "without changes".
func TestAgentJobAction_invoke(t *testing.T) {
	providertest.CLIContract(t, "action.mintlify_agent_job")
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, providertest.AgentPlanByPrompt())
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.AgentAction("docs", `prompt = "Document release 2.3"`) +
		providertest.AgentAction("typos", `prompt = "Fix the typo in the quickstart"`)))
	cli.MustRun("init", "-no-color", "-input=false")

	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_agent_job.docs").Output
	id := `aj_[0-9a-f]{16}`
	providertest.ExpectLines(t, "the progress of -invoke=action.mintlify_agent_job.docs", providertest.ProgressLines(out, "action.mintlify_agent_job.docs", "CLI"),
		`Started agent job `+id+` in project proj_test; the job is active\.`,
		`Agent job `+id+` is now completed\.`,
		`Agent job `+id+` completed: pull request https://github\.com/acme/docs/pull/101`)
	if got := agentPrompts(env, false); len(got) != 1 || got[0] != `{"prompt":"Document release 2.3"}` {
		t.Errorf("create requests: %q, want exactly one with the prompt", got)
	}
	if !strings.Contains(out, "Actions: 1 invoked.") {
		t.Errorf("terraform did not report the action as invoked:\n%s", out)
	}

	out = cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_agent_job.typos").Output
	lines := providertest.ProgressLines(out, "action.mintlify_agent_job.typos", "CLI")
	providertest.ExpectLines(t, "the progress of a job without changes", lines[len(lines)-1:],
		`Agent job `+id+` completed without changes: the agent opened no pull request\.`)
	if n := env.Fake.AgentJobsCreated(); n != 2 {
		t.Errorf("agent jobs created = %d, want 2", n)
	}
}

// TestAgentJobAction_trigger runs the action from an action_trigger after
// a release changes: once per change, never on an apply that changes
// nothing.
func TestAgentJobAction_trigger(t *testing.T) {
	providertest.CLIContract(t, "action.mintlify_agent_job")
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, providertest.AgentPlanByPrompt())
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(`
variable "release" {
  type = string
}

resource "terraform_data" "release" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.mintlify_agent_job.docs]
    }
  }
}
` + providertest.AgentAction("docs", `prompt = "Document the changes of release ${terraform_data.release.output}"`)))
	cli.MustRun("init", "-no-color", "-input=false")
	apply := func(release string) string {
		return cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-var", "release="+release).Output
	}

	out := apply("2.3.0")
	lines := providertest.ProgressLines(out, "action.mintlify_agent_job.docs", "terraform_data.release")
	if len(lines) != 3 || !strings.Contains(lines[2], "pull request https://github.com/acme/docs/pull/101") {
		t.Errorf("progress after create:\n%s", out)
	}
	apply("2.3.0") // no change, no action
	apply("2.4.0")
	want := []string{`{"prompt":"Document the changes of release 2.3.0"}`, `{"prompt":"Document the changes of release 2.4.0"}`}
	if got := agentPrompts(env, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("create requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAgentJobAction_followUp sends the prompt to an existing job, and can
// leave it running.
func TestAgentJobAction_followUp(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, providertest.AgentPlanByPrompt())
	providertest.SeedImportableAgentJobs(env)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.AgentAction("follow_up", `
    prompt = "Also document the --json flag"
    job_id = "aj_done"`) + providertest.AgentAction("no_wait", `
    prompt              = "Document release 2.4"
    wait_for_completion = false`)))
	cli.MustRun("init", "-no-color", "-input=false")

	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_agent_job.follow_up").Output
	providertest.ExpectLines(t, "the progress of a follow-up", providertest.ProgressLines(out, "action.mintlify_agent_job.follow_up", "CLI"),
		`Sent the prompt to agent job aj_done in project proj_test as a follow-up message; the job is active\.`,
		`Agent job aj_done is now completed\.`,
		`Agent job aj_done completed: pull request https://github\.com/acme/docs/pull/8`)
	if got := agentPrompts(env, true); len(got) != 1 || env.Fake.AgentJobsCreated() != 0 {
		t.Errorf("follow-up requests %q and %d new jobs, want one follow-up and no job", got, env.Fake.AgentJobsCreated())
	}

	env.Fake.Reset()
	out = cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_agent_job.no_wait").Output
	providertest.ExpectLines(t, "the progress without waiting", providertest.ProgressLines(out, "action.mintlify_agent_job.no_wait", "CLI"),
		`Started agent job aj_[0-9a-f]{16} in project proj_test; the job is active\.`,
		`Not waiting for agent job aj_[0-9a-f]{16} \(wait_for_completion = false\): .*`)
	if n := env.WorkRequests(); n != 1 {
		t.Errorf("%d requests without waiting (besides the plan's key check), want only the create", n)
	}
}

// TestAccAgentJobAction_failures: a failed job and a timeout are errors
// that name the job; bad input is refused at plan, before any request.
func TestAccAgentJobAction_failures(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.AgentPlanByPrompt())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.ActionVersions,
		Steps: []resource.TestStep{
			{
				Config:      env.Config(providertest.TriggeredAction("2.3.0", `prompt = "Document the impossible"`)),
				ExpectError: providertest.ExpectError("Agent Job Failed", "agent job aj_", "in project proj_test failed", "with `job_id = \"aj_"),
			},
			{
				Config: env.Config(providertest.TriggeredAction("2.4.0", `
    prompt  = "Work forever"
    timeout = "5m"`)),
				ExpectError: providertest.ExpectError("Agent Job Still Running", "did not finish within `timeout` (5m0s); it was `active`",
					"keeps running", "`mintlify_agent_job` data source"),
			},
		},
	})
	if err := env.ExpectAgentJobsWithoutFollowUps(2); err != nil {
		t.Error(err)
	}
}

func TestAccAgentJobAction_badInputRefusedAtPlan(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t)
	t.Setenv(core.Env.ProjectID, "")
	noProject := fmt.Sprintf("provider \"mintlify\" {\n  api_key  = %q\n  base_url = %q\n}\n", fakeapi.DefaultAPIKey, env.URL)
	// The arguments refused at validation share one plan, each case its
	// own action (and release): each error must point into its own blocks.
	// The missing project ID, refused when the plan is made, has its own.
	atValidation := []providertest.Refusal{
		{Config: providertest.TriggeredAction("2.3.0", `
    prompt  = "Document release 2.3"
    timeout = "soon"`), Want: `Invalid Duration|"soon"`},
		{Config: providertest.TriggeredAction("2.3.0", `
    prompt  = "Document release 2.3"
    timeout = "87600h"`), Want: "Invalid Duration|`timeout` is longer than 24h"},
		{Config: providertest.TriggeredAction("2.3.0", `prompt = ""`), Want: "Empty Argument|The `prompt` argument is empty"},
		{Config: providertest.TriggeredAction("2.3.0", `
    prompt = "Document release 2.3"
    job_id = " "`), Want: "Empty Argument|The `job_id` argument is empty"},
	}
	for i := range atValidation {
		atValidation[i].Config = strings.NewReplacer(`"release"`, fmt.Sprintf(`"release_%d"`, i), `"docs"`, fmt.Sprintf(`"docs_%d"`, i),
			"action.mintlify_agent_job.docs]", fmt.Sprintf("action.mintlify_agent_job.docs_%d]", i)).Replace(atValidation[i].Config)
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(""), atValidation)
	providertest.ExpectEachRefusedInOnePlan(t, env, noProject, []providertest.Refusal{
		{Config: providertest.TriggeredAction("2.3.0", `prompt = "Document release 2.3"`), Want: "Missing Project ID|Set `project_id` on this action, or `project_id` on the mintlify provider"},
	})
}

// TestAgentJobAction_onFailureContinue: with `on_failure = continue`
// (Terraform 1.16), a failed agent job is reported and the apply that
// triggered it goes on: the release is in state, not tainted, and the next
// plan has nothing to do.
func TestAgentJobAction_onFailureContinue(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.16")
	env := providertest.NewTestEnv(t, providertest.AgentPlanByPrompt())
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(strings.Replace(providertest.TriggeredAction("2.3.0", `prompt = "Document the impossible"`),
		"actions = [action.mintlify_agent_job.docs]", "actions    = [action.mintlify_agent_job.docs]\n      on_failure = continue", 1)))
	cli.MustRun("init", "-no-color", "-input=false")

	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false").Output
	for _, want := range []string{"Warning: Agent Job Failed", "in project proj_test", "Apply complete! Resources: 1 added",
		"Actions: 1 invoked, 1 failed."} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply does not say %q:\n%s", want, out)
		}
	}
	if release := cli.Instance("terraform_data.release"); !release.Exists || release.Tainted {
		t.Errorf("terraform_data.release after the apply: in state %t, tainted %t; want in state, not tainted", release.Exists, release.Tainted)
	}
	if out := cli.MustRun("plan", "-detailed-exitcode", "-no-color", "-input=false").Output; !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after a failed agent job is not empty:\n%s", out)
	}
	if err := env.ExpectAgentJobsWithoutFollowUps(1); err != nil {
		t.Error(err)
	}
}
