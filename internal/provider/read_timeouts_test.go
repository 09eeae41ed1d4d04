package provider

import (
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// hangingAnswers makes every request that match selects hang, as a hung
// API does: the fake's clock moves an hour on and no answer comes, so only
// a deadline ends the wait.
func hangingAnswers(env *acctest.Env, match func(*http.Request) bool) {
	env.Fake.SetFaults(fakeapi.FaultRule{Match: match, Faults: []fakeapi.Fault{fakeapi.Hang(time.Hour)}})
}

// TestAccReadTimeouts_refresh: a refresh against a hung API ends at
// `timeouts.read` (2 minutes by default), and the error names that setting
// and the job being refreshed, for the bundle and for the agent job.
func TestAccReadTimeouts_refresh(t *testing.T) {
	t.Parallel()
	t.Run("bundle", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{
				{Config: providertest.ConfigWithProvider(env, providertest.SlowRequests, providertest.BundleConfig("docs.example.com", ""))},
				{
					PreConfig:    func() { hangingAnswers(env, fakeapi.IsStatusRequest) },
					RefreshState: true,
					ExpectError: acctest.ExpectError("Mintlify Operation Timed Out", "`timeouts.read` (2m0s) ran out while "+
						"refreshing static export job se_", "raise `timeouts.read`", `timeouts = { read = "5m" }`),
				},
			},
		})
	})
	t.Run("agent job", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t, fakeapi.WithProjects(acctest.ProjectID))
		cfg := providertest.ConfigWithProvider(env, providertest.SlowRequests+"\n  project_id = \""+acctest.ProjectID+"\"",
			providertest.AgentJobResourceConfig("Document release 2.3", `timeouts = { read = "1m" }`))
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{
				{Config: cfg},
				{
					PreConfig:    func() { hangingAnswers(env, fakeapi.IsAgentJobRequest) },
					RefreshState: true,
					ExpectError:  acctest.ExpectError("Mintlify Operation Timed Out", "`timeouts.read` (1m0s) ran out while refreshing agent job"),
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
	env := providertest.NewTestEnv(t)
	jobID := env.StartExportOutsideTerraform(t)
	hangingAnswers(env, fakeapi.AnyOf(fakeapi.IsAPIRequest, fakeapi.IsAgentJobRequest))
	factories := env.ProviderFactories()
	factories["echo"] = echoprovider.NewProviderServer()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{
				Config: providertest.ConfigWithProvider(env, providertest.SlowRequests, `
data "mintlify_static_export_job" "job" {
  job_id = "`+jobID+`"
}`),
				ExpectError: acctest.ExpectError("Mintlify Operation Timed Out", "`timeouts.read` (2m0s) ran out while reading static export job "+jobID),
			},
			{
				Config: providertest.ConfigWithProvider(env, providertest.SlowRequests+"\n  project_id = \""+acctest.ProjectID+"\"", `
data "mintlify_agent_job" "job" {
  id       = "aj_any"
  timeouts = { read = "30s" }
}`),
				ExpectError: acctest.ExpectError("Mintlify Operation Timed Out", "`timeouts.read` (30s) ran out while reading agent job aj_any"),
			},
		},
	})
	ephemeral := providertest.ConfigWithProvider(env, providertest.SlowRequests, `
ephemeral "mintlify_static_export_bundle" "link" {
  job_id   = "`+jobID+`"
  timeouts = { open = "1m" }
}
provider "echo" {
  data = ephemeral.mintlify_static_export_bundle.link
}
resource "echo" "link" {}
`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		TerraformVersionChecks:   providertest.EphemeralResources,
		Steps: []resource.TestStep{
			{
				Config:      ephemeral,
				ExpectError: acctest.ExpectError("Mintlify Operation Timed Out", "`timeouts.open` (1m0s) ran out while generating the bundle link of static export job "+jobID),
			},
			// Once the API answers again, the same configuration applies
			// (and the destroy that ends the test, which OpenTofu opens the
			// ephemeral resource for, works).
			{PreConfig: func() { env.Fake.SetFaults() }, Config: ephemeral},
		},
	})
}
