package staticexport

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportBundle_retirementPlansNoDestroy: a bundle exported
// with `domain` while the API served both contracts, planned once the API
// serves only the project-scoped one (its retired calls answered 404 as a
// path without a route, or 410): the refresh keeps the job, the plan
// neither replaces nor destroys and says what to change, and the move to
// `project_id` then starts one export.
func TestAccStaticExportBundle_retirementPlansNoDestroy(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	for _, status := range []int{404, 410} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			before := providertest.NewTestEnv(t, providertest.NextAndToday)
			cliBefore := before.CLI(t)
			cliBefore.WriteConfig(before.Config(providertest.BundleConfig("docs.example.com", "")))
			cliBefore.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
			jobID := cliBefore.Instance(providertest.BundleAddr).Attr("job_id")

			// Unchecked: the API's description documents neither answer of a retired call.
			env := providertest.NewUncheckedTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext, RetiredStatus: status}}))
			cli := env.CLI(t)
			cli.WriteFile("terraform.tfstate", cliBefore.ReadFile("terraform.tfstate"))
			cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com", "")))
			providertest.ExpectRetiredPlan(t, expectPlanExit(t, cli, 0), jobID)
			cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
			if got := cli.Instance(providertest.BundleAddr).Attr("job_id"); got != jobID {
				t.Errorf("after the apply, job_id %q, want %q kept", got, jobID)
			}

			cli.WriteConfig(env.Config(providertest.ProjectBundleConfig("")))
			cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
			if n := providertest.ProjectStarts(env); n != 1 {
				t.Errorf("%d project-scoped starts, want 1", n)
			}
		})
	}
}

// TestAccStaticExportBundle_projectScopedNotServed: against an API that
// serves today's contract only, a project-scoped bundle is refused as the
// API not serving the contract, never as a project that does not exist.
func TestAccStaticExportBundle_projectScopedNotServed(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.ProjectBundleConfig("")),
			ExpectError: providertest.ExpectError("Project-Scoped Static Export Not Served", "has no route",
				"project "+providertest.ProjectID+" is not the cause", "set `domain`", "No job was started"),
		}},
	})
	if n := env.WorkRequests(); n != 1 {
		t.Errorf("%d requests besides the key check, want the one start", n)
	}
}
