package staticexport

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// noLinkPlanned: the plan shows bundle_url and helm_values as null already,
// so whatever references them sees null at plan time.
func noLinkPlanned(action plancheck.ResourceActionType) []plancheck.PlanCheck {
	return []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(providertest.BundleAddr, action),
		plancheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url"), knownvalue.Null()),
		plancheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("helm_values"), knownvalue.Null()),
	}
}

// TestAccStaticExportBundle_storeLinkFalse: with `store_link = false` no
// link is kept in state, while expires_at and link_revision still describe
// the latest link; renewal runs as usual, and link_revision grows with it.
// Turning `store_link` on generates a fresh link in place; turning it off
// forgets the link without a request.
func TestAccStaticExportBundle_storeLinkFalse(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	var revision string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:           providertest.StoreLinkConfig(env, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: noLinkPlanned(plancheck.ResourceActionCreate)},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("helm_values"), knownvalue.Null()),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("expires_at"), knownvalue.StringRegexp(providertest.Rfc3339)),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("size_bytes"), knownvalue.Int64Func(providertest.Positive)),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("store_link"), knownvalue.Bool(false)),
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(providertest.BundleAddr, "link_revision", providertest.Capture(&revision)),
					noSignatureInState,
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
				),
				// Nothing is due: the plans right after the apply (the
				// framework's own, a refresh plan among them) are empty, no
				// perpetual diff.
			},
			{
				// 10 of 60 minutes left: renewed in place, still not stored,
				// and link_revision is known at plan time to have grown.
				PreConfig: func() { env.Clock.Advance(50 * time.Minute) },
				Config:    providertest.StoreLinkConfig(env, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(noLinkPlanned(plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("expires_at")),
					plancheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("link_revision"), knownvalue.Int64Func(revisionPlus(&revision, 1))),
					plancheck.ExpectResourceAction("terraform_data.release", plancheck.ResourceActionUpdate),
				)},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(providertest.BundleAddr, "link_revision", providertest.Capture(&revision)),
					resource.TestCheckResourceAttrWith(providertest.BundleAddr, "expires_at", expiresAfter(env, 59*time.Minute)),
					resource.TestCheckNoResourceAttr(providertest.BundleAddr, "bundle_url"),
					noSignatureInState,
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 2) },
				),
			},
			{
				// Turned on: the state holds no link to keep, so a fresh one
				// is generated for the same export.
				Config: providertest.StoreLinkConfig(env, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url")),
					plancheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("link_revision"), knownvalue.Int64Func(revisionPlus(&revision, 1))),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(providertest.BundleAddr, "link_revision", providertest.Capture(&revision)),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 3) },
				),
			},
			{
				// Turned off: the link leaves state, without a request. The
				// CLI plans again at apply, when the link may be due, so
				// the plan shows link_revision as known after apply.
				Config: providertest.StoreLinkConfig(env, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(noLinkPlanned(plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("link_revision")),
				)},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPtr(providertest.BundleAddr, "link_revision", &revision),
					noSignatureInState,
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 3) },
				),
				// Then the plans right after the apply (the framework's own,
				// a refresh plan among them) are empty.
			},
		},
	})
}

// TestAccStaticExportBundle_storeLinkFalseHelmValuesIsNull: a reference to
// helm_values with `store_link = false` is null at plan time, so a
// precondition, a `values` list or a module input that needs it fails in
// the plan, before any export starts.
func TestAccStaticExportBundle_storeLinkFalseHelmValuesIsNull(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.BundleConfig("docs.example.com", "store_link = false") + `
resource "terraform_data" "release" {
  input = mintlify_static_export_bundle.docs.helm_values
  lifecycle {
    precondition {
      condition     = mintlify_static_export_bundle.docs.helm_values != null
      error_message = "helm_values is null: store_link is false."
    }
  }
}
`),
			ExpectError: providertest.ExpectError("Resource precondition failed", "helm_values is null: store_link is false."),
		}},
	})
	if n := env.Fake.ExportJobsStarted(); n != 0 {
		t.Errorf("export jobs started = %d, want 0: the plan should have stopped first", n)
	}
}

// noSignatureInState fails when any attribute in state holds a presigned
// link's signature.
func noSignatureInState(s *terraform.State) error {
	for addr, r := range s.RootModule().Resources {
		for name, v := range r.Primary.Attributes {
			if strings.Contains(v, "X-Amz-Signature") {
				return fmt.Errorf("%s.%s holds a presigned link", addr, name)
			}
		}
	}
	return nil
}

// revisionPlus checks a planned link_revision against the captured one.
func revisionPlus(prev *string, add int64) func(int64) error {
	return func(v int64) error {
		p, err := strconv.ParseInt(*prev, 10, 64)
		if err != nil {
			return err
		}
		if v != p+add {
			return fmt.Errorf("link_revision = %d, want %d", v, p+add)
		}
		return nil
	}
}

// expiresAfter checks that expires_at is at least d after the fake's now.
func expiresAfter(env *providertest.Env, d time.Duration) resource.CheckResourceAttrWithFunc {
	return func(v string) error {
		at, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return err
		}
		if now := env.Clock.Now(); at.Before(now.Add(d)) {
			return fmt.Errorf("expires_at %s is less than %s after now (%s): the link was not renewed", v, d, now)
		}
		return nil
	}
}
