package agentjob

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// newAgentEnv is a test's world with three agent jobs in the fake
// (providertest.Env.SeedAgentJobs): aj_active, aj_nopr and aj_archived.
func newAgentEnv(t *testing.T) *providertest.Env {
	t.Helper()
	env := providertest.NewTestEnv(t)
	env.SeedAgentJobs()
	return env
}

func TestAccAgentJobDataSource_active(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "data.mintlify_agent_job")
	env := newAgentEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobConfig("aj_active", "")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("status"), knownvalue.StringExact("active")),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("source"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"repository": knownvalue.StringExact("https://github.com/acme/docs"),
					"ref":        knownvalue.StringExact("docs/update-quickstart"),
				})),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("model"), knownvalue.StringExact("opus")),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("pr_link"), knownvalue.Null()),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("created_at"), knownvalue.StringExact("2026-11-21T09:00:00Z")),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("archived_at"), knownvalue.Null()),
			},
		}},
	})
}

func TestAccAgentJobDataSource_waitForCompletion(t *testing.T) {
	t.Parallel()
	env := newAgentEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobConfig("aj_active", `wait_for_completion = true`) + `
output "pr" {
  value = data.mintlify_agent_job.this.pr_link
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownOutputValue("pr", knownvalue.StringExact("https://github.com/acme/docs/pull/42")),
			},
		}},
	})
}

// TestAccAgentJobDataSource_waitEndsOnAFailedJob: `failed` is a status the
// data source reads like any other, also when it waits: the read succeeds,
// and the configuration decides what a failed job means.
func TestAccAgentJobDataSource_waitEndsOnAFailedJob(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	env.Fake.AddAgentJob(providertest.ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_failing", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Minute, FinalStatus: "failed",
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobConfig("aj_failing", `wait_for_completion = true`)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("status"), knownvalue.StringExact("failed")),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("pr_link"), knownvalue.Null()),
			},
		}},
	})
}

func TestAccAgentJobDataSource_waitTimesOut(t *testing.T) {
	t.Parallel()
	env := newAgentEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobConfig("aj_active", `
  wait_for_completion = true
  timeouts            = { read = "10m" }`)),
			ExpectError: providertest.ExpectError("Agent Job Still Running", `timeouts = { read = "10m" }`,
				"aj_active in project proj_test", "(10m0s); it was `active`", "keeps running on the Mintlify side",
				"`wait_for_completion = false`", "raise `timeouts.read`"),
		}},
	})
}

func TestAccAgentJobDataSource_nullableFields(t *testing.T) {
	t.Parallel()
	env := newAgentEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobConfig("aj_nopr", "") + `
data "mintlify_agent_job" "archived" {
  id         = "aj_archived"
  project_id = "proj_test"
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("pr_link"), knownvalue.Null()),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("source").AtMapKey("ref"), knownvalue.Null()),
				statecheck.ExpectKnownValue(providertest.AgentAddr, tfjsonpath.New("model"), knownvalue.StringExact("sonnet")),
				statecheck.ExpectKnownValue("data.mintlify_agent_job.archived", tfjsonpath.New("status"), knownvalue.StringExact("archived")),
				statecheck.ExpectKnownValue("data.mintlify_agent_job.archived", tfjsonpath.New("archived_at"), knownvalue.StringExact("2026-11-21T09:01:00Z")),
				statecheck.ExpectKnownValue("data.mintlify_agent_job.archived", tfjsonpath.New("pr_link"), knownvalue.StringExact("https://github.com/acme/docs/pull/7")),
			},
		}},
	})
}

func TestAccAgentJobDataSource_notFound(t *testing.T) {
	t.Parallel()
	env := newAgentEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(providertest.AgentJobConfig("aj_missing", "")),
				ExpectError: providertest.ExpectError("Agent Job Not Found", `no agent job "aj_missing" in project "proj_test"`),
			},
			{
				Config:      env.Config(providertest.AgentJobConfig("aj_active", `project_id = "proj_other"`)),
				ExpectError: providertest.ExpectError("Agent Job Not Found", `no agent job "aj_active" in project "proj_other"`),
			},
		},
	})
}

func TestAccAgentJobDataSource_missingProjectID(t *testing.T) {
	env := newAgentEnv(t)
	t.Setenv(core.Env.ProjectID, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`provider "mintlify" {
  api_key  = %q
  base_url = %q
}
`, fakeapi.DefaultAPIKey, env.URL) + providertest.AgentJobConfig("aj_active", ""),
			ExpectError: providertest.ExpectError("Missing Project ID", "`project_id` on this data source, or `project_id` on the mintlify provider", "`MINTLIFY_PROJECT_ID`"),
		}},
	})
}

// TestAccAgentJobDataSource_badTimeoutRefusedBeforeAnyRequest: a timeout
// that is not a positive duration is an error at plan that names
// `timeouts.read`, before any request.
func TestAccAgentJobDataSource_badTimeoutRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	env := newAgentEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.AgentJobConfig("aj_active", `
  wait_for_completion = true
  timeouts            = { read = "-1m" }`)),
			PlanOnly:    true,
			ExpectError: providertest.ExpectError("Invalid Duration", "The value \"-1m\" of `timeouts.read` must be longer than zero"),
		}},
	})
	if n := len(env.Fake.Requests()); n != 0 {
		t.Errorf("bad input reached the API: %d requests, want 0", n)
	}
}
