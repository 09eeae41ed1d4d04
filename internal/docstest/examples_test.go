package docstest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// readExample returns the .tf files of an examples/ folder, concatenated,
// without their terraform blocks: those name the registry address and the
// state backend, while the acceptance tests serve the provider in-process
// and keep state locally. TestExamplesAsWritten validates every example as
// written, terraform block included. Nothing else is added: the rest of the
// example must stand alone.
func readExample(t *testing.T, dir string, files ...string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range files {
		name := filepath.Join("..", "..", "examples", dir, f)
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("reading the example: %v", err)
		}
		file, diags := hclwrite.ParseConfig(raw, name, hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("parsing the example: %v", diags)
		}
		for _, block := range file.Body().Blocks() {
			if block.Type() == "terraform" {
				file.Body().RemoveBlock(block)
			}
		}
		b.Write(file.Bytes())
		b.WriteString("\n")
	}
	return b.String()
}

// TestAccExampleKeepingTheLinkFresh runs the guide's example: a daily link,
// renewed by default once less than a quarter of its lifetime is left, is
// left alone for 18 hours, then renewed in place.
func TestAccExampleKeepingTheLinkFresh(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 24 * time.Hour}))
	cfg := env.Config(readExample(t, filepath.Join("guides", "keeping-the-link-fresh", "schedule"), "main.tf"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() { env.Clock.Advance(18*time.Hour - time.Minute) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				PreConfig:        func() { env.Clock.Advance(2 * time.Minute) },
				Config:           cfg,
				ConfigPlanChecks: providertest.ExpectRenewalInPlace(bundleAddr),
				Check:            func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 2) },
			},
		},
	})
}

// TestAccExampleImport runs the guide's import block against a job started
// outside Terraform, under the id the example names.
func TestAccExampleImport(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 24 * time.Hour}))
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(time.Minute)
	example := strings.ReplaceAll(readExample(t, filepath.Join("guides", "keeping-the-link-fresh", "import"), "main.tf"),
		"se_3f9a2c1b8e7d4a06", job)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(example),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
			}},
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(bundleAddr, "job_id", job),
				providertest.CheckBundleLinkWorks(bundleAddr),
				func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
			),
		}},
	})
}

// TestAccExampleFollowTheAgent runs the agent guide's example: it waits for
// the job, passes the pull request on, and stops on a failed job.
func TestAccExampleFollowTheAgent(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	env.SeedAgentJobs()
	env.Fake.AddAgentJob(providertest.ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_failing", Repository: "https://github.com/acme/docs", ActiveFor: 5 * time.Minute, FinalStatus: "failed",
	})
	example := readExample(t, filepath.Join("guides", "follow-the-agent", "read-a-job"), "main.tf")
	withJob := func(id string) string {
		return env.Config(strings.Replace(example, `type        = string`, `type        = string`+"\n  default     = \""+id+"\"", 1))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: withJob("aj_active"),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckOutput("docs_pull_request", "https://github.com/acme/docs/pull/42"),
					resource.TestCheckResourceAttr("terraform_data.docs_review", "output.branch", "docs/update-quickstart"),
				),
			},
			{
				Config:      withJob("aj_failing"),
				ExpectError: providertest.ExpectError("Resource precondition failed", "The documentation agent job aj_failing failed."),
			},
		},
	})
}

// TestAccExampleRunningInCI runs the CI guide's configuration with every
// setting taken from the environment, as a pipeline would.
func TestAccExampleRunningInCI(t *testing.T) {
	env := newTestEnv(t)
	t.Setenv(envAPIKey, fakeapi.DefaultAPIKey)
	t.Setenv(envBaseURL, env.URL)
	t.Setenv(envProjectID, providertest.ProjectID)
	example := readExample(t, filepath.Join("guides", "running-in-ci", "pipeline"), "main.tf")
	example = strings.Replace(example, `type        = string`, `type        = string`+"\n  default     = \"4f1c2e9\"", 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: example,
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(bundleAddr, "status", "completed"),
				providertest.CheckBundleLinkWorks(bundleAddr),
			),
		}},
	})
}

// TestAccExampleDataSources runs the registry examples of both data sources.
func TestAccExampleDataSources(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	env.SeedAgentJobs()
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(time.Minute) // the export completes
	agent := strings.Replace(readExample(t, filepath.Join("data-sources", "mintlify_agent_job"), "data-source.tf"),
		`type        = string`, `type        = string`+"\n  default     = \"aj_active\"", 1)
	// The agent job's wait moves the shared virtual clock by about 20
	// minutes while Terraform reads the export in parallel; in real time
	// the two never meet, but here that jump would outlast the export
	// read's 2-minute deadline: give it a longer one.
	export := strings.ReplaceAll(readExample(t, filepath.Join("data-sources", "mintlify_static_export_job"), "data-source.tf"),
		`job_id = "se_3f9a2c1b8e7d4a06"`, `job_id = "`+job+`"`+"\n  timeouts = { read = \"1h\" }")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(agent + export),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckOutput("release_notes_pr", "https://github.com/acme/docs/pull/42"),
				resource.TestCheckOutput("nightly_export", "completed (100%)"),
			),
		}},
	})
}

// TestAccExampleQuickstartNeedsOnlyCredentials applies the quickstart with
// nothing but the environment's credentials: no variable is required, and
// without an agent job id the agent's outputs are null.
func TestAccExampleQuickstartNeedsOnlyCredentials(t *testing.T) {
	env := newTestEnv(t)
	t.Setenv(envAPIKey, fakeapi.DefaultAPIKey)
	t.Setenv(envBaseURL, env.URL)
	t.Setenv(envProjectID, providertest.ProjectID)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: readExample(t, "quickstart", "main.tf"),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckOutput("deployment_status", "success"),
				resource.TestCheckResourceAttr(bundleAddr, "status", "completed"),
				func(s *terraform.State) error {
					if out, ok := s.RootModule().Outputs["agent_job_status"]; ok {
						return fmt.Errorf("agent_job_status = %v without an agent job id, want null", out.Value)
					}
					return nil
				},
			),
		}},
	})
}
