package staticexport

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// Tests of the link's lifecycle: renewal in place, resuming an interrupted
// export, and adopting an existing job. Time moves on the fake's clock.

func TestAccStaticExportBundle_renewBeforeLongerThanLifetime(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 2 * time.Hour}))
	cfg := env.Config(providertest.BundleConfig("docs.example.com", `renew_before = "3h"`))
	var firstLink string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				// A 2h link is always within 3h of its expiry: the plan after
				// apply already wants a renewal (and warns about it).
				Config:             cfg,
				ExpectNonEmptyPlan: true,
				Check:              resource.TestCheckResourceAttrWith(providertest.BundleAddr, "bundle_url", providertest.Capture(&firstLink)),
			},
			{
				PreConfig:          func() { env.Clock.Advance(10 * time.Minute) },
				Config:             cfg,
				ConfigPlanChecks:   providertest.ExpectRenewalInPlace(providertest.BundleAddr),
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(providertest.BundleAddr, "bundle_url", differentLink(&firstLink)),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 2) },
				),
			},
		},
	})
}

func TestAccStaticExportBundle_renewBefore(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 2 * time.Hour}))
	cfg := env.Config(providertest.BundleConfig("docs.example.com", `renew_before = "1h"`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				// 1h59m left, more than renew_before: nothing to do.
				PreConfig: func() { env.Clock.Advance(time.Minute) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
			},
			{
				// 59m left: renewed in place, same job.
				PreConfig:        func() { env.Clock.Advance(60 * time.Minute) },
				Config:           cfg,
				ConfigPlanChecks: providertest.ExpectRenewalInPlace(providertest.BundleAddr),
				Check: resource.ComposeTestCheckFunc(
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 2) },
				),
			},
		},
	})
}

func TestAccStaticExportBundle_defaultRenewalPolicy(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 2 * time.Hour}))
	cfg := env.Config(providertest.BundleConfig("docs.example.com", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				// 31m of 2h left: more than a quarter.
				PreConfig: func() { env.Clock.Advance(89 * time.Minute) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// 29m left: a refresh never mints a link (the plan after it
				// wants one)...
				PreConfig:          func() { env.Clock.Advance(2 * time.Minute) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
			},
			{
				// ...and the plan renews it.
				Config:           cfg,
				ConfigPlanChecks: providertest.ExpectRenewalInPlace(providertest.BundleAddr),
				Check:            func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 2) },
			},
			{
				// Expired: renewed.
				PreConfig:        func() { env.Clock.Advance(3 * time.Hour) },
				Config:           cfg,
				ConfigPlanChecks: providertest.ExpectRenewalInPlace(providertest.BundleAddr),
				Check: resource.ComposeTestCheckFunc(
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 3) },
				),
			},
		},
	})
}

// TestAccStaticExportBundle_resumeAfterTimeout: a create that times out
// leaves a tainted resource with its job; after `terraform untaint`, the
// next apply resumes the same job in place.
func TestAccStaticExportBundle_resumeAfterTimeout(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	workRoot := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", workRoot)
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{QueueFor: time.Minute, RunFor: 20 * time.Minute}
	}}))
	cfg := env.Config(providertest.BundleConfig("docs.example.com", `timeouts = { create = "5m" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      cfg,
				ExpectError: providertest.ExpectError("Static Export Timed Out", "`running` at", "Run `terraform apply` again"),
			},
			{
				PreConfig: func() { providertest.Untaint(t, workRoot, providertest.BundleAddr) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url")),
				}},
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						return resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", env.Fake.JobIDs()[0])(s)
					},
					resource.TestCheckResourceAttr(providertest.BundleAddr, "status", "completed"),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
				),
			},
		},
	})
}

// TestAccStaticExportBundle_failedJobIsReplaced: a failed create leaves a
// tainted resource; untainting it cannot resume a failed job, so the plan
// replaces it (replace-failed) instead of retrying the same job forever.
func TestAccStaticExportBundle_failedJobIsReplaced(t *testing.T) {
	workRoot := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", workRoot)
	var started atomic.Int32
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		if started.Add(1) == 1 {
			return fakeapi.JobPlan{RunFor: time.Minute, FailWith: "page guides/broken could not be rendered"}
		}
		return fakeapi.JobPlan{RunFor: time.Minute}
	}}))
	cfg := env.Config(providertest.BundleConfig("docs.example.com", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      cfg,
				ExpectError: providertest.ExpectError("Static Export Job Failed", "the next apply starts a new export"),
			},
			{
				PreConfig: func() { providertest.Untaint(t, workRoot, providertest.BundleAddr) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionReplace),
				}},
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						return resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", env.Fake.JobIDs()[1])(s)
					},
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 1) },
				),
			},
		},
	})
}

func TestAccStaticExportBundle_importBlock(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(time.Minute) // the job completes
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
import {
  to = mintlify_static_export_bundle.docs
  id = %[1]q
}
`, job) + providertest.BundleConfig("docs.example.com", `version = "2024-06-01"`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
				plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url")),
			}},
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", job),
				resource.TestCheckResourceAttr(providertest.BundleAddr, "domain", "docs.example.com"),
				resource.TestCheckResourceAttrWith(providertest.BundleAddr, "helm_values", func(v string) error {
					if want := `  version: "2024-06-01"`; !containsLine(v, want) {
						return fmt.Errorf("helm_values has no line %q:\n%s", want, v)
					}
					return nil
				}),
				providertest.CheckBundleLinkWorks(providertest.BundleAddr),
				func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
			),
		}},
	})
}

// TestAccStaticExportBundle_importCommand adopts a job that is still
// running with `terraform import`; the apply waits for it.
func TestAccStaticExportBundle_importCommand(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	job := env.StartExportOutsideTerraform(t)
	cfg := env.Config(providertest.BundleConfig("docs.example.com", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				ResourceName:       providertest.BundleAddr,
				ImportState:        true,
				ImportStateId:      job,
				ImportStatePersist: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", job),
					resource.TestCheckResourceAttr(providertest.BundleAddr, "status", "completed"),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
				),
			},
		},
	})
}

func TestAccStaticExportBundle_importFailedOrMissing(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Minute, FailWith: "render error", FailAtProgress: 50}
	}}))
	job := env.StartExportOutsideTerraform(t)
	env.Clock.Advance(2 * time.Minute)
	importOf := func(id string) string {
		return env.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.BundleAddr, id) + providertest.BundleConfig("docs.example.com", ""))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      importOf("se_does_not_exist"),
				ExpectError: providertest.ExpectError("Static Export Job Not Found", `no static export job "se_does_not_exist"`, "nothing to import"),
			},
			{
				Config:      importOf(job),
				ExpectError: providertest.ExpectError("Static Export Job Failed", job+" failed at 50%", `"render error"`),
			},
		},
	})
	if err := env.ExpectExportJobsAndLinks(1, 0); err != nil {
		t.Error(err)
	}
}

func differentLink(prev *string) resource.CheckResourceAttrWithFunc {
	return func(v string) error {
		if v == "" || v == *prev {
			return fmt.Errorf("bundle_url did not change: %q", v)
		}
		return nil
	}
}

func containsLine(text, line string) bool {
	for _, l := range providertest.SplitLines(text) {
		if l == line {
			return true
		}
	}
	return false
}

// TestRenewBeforeAtLeastTheLifetimeWarnsOnCreate runs the real CLI (the
// provider as a plugin binary: acceptance tests cannot see warnings): a
// `renew_before` at least the link's lifetime (an hour, the fake's) is
// flagged by the very apply that creates the bundle and so first learns the
// lifetime, once, with the value to use; a shorter one is not.
func TestRenewBeforeAtLeastTheLifetimeWarnsOnCreate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		renewBefore string
		warn        bool
	}{{"1h", true}, {"6h", true}, {"30m", false}} {
		t.Run(tc.renewBefore, func(t *testing.T) {
			t.Parallel()
			fake := fakeapi.New(
				fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
			srv := httptest.NewServer(fake)
			t.Cleanup(srv.Close)
			cli := providertest.BuiltCLI(t, providertest.WithEnv("MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+srv.URL))
			cli.WriteConfig(providertest.BundleConfig("docs.example.com", fmt.Sprintf("renew_before = %q", tc.renewBefore)))
			res := cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
			out := res.Stdout + res.Stderr
			n := strings.Count(out, "Warning: Link Renewed On Every Run")
			if !tc.warn {
				if n != 0 {
					t.Errorf("renew_before %s is below the lifetime, yet the apply warned:\n%s", tc.renewBefore, out)
				}
				return
			}
			words := strings.Join(strings.Fields(out), " ")
			if n != 1 || !strings.Contains(words, "(1h), so every plan renews the link") ||
				!strings.Contains(words, "upgrades any Helm release") || !strings.Contains(words, `renew_before = "30m"`) {
				t.Errorf("the create warned %d times, want once with the lifetime, what it causes and the value to use:\n%s", n, out)
			}
		})
	}
}
