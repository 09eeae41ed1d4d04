//go:build live

package provider

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// liveEnvironment names what the live tests need, and why.
var liveEnvironment = []struct{ name, why string }{
	{core.Env.APIKey, "an admin API key of an organization with static export enabled"},
	{"MINTLIFY_LIVE_DOMAIN", "the bare hostname of one of its deployments, such as docs.example.com"},
	{core.Env.ProjectID, "the project ID from the API keys page of the Mintlify dashboard"},
}

// livePreCheck fails, never skips or panics, when the environment is
// incomplete: someone who runs `make test-live` wants the live API. It
// finds the CLI, which terraform-plugin-testing would otherwise download.
func livePreCheck(t *testing.T) {
	t.Helper()
	providertest.CLIPath(t)
	var missing []string
	for _, v := range liveEnvironment {
		if os.Getenv(v.name) == "" {
			missing = append(missing, fmt.Sprintf("  %s: %s", v.name, v.why))
		}
	}
	if len(missing) > 0 {
		t.Fatalf("the live tests call the real Mintlify API and need these environment variables:\n%s",
			strings.Join(missing, "\n"))
	}
}

// liveFactories runs the provider in the test process, as released: the real
// clock and net/http, configured from the environment.
func liveFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"mintlify": providerserver.NewProtocol6WithError(New("live")()),
	}
}

// TestLiveStaticExportBundle exports the live domain, downloads the bundle,
// plans again (no changes), reads the job through the data source, and
// imports the job into a second resource without starting another export.
func TestLiveStaticExportBundle(t *testing.T) {
	livePreCheck(t)
	domain := os.Getenv("MINTLIFY_LIVE_DOMAIN")
	cfg := providertest.BundleConfig(domain, `timeouts = { create = "45m" }`) + `
data "mintlify_static_export_job" "docs" {
  job_id = mintlify_static_export_bundle.docs.job_id
}
`
	var jobID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: liveFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(providertest.BundleAddr, "status", "completed"),
					resource.TestCheckResourceAttr("data.mintlify_static_export_job.docs", "status", "completed"),
					resource.TestCheckResourceAttrWith(providertest.BundleAddr, "job_id", providertest.Capture(&jobID)),
					checkLiveLinkDownloads,
				),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:       cfg,
				ResourceName: providertest.BundleAddr,
				ImportState:  true,
				ImportStateIdFunc: func(*terraform.State) (string, error) {
					return jobID, nil
				},
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: liveImportIgnore,
			},
		},
	})
}

// liveImportIgnore lists what an import cannot know until its first apply:
// the inputs the API does not return, and the link, which the import
// generates afresh.
var liveImportIgnore = []string{
	"domain", "version", "paths", "triggers", "renew_before", "timeouts",
	"bundle_url", "size_bytes", "expires_at", "helm_values", "link_revision", "renew_triggers",
}

// checkLiveLinkDownloads downloads the bundle link in state and checks that
// it is a gzip archive.
func checkLiveLinkDownloads(s *terraform.State) error {
	link := s.RootModule().Resources[providertest.BundleAddr].Primary.Attributes["bundle_url"]
	resp, err := http.Get(link) //nolint:gosec // the link is the API's own answer
	if err != nil {
		return fmt.Errorf("downloading the bundle: %w", err) // net/http's error omits the query
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("downloading the bundle: HTTP %d", resp.StatusCode)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		return fmt.Errorf("the bundle is not a gzip archive: %w", err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil || n == 0 {
		return fmt.Errorf("reading the bundle: %d bytes, %v", n, err)
	}
	return nil
}

// TestLiveAgentJobNotFound reads an agent job that cannot exist: the live API
// answers 404 for the project of MINTLIFY_PROJECT_ID, and the data source
// says so in its own words. It starts nothing.
func TestLiveAgentJobNotFound(t *testing.T) {
	livePreCheck(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: liveFactories(),
		Steps: []resource.TestStep{{
			Config: `
data "mintlify_agent_job" "missing" {
  id = "terraform-provider-mintlify-live-test-no-such-job"
}
`,
			ExpectError: providertest.ExpectError("Agent Job Not Found", "terraform-provider-mintlify-live-test-no-such-job"),
		}},
	})
}
