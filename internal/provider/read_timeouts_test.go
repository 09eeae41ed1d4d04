package provider

import (
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// hangingAnswers makes every request that match selects take an hour on
// the fake's clock, as a hung API does: only a deadline ends the wait.
func hangingAnswers(env *testEnv, match func(*http.Request) bool) {
	env.fake.SetFaults(fakeapi.FaultRule{Match: match, Faults: []fakeapi.Fault{fakeapi.SlowResponse(time.Hour)}})
}

// TestAccReadTimeouts_refresh: a refresh against a hung API ends at
// `timeouts.read` (2 minutes by default), and the error names that setting
// and the job being refreshed, for the bundle and for the agent job.
func TestAccReadTimeouts_refresh(t *testing.T) {
	t.Parallel()
	t.Run("bundle", func(t *testing.T) {
		t.Parallel()
		env := newTestEnv(t)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.factories(),
			Steps: []resource.TestStep{
				{Config: env.configWithProvider(slowRequests, bundleConfig("docs.example.com", ""))},
				{
					PreConfig:    func() { hangingAnswers(env, fakeapi.IsStatusRequest) },
					RefreshState: true,
					ExpectError: expectError("Mintlify Operation Timed Out", "`timeouts.read` (2m0s) ran out while "+
						"refreshing static export job se_", "raise `timeouts.read`", `timeouts = { read = "5m" }`),
				},
			},
		})
	})
	t.Run("agent job", func(t *testing.T) {
		t.Parallel()
		env := newTestEnv(t, fakeapi.WithProjects(testProjectID))
		cfg := env.configWithProvider(slowRequests+"\n  project_id = \""+testProjectID+"\"",
			agentJobResourceConfig("Document release 2.3", `timeouts = { read = "1m" }`))
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.factories(),
			Steps: []resource.TestStep{
				{Config: cfg},
				{
					PreConfig:    func() { hangingAnswers(env, fakeapi.IsAgentJobRequest) },
					RefreshState: true,
					ExpectError:  expectError("Mintlify Operation Timed Out", "`timeouts.read` (1m0s) ran out while refreshing agent job"),
				},
			},
		})
	})
}

// TestAccReadTimeouts_dataSourcesAndEphemeral: a data source read and an
// ephemeral link against a hung API end at their own deadline, which the
// error names.
func TestAccReadTimeouts_dataSourcesAndEphemeral(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	jobID := startJobDirectly(t, env)
	hangingAnswers(env, fakeapi.AnyOf(fakeapi.IsAPIRequest, fakeapi.IsAgentJobRequest))
	factories := env.factories()
	factories["echo"] = echoprovider.NewProviderServer()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{
				Config: env.configWithProvider(slowRequests, `
data "mintlify_static_export_job" "job" {
  job_id = "`+jobID+`"
}`),
				ExpectError: expectError("Mintlify Operation Timed Out", "`timeouts.read` (2m0s) ran out while reading static export job "+jobID),
			},
			{
				Config: env.configWithProvider(slowRequests+"\n  project_id = \""+testProjectID+"\"", `
data "mintlify_agent_job" "job" {
  id       = "aj_any"
  timeouts = { read = "30s" }
}`),
				ExpectError: expectError("Mintlify Operation Timed Out", "`timeouts.read` (30s) ran out while reading agent job aj_any"),
			},
		},
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		TerraformVersionChecks:   ephemeralResources,
		Steps: []resource.TestStep{{
			Config: env.configWithProvider(slowRequests, `
ephemeral "mintlify_static_export_bundle" "link" {
  job_id   = "`+jobID+`"
  timeouts = { open = "1m" }
}
provider "echo" {
  data = ephemeral.mintlify_static_export_bundle.link
}
resource "echo" "link" {}
`),
			ExpectError: expectError("Mintlify Operation Timed Out", "`timeouts.open` (1m0s) ran out while generating the bundle link of static export job "+jobID),
		}},
	})
}
