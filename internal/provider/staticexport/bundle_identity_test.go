package staticexport

import (
	"fmt"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportBundle_identity: a bundle's identity is its job; an
// import block with that identity adopts an export exactly as importing by
// id does: an in-place update that generates a link, no new export.
func TestAccStaticExportBundle_identity(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	cfg := env.Config(providertest.BundleConfig("docs.example.com", ""))
	adoptedJob := env.StartExportOutsideTerraform(t) // outside Terraform, by a CI script
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.IdentityVersions,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(providertest.BundleAddr, map[string]knownvalue.Check{"job_id": providertest.KnownJobID(), "project_id": knownvalue.Null()}),
					statecheck.ExpectIdentityValueMatchesState(providertest.BundleAddr, tfjsonpath.New("job_id")),
				},
			},
			{
				// The framework's own round trip: import by the identity in state.
				ResourceName:       providertest.BundleAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{Config: env.Config("")},
			{
				// A job started elsewhere, adopted by identity and applied.
				Config: env.Config(fmt.Sprintf("import {\n  to       = %s\n  identity = { job_id = %q }\n}\n", providertest.BundleAddr, adoptedJob) +
					providertest.BundleConfig("docs.example.com", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", adoptedJob),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					// A link for the create, and one for each import's refresh.
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 3) },
				),
			},
		},
	})
}

// TestUpgradeBundleIdentityV0: an identity of version 0 in either shape it
// was written in, or none at all, upgrades to version 1; anything else is
// refused with what to do.
func TestUpgradeBundleIdentityV0(t *testing.T) {
	t.Parallel()
	var schemaResp fwresource.IdentitySchemaResponse
	(&staticExportBundleResource{}).IdentitySchema(t.Context(), fwresource.IdentitySchemaRequest{}, &schemaResp)
	idType := schemaResp.IdentitySchema.Type().TerraformType(t.Context())
	for raw, want := range map[string]string{
		`{"job_id":"se_1"}`:                   `{job_id: "se_1", project_id: <null>}`,
		`{"job_id":"6520f","project_id":"p"}`: `{job_id: "6520f", project_id: "p"}`,
		``:                                    `{job_id: <null>, project_id: <null>}`,
		`{"project_id":"p"}`:                  "Unreadable Resource Identity",
	} {
		resp := fwresource.UpgradeIdentityResponse{Identity: &tfsdk.ResourceIdentity{Schema: schemaResp.IdentitySchema, Raw: tftypes.NewValue(idType, nil)}}
		upgradeBundleIdentityV0(t.Context(), fwresource.UpgradeIdentityRequest{RawIdentity: &tfprotov6.RawState{JSON: []byte(raw)}}, &resp)
		var got staticExportBundleIdentityModel
		resp.Diagnostics.Append(resp.Identity.Get(t.Context(), &got)...)
		if resp.Diagnostics.HasError() {
			if s := resp.Diagnostics[0].Summary(); s != want {
				t.Errorf("%s: %s: %s", raw, s, resp.Diagnostics[0].Detail())
			}
			continue
		}
		if s := fmt.Sprintf("{job_id: %s, project_id: %s}", got.JobID, got.ProjectID); s != want {
			t.Errorf("%s upgraded to %s, want %s", raw, s, want)
		}
	}
}
