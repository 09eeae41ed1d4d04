package staticexport

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportBundleEphemeral_echo reads the ephemeral link through
// the echo provider, whose only purpose is to show ephemeral values.
func TestAccStaticExportBundleEphemeral_echo(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "ephemeral.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	factories := env.ProviderFactories()
	factories["echo"] = echoprovider.NewProviderServer()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		TerraformVersionChecks:   providertest.EphemeralResources,
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.BundleConfig("docs.example.com", "")+providertest.EphemeralConfig) + `
provider "echo" {
  data = ephemeral.mintlify_static_export_bundle.link
}
resource "echo" "link" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.link", tfjsonpath.New("data").AtMapKey("bundle_url"), knownvalue.StringRegexp(
					regexp.MustCompile(`/bundles/se_[0-9a-f]{16}/bundle\.tar\.gz\?.*X-Amz-Signature=`))),
				statecheck.ExpectKnownValue("echo.link", tfjsonpath.New("data").AtMapKey("expires_at"), knownvalue.StringRegexp(providertest.Rfc3339)),
				statecheck.CompareValuePairs("echo.link", tfjsonpath.New("data").AtMapKey("size_bytes"),
					providertest.BundleAddr, tfjsonpath.New("size_bytes"), compare.ValuesSame()),
				statecheck.CompareValuePairs("echo.link", tfjsonpath.New("data").AtMapKey("job_id"),
					providertest.BundleAddr, tfjsonpath.New("job_id"), compare.ValuesSame()),
			},
		}},
	})
}

// TestAccStaticExportBundleEphemeral_neverStored opens the ephemeral link
// and checks that the only link in state is the managed resource's. The link
// is referenced, from a provider configuration, because that is when every
// engine opens an ephemeral resource: Terraform also opens unreferenced ones,
// OpenTofu does not.
func TestAccStaticExportBundleEphemeral_neverStored(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "ephemeral.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.EphemeralResources,
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.BundleConfig("docs.example.com", "")+providertest.EphemeralConfig) + fmt.Sprintf(`
provider "mintlify" {
  alias      = "link"
  api_key    = %[1]q
  base_url   = %[2]q
  project_id = ephemeral.mintlify_static_export_bundle.link.job_id
}

data "mintlify_static_export_job" "through_link" {
  provider = mintlify.link
  job_id   = mintlify_static_export_bundle.docs.job_id
}
`, fakeapi.DefaultAPIKey, env.URL),
			ConfigStateChecks: []statecheck.StateCheck{signaturesInState(1)},
			Check: func(*terraform.State) error {
				if n := env.Fake.BundlesGenerated(); n < 2 {
					return fmt.Errorf("bundle links generated = %d: the ephemeral resource was never opened", n)
				}
				return nil
			},
		}},
	})
}

func TestAccStaticExportBundleEphemeral_notCompleted(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	job := env.StartExportOutsideTerraform(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   providertest.EphemeralResources,
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
ephemeral "mintlify_static_export_bundle" "link" {
  job_id = %q
}
`, job)),
			ExpectError: providertest.ExpectError("Static Export Not Finished", job+" has not completed", "HTTP 409"),
		}},
	})
}

// signaturesInState counts the distinct presigned links in
// `terraform show -json`.
func signaturesInState(want int) statecheck.StateCheck { return signatureCount{want: want} }

type signatureCount struct{ want int }

func (c signatureCount) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	raw, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	distinct := map[string]bool{}
	for _, m := range providertest.Signature.FindAllStringSubmatch(string(raw), -1) {
		distinct[m[1]] = true
	}
	if len(distinct) != c.want {
		resp.Error = fmt.Errorf("state holds %d distinct presigned links, want %d", len(distinct), c.want)
	}
}

// TestAccStaticExportBundle_linkRevision: a renewal adds one, known at plan
// time; a new resource starts at the Unix time of its first link, so the
// revision grows across a replacement too.
func TestAccStaticExportBundle_linkRevision(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	grows := statecheck.CompareValue(compare.ValuesDiffer())
	cfg := func(commit string) string {
		return env.Config(providertest.BundleConfig("docs.example.com", fmt.Sprintf("triggers = { commit = %q }", commit)))
	}
	var first string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg("a"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("link_revision")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("link_revision"), knownvalue.Int64Func(func(v int64) error {
						if v < providertest.TestStart.Unix() || v > env.Clock.Now().Unix() {
							return fmt.Errorf("link_revision %d is not the Unix time of the first link", v)
						}
						return nil
					})),
					grows.AddStateValue(providertest.BundleAddr, tfjsonpath.New("link_revision")),
				},
				Check: resource.TestCheckResourceAttrWith(providertest.BundleAddr, "link_revision", providertest.Capture(&first)),
			},
			{
				// Renewal of the expired 1h link, 2h later: one more, at plan.
				PreConfig: func() { env.Clock.Advance(2 * time.Hour) },
				Config:    cfg("a"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("link_revision"), knownvalue.Int64Func(func(v int64) error {
						if fmt.Sprint(v-1) != first {
							return fmt.Errorf("planned link_revision %d, want %s + 1", v, first)
						}
						return nil
					})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{grows.AddStateValue(providertest.BundleAddr, tfjsonpath.New("link_revision"))},
			},
			{
				// A new export: a larger revision again.
				PreConfig: func() { env.Clock.Advance(time.Minute) },
				Config:    cfg("b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{grows.AddStateValue(providertest.BundleAddr, tfjsonpath.New("link_revision"))},
			},
		},
	})
}
