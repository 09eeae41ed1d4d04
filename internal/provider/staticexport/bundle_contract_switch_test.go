package staticexport

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// fixtureJob is the export job of testdata/bundle_state_b7a625f.tfstate,
// and fixtureArgs the arguments it was written with (testdata/README.md).
const (
	fixtureJob  = "se_0f1e2d3c4b5a6978"
	fixtureArgs = `version = "2026-11-01"
  paths   = ["index", "guides/getting-started"]
  renew_triggers = { chart = "1.0.0" }`
)

// TestAccStaticExportBundle_stateFromBeforeProjectExports: a state written
// by the provider before the project-scoped contract plans no change with
// the same configuration, against an API that serves both contracts; moving
// the configuration from `domain` to the project replaces the export once.
func TestAccStaticExportBundle_stateFromBeforeProjectExports(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env, cli := stateFromB7a625f(t)
	samePlansNothingThenMoveStartsOne(t, env, cli)
}

// TestAccStaticExportBundle_identityFromBeforeProjectExports: a state
// whose identity the provider of 9da46d7 wrote (`{"job_id": …}`, identity
// version 0, before `project_id` joined it), under the CLI of the test
// (testdata/README.md): the identity is upgraded, the same configuration
// plans no change, and moving to the project starts one export.
func TestAccStaticExportBundle_identityFromBeforeProjectExports(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env, cli := stateWithFixture(t, fixture9da46d7(t))
	samePlansNothingThenMoveStartsOne(t, env, cli)
}

// fixture9da46d7 is the state the provider of 9da46d7 wrote under the CLI
// of the test, or the one nearest to it: OpenTofu's records its provider
// at registry.opentofu.org, the host the test serves the provider at under
// OpenTofu; Terraform wrote an identity from 1.12 on.
func fixture9da46d7(t *testing.T) string {
	switch {
	case os.Getenv("TF_ACC_PROVIDER_HOST") == "registry.opentofu.org":
		return "testdata/bundle_state_9da46d7_tofu-1.12.6.tfstate"
	case !providertest.VersionMeets(t, ">= 1.6"):
		return "testdata/bundle_state_9da46d7_terraform-1.5.7.tfstate"
	case !providertest.VersionMeets(t, ">= 1.12"):
		return "testdata/bundle_state_9da46d7_terraform-1.11.4.tfstate"
	}
	return "testdata/bundle_state_9da46d7_terraform-1.16.4.tfstate"
}

// samePlansNothingThenMoveStartsOne plans the state's own configuration
// (no change), then moves it from `domain` to the project: one
// replacement, one project-scoped export, and no change after it.
func samePlansNothingThenMoveStartsOne(t *testing.T, env *providertest.Env, cli *providertest.CLI) {
	t.Helper()
	expectPlanExit(t, cli, 0)

	cli.WriteConfig(env.Config(providertest.ProjectBundleConfig(`renew_triggers = { chart = "1.0.0" }`)))
	res := expectPlanExit(t, cli, 2)
	if !strings.Contains(res.Output, "must be replaced") || !strings.Contains(res.Output, "1 to add, 0 to change, 1 to destroy") {
		t.Fatalf("moving to the project does not replace the export once:\n%s", res)
	}
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if n := providertest.ProjectStarts(env); n != 1 {
		t.Fatalf("%d project-scoped starts, want 1", n)
	}
	if got := cli.Instance(providertest.BundleAddr).Attr("project_id"); got != providertest.ProjectID {
		t.Fatalf("project_id = %q, want %q", got, providertest.ProjectID)
	}
	expectPlanExit(t, cli, 0)
}

// stateFromB7a625f is a working directory holding the state the provider of
// b7a625f wrote (testdata/README.md), with that state's configuration,
// against an API that serves both contracts and still has the state's job.
func stateFromB7a625f(t *testing.T) (*providertest.Env, *providertest.CLI) {
	t.Helper()
	// The state as a user of the CLI under test has it. Terraform 1.5.7
	// records no schema-sensitive attribute in `sensitive_attributes`, and
	// plans an update (of nothing shown) for a state that lists them, as
	// every later CLI writes it.
	fixtureFile := "testdata/bundle_state_b7a625f.tfstate"
	if !providertest.VersionMeets(t, ">= 1.6") {
		fixtureFile = "testdata/bundle_state_b7a625f_terraform-1.5.7.tfstate"
	}
	return stateWithFixture(t, fixtureFile)
}

// stateWithFixture is a working directory holding the state fixtureFile
// (of the job fixtureJob, written from fixtureArgs), with that state's
// configuration, against an API that serves both contracts and still has
// the state's job.
func stateWithFixture(t *testing.T, fixtureFile string) (*providertest.Env, *providertest.CLI) {
	t.Helper()
	env := providertest.NewTestEnv(t, providertest.NextAndToday, fakeapi.WithHostile(fakeapi.HostileOptions{JobIDs: func() string { return fixtureJob }}))
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(env.URL), mintlify.WithClock(env.Clock))
	if err != nil {
		t.Fatal(err)
	}
	// The job the state names, as the API still has it.
	if _, err := c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com",
		Version: "2026-11-01", Paths: []string{"index", "guides/getting-started"}}); err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(time.Minute)
	fixture, err := os.ReadFile(fixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	cli := env.CLI(t)
	cli.WriteFile("terraform.tfstate", string(fixture))
	cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com", fixtureArgs)))
	return env, cli
}

// TestAccStaticExportBundle_domainRetired: the same configuration with
// `domain`, against an API that serves both contracts, then only the
// project-scoped one: the error says what to change, and the start is
// tried once, never repeated.
func TestAccStaticExportBundle_domainRetired(t *testing.T) {
	t.Parallel()
	cfg := func(env *providertest.Env) string {
		return env.Config(providertest.BundleConfig("docs.example.com", ""))
	}
	both := providertest.NewTestEnv(t, providertest.NextAndToday)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: both.ProviderFactories(),
		Steps:                    []resource.TestStep{{Config: cfg(both), Check: providertest.CheckBundleLinkWorks(providertest.BundleAddr)}},
	})
	for _, status := range []int{404, 410} {
		// Unchecked: the API's description documents neither answer of a
		// retired call.
		next := providertest.NewUncheckedTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext, RetiredStatus: status}}))
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: next.ProviderFactories(),
			Steps: []resource.TestStep{{Config: cfg(next), ExpectError: providertest.ExpectError("Domain-Scoped Static Export Retired",
				"no longer serves", "remove `domain`, `version` and `paths`, and set `project_id`", "No job was started")}},
		})
		if n := next.WorkRequests(); n != 1 {
			t.Errorf("HTTP %d: %d requests, want the one start", status, n)
		}
	}
}
