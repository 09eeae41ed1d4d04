package staticexport

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportBundle_importGeneratedConfigToday: a domain-scoped job
// imported with `terraform plan -generate-config-out`, against an API that
// serves today's contract only, keeps its contract: the import's refresh
// takes the job's link, so the generated configuration (`domain = null`, no
// `project_id`) plans no change and adopts the same job, and setting
// `domain` later starts nothing.
func TestAccStaticExportBundle_importGeneratedConfigToday(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	importGeneratedConfig(t)
}

// TestAccStaticExportBundle_importGeneratedConfigBothContracts: the same,
// against an API that serves both contracts, with the provider's
// `project_id` set, which a configuration without `domain` would otherwise
// export.
func TestAccStaticExportBundle_importGeneratedConfigBothContracts(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	importGeneratedConfig(t, providertest.NextAndToday)
}

func importGeneratedConfig(t *testing.T, opts ...fakeapi.Option) {
	t.Helper()
	providertest.SkipUnlessVersion(t, ">= 1.5") // -generate-config-out
	env := providertest.NewTestEnv(t, opts...)
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(time.Minute) // the job completes
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.BundleAddr, job)))
	res := cli.MustRun("plan", "-no-color", "-input=false", "-generate-config-out=generated.tf")
	generated := cli.ReadFile("generated.tf")
	for _, unwanted := range []string{"project_id    =", "must be replaced", "(known after apply)"} {
		if strings.Contains(res.Output, unwanted) {
			t.Errorf("the plan of the generated configuration shows %q:\n%s\n%s", unwanted, res, generated)
		}
	}
	if !strings.Contains(res.Output, "1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Errorf("the plan of the generated configuration is not a plain import:\n%s\n%s", res, generated)
	}
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	inst := cli.Instance(providertest.BundleAddr)
	if inst.Attr("job_id") != job || inst.Attr("project_id") != "" || inst.Attr("bundle_url") == "" {
		t.Errorf("state: job_id %q (want %s), project_id %q (want null), bundle_url %q",
			inst.Attr("job_id"), job, inst.Attr("project_id"), inst.Attr("bundle_url"))
	}
	expectPlanExit(t, cli, 0)

	// Naming the domain the API never returned describes the job: an
	// update in place, no new export and no new link.
	cli.WriteFile("generated.tf", strings.Replace(generated, "domain         = null",
		`domain         = "docs.example.com"`, 1))
	if res := expectPlanExit(t, cli, 2); strings.Contains(res.Output, "must be replaced") {
		t.Errorf("setting `domain` of the imported job replaces it:\n%s", res)
	}
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	expectPlanExit(t, cli, 0)
	// One link for each plan that imported the job: the plan and the
	// apply's own plan.
	expectLinks(t, env, 2)
}

// TestAccStaticExportBundle_importGeneratedConfigProjectScoped: the same for
// a project-scoped job, whose link the import's refresh reads from the job.
func TestAccStaticExportBundle_importGeneratedConfigProjectScoped(t *testing.T) {
	t.Parallel()
	providertest.SkipUnlessVersion(t, ">= 1.5") // -generate-config-out
	env := providertest.NewTestEnv(t, providertest.NextAndToday)
	job := providertest.StartProjectExportOutsideTerraform(t, env, providertest.ProjectID)
	env.Clock.Advance(time.Minute)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.BundleAddr,
		providertest.ProjectID+"/"+job)))
	res := cli.MustRun("plan", "-no-color", "-input=false", "-generate-config-out=generated.tf")
	if !strings.Contains(res.Output, "1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Errorf("the plan of the generated configuration is not a plain import:\n%s\n%s", res, cli.ReadFile("generated.tf"))
	}
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	if inst := cli.Instance(providertest.BundleAddr); inst.Attr("job_id") != job || inst.Attr("bundle_url") == "" {
		t.Errorf("state: job_id %q (want %s), bundle_url %q", inst.Attr("job_id"), job, inst.Attr("bundle_url"))
	}
	expectPlanExit(t, cli, 0)
	if p := providertest.ProjectStarts(env); p != 1 {
		t.Errorf("project-scoped exports started: %d, want only the one started outside Terraform", p)
	}
}

// TestAccStaticExportBundle_importWithReadOnlyKey: a read-only key cannot
// generate the link of a domain-scoped job (a POST), so the import's plan
// shows the link as known after apply, instead of failing.
func TestAccStaticExportBundle_importWithReadOnlyKey(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(time.Minute)
	env.Fake.SetKeyLimits(fakeapi.KeyLimits{ReadOnly: true})
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.BundleAddr, job) +
		providertest.BundleConfig("docs.example.com", "")))
	res := cli.MustRun("plan", "-no-color", "-input=false")
	if !strings.Contains(res.Output, "1 to import, 0 to add, 1 to change, 0 to destroy") ||
		!strings.Contains(res.Output, "bundle_url") {
		t.Errorf("the plan does not show the link as known after apply:\n%s", res)
	}
	if err := env.ExpectExportJobsAndLinks(1, 0); err != nil {
		t.Error(err)
	}
}

// TestAccStaticExportBundle_importOfAnotherContractRefused: right after an
// import, a configuration of the other contract than the job's is refused
// at plan, naming the argument to add, before the job is adopted.
func TestAccStaticExportBundle_importOfAnotherContractRefused(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.NextAndToday)
	domainJob := env.StartExportOutsideTerraform(t)
	projectJob := providertest.StartProjectExportOutsideTerraform(t, env, providertest.ProjectID)
	env.Clock.Advance(time.Minute)
	importOf := func(id, body string) string {
		return env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.BundleAddr, id) + body)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: importOf(domainJob, providertest.ProjectBundleConfig(fmt.Sprintf("project_id = %q", providertest.ProjectID))),
				ExpectError: providertest.ExpectError("Imported Job Is Domain-Scoped", domainJob,
					"Add `domain` with the hostname the job exported", "PROJECT_ID/"+domainJob),
			},
			{
				Config: importOf(providertest.ProjectID+"/"+projectJob, providertest.BundleConfig("docs.example.com", "")),
				ExpectError: providertest.ExpectError("Imported Job Is Project-Scoped", projectJob,
					"Remove `domain`", fmt.Sprintf("add `project_id = %q`", providertest.ProjectID)),
			},
		},
	})
	// Only the two jobs started outside Terraform.
	if d, p := env.Fake.ExportJobsStarted(), providertest.ProjectStarts(env); d != 1 || p != 1 {
		t.Errorf("exports started: %d domain-scoped, %d project-scoped; want 1 of each", d, p)
	}
}

// TestAccStaticExportBundle_importedDomainJobNeedsDomainToReplace: a job
// imported by its id and adopted without `domain` keeps working (its first
// `triggers` describe it), but a plan that would replace it (here, a change
// of `triggers`) is refused, naming `domain`, since the new export needs it.
func TestAccStaticExportBundle_importedDomainJobNeedsDomainToReplace(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.NextAndToday)
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(time.Minute)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.BundleAddr, job) +
				providertest.ProjectBundleConfig(`triggers = { docs_commit = "a1" }`))},
			{
				Config:      env.Config(providertest.ProjectBundleConfig(`triggers = { docs_commit = "c0ffee" }`)),
				ExpectError: providertest.ExpectError("Missing Static Export Domain", job, "Add `domain`"),
			},
		},
	})
	if err := env.ExpectExportJobsAndLinks(1, 1); err != nil {
		t.Error(err)
	}
}

// TestAccStaticExportBundle_importCommandThenTriggers: a completed job
// imported with `terraform import` gets its link at once; the next plan
// takes `triggers` from configuration in place, since the API never
// returned them, and only a later change of `triggers` starts a new export.
func TestAccStaticExportBundle_importCommandThenTriggers(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(time.Minute)
	withTriggers := func(commit string) string {
		return env.Config(providertest.BundleConfig("docs.example.com", fmt.Sprintf("triggers = { docs_commit = %q }", commit)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:             withTriggers("a1"),
				ResourceName:       providertest.BundleAddr,
				ImportState:        true,
				ImportStateId:      job,
				ImportStatePersist: true,
			},
			{
				Config: withTriggers("a1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", job),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
				),
			},
			{
				Config: withTriggers("b2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionReplace),
				}},
				Check: func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 2) },
			},
		},
	})
}
