package automation

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

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

const automationRunAddr = "mintlify_automation_run.nightly"

// The automations of the tests' fake, by what running them meets.
const (
	automationScheduled   = "6650f1c2a0b1c2d3000000a1"
	automationInactive    = "6650f1c2a0b1c2d3000000a2"
	automationOnPush      = "6650f1c2a0b1c2d3000000a3"
	automationOtherProj   = "6650f1c2a0b1c2d3000000a4"
	automationNonexistent = "6650f1c2a0b1c2d3000000ff"
)

// withAutomations is a fake with an automation of each kind.
func withAutomations() []fakeapi.Option {
	return []fakeapi.Option{
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: automationScheduled}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: automationInactive, Inactive: true}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: automationOnPush, Trigger: fakeapi.TriggerEvent}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj_other", ID: automationOtherProj}),
	}
}

// automationRunConfig is an automation run resource named "nightly".
func automationRunConfig(automationID, extra string) string {
	return fmt.Sprintf(`
resource "mintlify_automation_run" "nightly" {
  automation_id = %q
  %s
}
`, automationID, extra)
}

// expectRuns checks the number of runs the fake queued, all of the
// scheduled automation.
func expectRuns(env *providertest.Env, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		runs := env.Fake.AutomationRuns()
		if len(runs) != n {
			return fmt.Errorf("the fake queued %d runs, want %d", len(runs), n)
		}
		if n == 0 {
			return nil
		}
		last := runs[n-1]
		attrs := s.RootModule().Resources[automationRunAddr].Primary.Attributes
		if attrs["job_id"] != last.JobID || attrs["instance_id"] != last.InstanceID || attrs["id"] != last.JobID {
			return fmt.Errorf("state has job %q, instance %q; the last run is %+v", attrs["job_id"], attrs["instance_id"], last)
		}
		return nil
	}
}

// TestAccAutomationRun_runs: creating the resource runs the automation
// once; a plan without changes runs nothing; a change of triggers runs it
// again, by replacement.
func TestAccAutomationRun_runs(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_automation_run")
	env := providertest.NewTestEnv(t, withAutomations()...)
	at := func(release string) string {
		return env.Config(automationRunConfig(automationScheduled, fmt.Sprintf(`triggers = { release = %q }`, release)))
	}
	first := resource.TestStep{
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectKnownValue(automationRunAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(automationRunAddr, tfjsonpath.New("job_id"), knownvalue.StringRegexp(regexp.MustCompile(`^wf_job_[0-9a-f]{24}$`))),
		},
	}
	steps := append(rerunSteps(at, func(n int) resource.TestCheckFunc { return expectRuns(env, n) }, first), resource.TestStep{
		// Destroying forgets the run and runs nothing.
		Config: env.Config(""),
		Check: func(*terraform.State) error {
			if n := len(env.Fake.AutomationRuns()); n != 2 {
				return fmt.Errorf("the fake queued %d runs, want 2", n)
			}
			return nil
		},
	})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.ProviderFactories(), Steps: steps})
}

// rerunSteps apply at(release) twice: a first run, with the checks of
// first, after which the same release plans nothing and runs nothing (the
// framework's plans after the apply, a refresh plan among them, must be
// empty, and the next step counts two runs); a new release, which replaces
// the resource with a second run. runs(n) checks that n runs were queued.
func rerunSteps(at func(release string) string, runs func(n int) resource.TestCheckFunc, first resource.TestStep) []resource.TestStep {
	first.Config, first.Check = at("2.3.0"), runs(1)
	return []resource.TestStep{
		first,
		{
			Config: at("2.4.0"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(automationRunAddr, plancheck.ResourceActionReplace),
			}},
			Check: runs(2),
		},
	}
}

// TestAccAutomationRun_refused: each documented refusal says which it is,
// with its fix, and queues nothing.
func TestAccAutomationRun_refused(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, withAutomations()...)
	var steps []resource.TestStep
	for _, c := range []struct{ id, want string }{
		{automationInactive, "Mintlify Automation Not Active|HTTP 400: Automation is not active|Turn the automation on|No automation run was queued"},
		{automationOnPush, "Mintlify Automation Has No Custom Schedule|custom schedule|automation_trigger = \"webhook\"|give the automation a custom schedule"},
		{automationNonexistent, "Mintlify Automation Not Found|HTTP 404|no automation \"" + automationNonexistent + "\" in project \"proj_test\"|Check `automation_id`"},
		{automationOtherProj, "Mintlify Automation Not Found|the project the automation belongs to"},
	} {
		steps = append(steps, resource.TestStep{
			Config:      env.Config(automationRunConfig(c.id, "")),
			ExpectError: providertest.ExpectError(strings.Split(c.want, "|")...),
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.ProviderFactories(), Steps: steps})
	if runs := env.Fake.AutomationRuns(); len(runs) != 0 {
		t.Errorf("refused runs were queued: %+v", runs)
	}
}

// TestAccAutomationRun_malformedID: Mintlify documents no shape for its
// ids, so only what cannot be an id in a URL path is refused at plan,
// naming the attribute and the fix, before any request; an id of another
// shape reaches the API, whose 400 says to copy the id again.
func TestAccAutomationRun_malformedID(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, withAutomations()...)
	pasted := "https://dashboard.mintlify.com/acme/docs/automations/" + automationScheduled + "?tab=settings"
	refusals := []providertest.Refusal{
		{Config: automationRunConfig("", ""), Want: `Invalid Automation ID|automation_id|it is empty|automation's settings in the Mintlify dashboard`},
		{Config: automationRunConfig(" "+automationScheduled+"\n", ""), Want: `Invalid Automation ID|control character`},
		{Config: automationRunConfig(" "+automationScheduled, ""), Want: `Invalid Automation ID|remove the spaces around it (use "` + automationScheduled + `")`},
		{Config: automationRunConfig("nightly build", ""), Want: `Invalid Automation ID|an id has no spaces`},
		{Config: automationRunConfig(pasted, ""), Want: `Invalid Automation ID|give the id alone (use "` + automationScheduled + `"`},
	}
	// One plan of every case, each its own resource: each error must point into
	// its own block.
	for i := range refusals {
		refusals[i].Config = strings.Replace(refusals[i].Config, `"nightly"`, fmt.Sprintf(`"nightly_%d"`, i), 1)
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(""), refusals)
	// Any other shape is the API's to judge: its 400 names the fix.
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(automationRunConfig("6650F1C2A0B1C2D3000000A1", "")),
			ExpectError: providertest.ExpectError("Malformed Mintlify Automation ID", "HTTP 400: Invalid automation id",
				"Copy `automation_id` again, exactly, from the automation's settings", "No automation run was queued"),
		}},
	})
	if runs := env.Fake.AutomationRuns(); len(runs) != 0 {
		t.Errorf("refused runs were queued: %+v", runs)
	}
}

// TestAutomationRunAction_invoke runs the action with `terraform apply
// -invoke`: one run, and its ids in the progress.
func TestAutomationRunAction_invoke(t *testing.T) {
	providertest.CLIContract(t, "action.mintlify_automation_run")
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, withAutomations()...)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(fmt.Sprintf(`
action "mintlify_automation_run" "nightly" {
  config {
    automation_id = %q
  }
}

action "mintlify_automation_run" "inactive" {
  config {
    automation_id = %q
  }
}
`, automationScheduled, automationInactive)))
	cli.MustRun("init", "-no-color", "-input=false")
	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_automation_run.nightly").Output
	runs := env.Fake.AutomationRuns()
	if len(runs) != 1 {
		t.Fatalf("runs queued = %d, want 1", len(runs))
	}
	providertest.ExpectLines(t, "the progress of the action", providertest.ProgressLines(out, "action.mintlify_automation_run.nightly", "CLI"),
		`Queued a run of automation `+automationScheduled+` in project proj_test \(instance `+runs[0].InstanceID+
			`, job `+runs[0].JobID+`\)\. The run is queued, not finished: .*`)
	res := cli.Run("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_automation_run.inactive")
	if res.Exit == 0 || !strings.Contains(res.Output, "Mintlify Automation Not Active") {
		t.Errorf("invoking an inactive automation: want the error that names it\n%s", res)
	}
	if n := len(env.Fake.AutomationRuns()); n != 1 {
		t.Errorf("runs queued = %d, want 1", n)
	}
}

// TestAutomationRefused: a 400 whose text names one reason says that one;
// a text that names none, or several, lists the three with their fixes.
func TestAutomationRefused(t *testing.T) {
	op := TriggerAutomationOp(providertest.ProjectID, automationScheduled)
	for _, c := range []struct{ message, summary string }{
		{"Automation is not active", "Mintlify Automation Not Active"},
		{"This automation is inactive.", "Mintlify Automation Not Active"},
		{"Only automations with a custom schedule can be triggered", "Mintlify Automation Has No Custom Schedule"},
		{"Invalid automation id", "Malformed Mintlify Automation ID"},
		{"Bad request", "Mintlify Refused The Automation Run"},
		{"Automation is inactive and has no custom schedule", "Mintlify Refused The Automation Run"},
	} {
		summary, detail := automationRefused(op, mintlify.Classify(&mintlify.APIError{StatusCode: 400, Message: c.message}))
		if summary != c.summary {
			t.Errorf("%q: summary %q, want %q", c.message, summary, c.summary)
		}
		if c.summary == "Mintlify Refused The Automation Run" {
			for _, r := range automationRefusals {
				if !strings.Contains(detail, r.fix) {
					t.Errorf("%q: the detail lacks the fix %q:\n%s", c.message, r.fix, detail)
				}
			}
		}
	}
}

// TestAccAutomationRun_importRefused: an import of a run is refused at
// plan, before any request, saying why (the API cannot read a run) and what
// to do instead, never with the framework's generic "not implemented".
func TestAccAutomationRun_importRefused(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_automation_run")
	env := providertest.NewTestEnv(t, withAutomations()...)
	importBlock := fmt.Sprintf("import {\n  to = %s\n  id = \"run_123\"\n}\n", automationRunAddr)
	providertest.ExpectRefusedAtPlan(t, env, []providertest.Refusal{{
		Config: env.Config(importBlock + automationRunConfig(automationScheduled, "")),
		Want: `Automation Run Cannot Be Imported|the Mintlify API has no call that reads a run, so the run "run_123" ` +
			"cannot be adopted|Remove the `import` block|the next apply queues a new run|run history",
	}})
}
