package staticexport

import (
	"fmt"
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

// TestAccStaticExportBundle_project: without `domain`, the bundle exports
// the provider's project under the project-scoped contract, with its base
// path; `page_count` and `progress` are null, as the contract reports
// neither. Refresh-only runs are quiet while the link is fresh; a due link
// is renewed by reading the job, with a read-only key, without a new job,
// and `link_revision` grows by one.
func TestAccStaticExportBundle_project(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t, providertest.NextOnly)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.ProjectBundleConfig(`base_path = "/docs"`)))
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	first := cli.Instance(providertest.BundleAddr)
	for name, want := range map[string]any{"project_id": providertest.ProjectID, "base_path": "/docs", "status": "completed",
		"domain": nil, "page_count": nil, "progress": nil} {
		if got := first.Attrs[name]; got != want {
			t.Errorf("%s = %#v, want %#v", name, got, want)
		}
	}
	if url := first.Attr("bundle_url"); !strings.Contains(url, "/export.zip?") {
		t.Errorf("bundle_url = %q, want the link to the job's ZIP archive", url)
	}
	if n := providertest.ProjectStarts(env); n != 1 {
		t.Fatalf("%d project-scoped starts, want 1", n)
	}

	env.Clock.Advance(30 * time.Minute) // the link is fresh, though every read of the job carries a new one
	before := cli.ReadFile("terraform.tfstate")
	if res := cli.Run("plan", "-refresh-only", "-detailed-exitcode", "-no-color", "-input=false"); res.Exit != 0 &&
		(res.Exit != 2 || refreshOnlyQuirk(t, "bundle") == "") {
		t.Fatalf("a drift check reports a change where nothing changed:\n%s", res)
	}
	cli.MustRun("apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")
	if after := cli.ReadFile("terraform.tfstate"); quietState(t, after) != quietState(t, before) {
		t.Fatalf("apply -refresh-only rewrote the state:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	expectPlanExit(t, cli, 0)

	env.Clock.Advance(70 * time.Minute) // 20 minutes left: due
	env.Fake.SetKeyLimits(fakeapi.KeyLimits{ReadOnly: true})
	res := expectPlanExit(t, cli, 2)
	if !strings.Contains(res.Output, providertest.BundleAddr+" will be updated in-place") {
		t.Fatalf("the plan does not renew the link in place:\n%s", res)
	}
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	renewed := cli.Instance(providertest.BundleAddr)
	if renewed.Attr("job_id") != first.Attr("job_id") || renewed.Attr("bundle_url") == first.Attr("bundle_url") {
		t.Fatalf("the renewal did not give the same job a new link: job %s -> %s", first.Attr("job_id"), renewed.Attr("job_id"))
	}
	if got, want := linkRevision(renewed), linkRevision(first)+1; got != want {
		t.Errorf("link_revision = %d, want %d", got, want)
	}
	if n := providertest.ProjectStarts(env); n != 1 {
		t.Errorf("%d project-scoped starts after the renewal, want 1: renewal is a read", n)
	}
	expectPlanExit(t, cli, 0)
}

// TestAccStaticExportBundle_projectImport: a project-scoped export is
// imported by `PROJECT_ID/JOB_ID` and by an identity that names its
// project, adopted in place with a link, no new export.
func TestAccStaticExportBundle_projectImport(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t, providertest.NextOnly)
	var jobID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.IdentityVersions,
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.ProjectBundleConfig("")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("job_id"), providertest.ProjectJobID),
				statecheck.ExpectIdentity(providertest.BundleAddr, map[string]knownvalue.Check{
					"job_id": providertest.ProjectJobID, "project_id": knownvalue.StringExact(providertest.ProjectID),
				}),
			},
			Check: resource.TestCheckResourceAttrWith(providertest.BundleAddr, "job_id", providertest.Capture(&jobID)),
		}},
	})
	for _, byIdentity := range []bool{false, true} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			TerraformVersionChecks:   providertest.IdentityVersions,
			Steps: []resource.TestStep{{
				Config: env.Config(projectImportBlock(byIdentity, jobID) + providertest.ProjectBundleConfig("")),
				// The import's refresh takes the completed job's link: a
				// configuration of no argument plans no change.
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", jobID),
					resource.TestCheckResourceAttr(providertest.BundleAddr, "project_id", providertest.ProjectID),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error {
						if n := providertest.ProjectStarts(env); n != 1 {
							return fmt.Errorf("%d project-scoped starts, want 1: an import starts nothing", n)
						}
						return nil
					},
				),
			}},
		})
	}
}

// projectImportBlock is an import block for the bundle by id or identity.
func projectImportBlock(byIdentity bool, jobID string) string {
	if byIdentity {
		return fmt.Sprintf("import {\n  to       = %s\n  identity = { job_id = %q, project_id = %q }\n}\n",
			providertest.BundleAddr, jobID, providertest.ProjectID)
	}
	return fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.BundleAddr, providertest.ProjectID+"/"+jobID)
}
