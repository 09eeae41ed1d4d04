package automation

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
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The webhook automations of the tests' fake, beside withAutomations'.
const (
	automationByWebhook  = "6650f1c2a0b1c2d3000000b1"
	automationPredefined = "6650f1c2a0b1c2d3000000b2"
)

// withWebhookAutomations is withAutomations with a webhook automation and
// a predefined one, and opts.
func withWebhookAutomations(opts ...fakeapi.Option) []fakeapi.Option {
	return append(append(withAutomations(),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: automationByWebhook, Trigger: fakeapi.TriggerWebhook}),
		fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: automationPredefined, Predefined: true}),
	), opts...)
}

// webhookRunConfig runs automation id through its webhook.
func webhookRunConfig(id, extra string) string {
	return automationRunConfig(id, `automation_trigger = "webhook"
  `+extra)
}

// expectWebhookRuns checks the number of webhook runs the fake queued, and
// that state holds the last one's run_id.
func expectWebhookRuns(env *providertest.Env, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var runs []fakeapi.AutomationRun
		for _, r := range env.Fake.AutomationRuns() {
			if r.Webhook {
				runs = append(runs, r)
			}
		}
		if len(runs) != n || len(env.Fake.AutomationRuns()) != n {
			return fmt.Errorf("the fake queued %d webhook runs of %d runs, want %d of %d", len(runs), len(env.Fake.AutomationRuns()), n, n)
		}
		attrs := s.RootModule().Resources[automationRunAddr].Primary.Attributes
		if last := runs[n-1]; attrs["run_id"] != last.InstanceID || attrs["id"] != last.InstanceID {
			return fmt.Errorf("state has run_id %q, id %q; the last run is %+v", attrs["run_id"], attrs["id"], last)
		}
		return nil
	}
}

// TestAccAutomationRun_webhook: with `automation_trigger = "webhook"`, the
// resource runs a webhook automation through its webhook, once; its
// run_id is in state, and the ids of the other call are null; a change of
// triggers runs it again. Every CLI runs it (Terraform 1.5.7+, OpenTofu).
func TestAccAutomationRun_webhook(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, withWebhookAutomations()...)
	at := func(release string) string {
		return env.Config(webhookRunConfig(automationByWebhook, fmt.Sprintf(`triggers = { release = %q }`, release)))
	}
	first := resource.TestStep{ConfigStateChecks: []statecheck.StateCheck{
		statecheck.ExpectKnownValue(automationRunAddr, tfjsonpath.New("automation_trigger"), knownvalue.StringExact("webhook")),
		statecheck.ExpectKnownValue(automationRunAddr, tfjsonpath.New("run_id"), knownvalue.NotNull()),
		statecheck.ExpectKnownValue(automationRunAddr, tfjsonpath.New("instance_id"), knownvalue.Null()),
		statecheck.ExpectKnownValue(automationRunAddr, tfjsonpath.New("job_id"), knownvalue.Null()),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps:                    rerunSteps(at, func(n int) resource.TestCheckFunc { return expectWebhookRuns(env, n) }, first),
	})
}

// TestAccAutomationRun_scheduleIsTheDefault: an automation with a custom
// schedule has a null run_id; writing the default out changes nothing and
// runs nothing, while switching to the webhook replaces the run.
func TestAccAutomationRun_scheduleIsTheDefault(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, withWebhookAutomations()...)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(automationRunConfig(automationScheduled, "")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(automationRunAddr, tfjsonpath.New("run_id"), knownvalue.Null()),
				},
				Check: expectRuns(env, 1),
			},
			{
				Config: env.Config(automationRunConfig(automationScheduled, `automation_trigger = "schedule"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(automationRunAddr, plancheck.ResourceActionUpdate),
				}},
				Check: expectRuns(env, 1),
			},
			{
				Config: env.Config(webhookRunConfig(automationScheduled, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(automationRunAddr, plancheck.ResourceActionReplace),
				}},
				ExpectError: providertest.ExpectError("Mintlify Automation Has No Webhook Trigger"),
			},
		},
	})
}

// TestAccAutomationRun_webhookRefused: each refusal says which it is, with
// the setting it needs, and queues nothing.
func TestAccAutomationRun_webhookRefused(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, withWebhookAutomations()...)
	notWebhook := "Mintlify Automation Has No Webhook Trigger|HTTP 404|with a Webhook trigger in project \"proj_test\"|"
	var steps []resource.TestStep
	for _, c := range []struct{ config, want string }{
		// A scheduled automation through the webhook: the default runs it.
		{webhookRunConfig(automationScheduled, ""), notWebhook + "custom schedule: remove `automation_trigger`"},
		// One run by an event, and a predefined one: nothing runs them.
		{webhookRunConfig(automationOnPush, ""), notWebhook + "the API cannot run it on demand"},
		{webhookRunConfig(automationPredefined, ""), notWebhook + "A predefined automation"},
		{webhookRunConfig(automationNonexistent, ""), notWebhook + "check `automation_id`"},
		// A webhook automation through Trigger automation: the webhook runs it.
		{automationRunConfig(automationByWebhook, ""), "Mintlify Automation Has No Custom Schedule|If its trigger is Webhook, set `automation_trigger = \"webhook\"`"},
	} {
		steps = append(steps, resource.TestStep{Config: env.Config(c.config), ExpectError: providertest.ExpectError(strings.Split(c.want, "|")...)})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.ProviderFactories(), Steps: steps})
	if runs := env.Fake.AutomationRuns(); len(runs) != 0 {
		t.Errorf("refused runs were queued: %+v", runs)
	}
}

// TestAccAutomationRun_webhookKeyAndLimit: a read-only key and a rate limit
// of the webhook are named as such, and queue nothing; a lost answer is
// not retried, and says that a run may have been queued.
func TestAccAutomationRun_webhookKeyAndLimit(t *testing.T) {
	t.Parallel()
	isWebhook := func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/webhook") }
	for _, c := range []struct {
		name   string
		fault  fakeapi.Fault
		want   string
		queued int
	}{
		{"read-only key", fakeapi.Fault{Kind: fakeapi.FaultStatus, Status: http.StatusForbidden, Message: "API key lacks the write scope"},
			"Mintlify API Key Is Read-Only|HTTP 403|No automation run was queued", 0},
		// A turn to wait for within the organization's limit, until the
		// timeout, whatever max_retries says.
		{"rate limit", fakeapi.TooManyRequests(5 * time.Second), "Mintlify Rate Limit Outlasted The Timeout|" +
			"10 requests per 10 seconds per organization|through its webhook|HTTP 429|`timeouts.create` (5m0s)", 0},
		{"lost answer", fakeapi.LoseAnswer(), "Automation Run May Have Been Queued|webhook automation " + automationByWebhook +
			" may have been queued; its `run_id` is unknown|did not retry", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, withWebhookAutomations(fakeapi.WithFaults(fakeapi.FaultRule{Match: isWebhook, Faults: []fakeapi.Fault{c.fault}}))...)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: env.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      providertest.NoRetries(env, webhookRunConfig(automationByWebhook, "")),
					ExpectError: providertest.ExpectError(strings.Split(c.want, "|")...),
				}},
			})
			if runs := env.Fake.AutomationRuns(); len(runs) != c.queued {
				t.Errorf("runs queued: %+v, want %d", runs, c.queued)
			}
		})
	}
}

// TestAccAutomationRun_webhookTriggerRefusedAtPlan: a trigger the provider
// does not know is refused at plan time, naming the values, before any
// request.
func TestAccAutomationRun_webhookTriggerRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, withWebhookAutomations()...)
	providertest.ExpectRefusedAtPlan(t, env, []providertest.Refusal{
		{Config: env.Config(automationRunConfig(automationByWebhook, `automation_trigger = "push"`)),
			Want: `automation_trigger|value must be one of|"schedule"|"webhook"|"push"`},
	})
}

// TestAutomationRunAction_webhook runs a webhook automation with the action
// (Terraform 1.14+): one run, its run id in the progress; a scheduled
// automation through the webhook is refused with the setting it needs.
func TestAutomationRunAction_webhook(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, withWebhookAutomations()...)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(fmt.Sprintf(`
action "mintlify_automation_run" "on_merge" {
  config {
    automation_id      = %q
    automation_trigger = "webhook"
  }
}

action "mintlify_automation_run" "scheduled" {
  config {
    automation_id      = %q
    automation_trigger = "webhook"
  }
}
`, automationByWebhook, automationScheduled)))
	cli.MustRun("init", "-no-color", "-input=false")
	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_automation_run.on_merge").Output
	runs := env.Fake.AutomationRuns()
	if len(runs) != 1 || !runs[0].Webhook {
		t.Fatalf("runs queued = %+v, want one webhook run", runs)
	}
	providertest.ExpectLines(t, "the progress of the action", providertest.ProgressLines(out, "action.mintlify_automation_run.on_merge", "CLI"),
		`Queued a run of automation `+automationByWebhook+` in project proj_test \(run `+runs[0].InstanceID+
			`\)\. The run is queued, not finished: .*`)
	res := cli.Run("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_automation_run.scheduled")
	if res.Exit == 0 || !strings.Contains(res.Output, "Mintlify Automation Has No Webhook Trigger") ||
		!strings.Contains(res.Output, "remove `automation_trigger`") {
		t.Errorf("invoking a scheduled automation through its webhook: want the error that names the setting\n%s", res)
	}
	if n := len(env.Fake.AutomationRuns()); n != 1 {
		t.Errorf("runs queued = %d, want 1", n)
	}
}

// TestAccAutomationRun_webhookSharesTheLimit: twelve runs in one apply,
// half of them by webhook, share the trigger limit of 10 per 10 seconds:
// the provider paces them, and the API refuses none.
func TestAccAutomationRun_webhookSharesTheLimit(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, withWebhookAutomations()...)
	config := env.Config(fmt.Sprintf(`
resource "mintlify_automation_run" "by_webhook" {
  count              = 6
  automation_id      = %q
  automation_trigger = "webhook"
  triggers           = { n = count.index }
}

resource "mintlify_automation_run" "scheduled" {
  count         = 6
  automation_id = %q
  triggers      = { n = count.index }
}
`, automationByWebhook, automationScheduled))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(*terraform.State) error {
				webhook := 0
				for _, r := range env.Fake.AutomationRuns() {
					if r.Webhook {
						webhook++
					}
				}
				if n := len(env.Fake.AutomationRuns()); n != 12 || webhook != 6 {
					return fmt.Errorf("the fake queued %d runs, %d by webhook; want 12, 6 by webhook", n, webhook)
				}
				if n := env.Fake.TriggersRefused(); n != 0 {
					return fmt.Errorf("the API refused %d triggers with 429, want none", n)
				}
				return nil
			},
		}},
	})
}
