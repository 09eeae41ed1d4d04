package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// readExample returns the .tf files of an examples/ folder, concatenated.
// Only the tests' provider block is added: the example must stand alone.
func readExample(t *testing.T, dir string, files ...string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join("..", "..", "examples", dir, f))
		if err != nil {
			t.Fatalf("reading the example: %v", err)
		}
		b.Write(raw)
		b.WriteString("\n")
	}
	return b.String()
}

// TestAccExampleKeepingTheLinkFresh runs the guide's example: a daily link
// with renew_before = "6h" is left alone for 18 hours, then renewed in place.
func TestAccExampleKeepingTheLinkFresh(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithLinkTTL(24*time.Hour))
	cfg := env.config(readExample(t, filepath.Join("guides", "keeping-the-link-fresh"), "main.tf"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() { env.clock.Advance(18*time.Hour - time.Minute) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				PreConfig:        func() { env.clock.Advance(2 * time.Minute) },
				Config:           cfg,
				ConfigPlanChecks: renewal(),
				Check:            func(*terraform.State) error { return expectCounts(env, 1, 2) },
			},
		},
	})
}

// TestAccExampleImport runs the guide's import block against a job started
// outside Terraform, under the id the example names.
func TestAccExampleImport(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithLinkTTL(24*time.Hour))
	job := startJobDirectly(t, env)
	env.clock.Advance(time.Minute)
	example := strings.ReplaceAll(readExample(t, filepath.Join("guides", "keeping-the-link-fresh"), "main.tf", "import.tf"),
		"se_3f9a2c1b8e7d4a06", job)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories(),
		Steps: []resource.TestStep{{
			Config: env.config(example),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
			}},
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(bundleAddr, "job_id", job),
				checkLinkWorks(env),
				func(*terraform.State) error { return expectCounts(env, 1, 1) },
			),
		}},
	})
}
