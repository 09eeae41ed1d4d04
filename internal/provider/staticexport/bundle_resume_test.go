package staticexport

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// seventeenMinutes is the export of the issue: it takes 17 minutes, under
// `timeouts = { create = "10m" }`.
func seventeenMinutes(fakeapi.StartRequest) fakeapi.JobPlan {
	return fakeapi.JobPlan{QueueFor: time.Minute, RunFor: 16 * time.Minute}
}

// TestAccStaticExportBundle_timedOutExportResumedByPlainApply: a create
// that times out leaves a tainted bundle with its export; the next plain
// apply shows a replacement, which waits for the same export instead of
// starting another, and gets its link: one export in all, under either
// contract.
func TestAccStaticExportBundle_timedOutExportResumedByPlainApply(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	today := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: seventeenMinutes}))
	timedOutThenResumed(t, today, providertest.BundleConfig("docs.example.com", `timeouts = { create = "10m" }`),
		func() int { return today.Fake.ExportJobsStarted() })

	next := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{
		Contracts: fakeapi.ServeNext,
		Plan:      func(fakeapi.ProjectStartRequest) fakeapi.JobPlan { return seventeenMinutes(fakeapi.StartRequest{}) },
	}}))
	timedOutThenResumed(t, next, providertest.ProjectBundleConfig(`timeouts = { create = "10m" }`),
		func() int { return providertest.ProjectStarts(next) })
}

// timedOutThenResumed applies cfg twice: a timeout, then the resuming
// replacement, after which the plans (the framework's own, a refresh plan
// among them) are empty; starts counts the exports started.
func timedOutThenResumed(t *testing.T, env *providertest.Env, cfg string, starts func() int) {
	t.Helper()
	oneExport := func(*terraform.State) error {
		if n := starts(); n != 1 {
			t.Errorf("%d exports started, want the one the timed-out apply started", n)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(cfg), ExpectError: providertest.ExpectError("Static Export Timed Out",
				"Run `terraform apply` again to resume this same job", "waits for this job instead of starting another export")},
			{
				Config: env.Config(cfg),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(oneExport, providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					resource.TestCheckResourceAttr(providertest.BundleAddr, "status", "completed")),
			},
		},
	})
	_ = oneExport(nil) // the plans after the apply, and the destroy, started none
}
