package staticexport

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

func TestAccStaticExportBundle_create(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(providertest.BundleConfig("docs.example.com", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^se_[0-9a-f]{16}$`))),
					statecheck.CompareValuePairs(providertest.BundleAddr, tfjsonpath.New("id"), providertest.BundleAddr, tfjsonpath.New("job_id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("domain"), knownvalue.StringExact("docs.example.com")),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("version"), knownvalue.Null()),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("paths"), knownvalue.Null()),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("progress"), knownvalue.Float64Exact(100)),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(42)),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url"), knownvalue.StringRegexp(
						regexp.MustCompile(`^http://127\.0\.0\.1:\d+/bundles/se_[0-9a-f]{16}/bundle\.tar\.gz\?.*X-Amz-Signature=[0-9a-f]+`))),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("size_bytes"), knownvalue.Int64Func(providertest.Positive)),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("expires_at"), knownvalue.StringRegexp(providertest.Rfc3339)),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("created_at"), knownvalue.StringExact("2026-11-21T09:00:00Z")),
					statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("helm_values"), knownvalue.StringRegexp(regexp.MustCompile(
						`^staticExport:\n  enabled: true\n  bundleUrl: "http://127\.0\.0\.1:\d+/bundles/[^"]+&X-Amz-Signature=[0-9a-f]+"\n$`))),
				},
				Check: resource.ComposeTestCheckFunc(
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					checkExpiresAfterCreate(),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
				),
			},
		},
	})
	// The plans right after apply (the framework's own, a refresh plan
	// among them, both required empty) and the destroy generated no link
	// and started nothing.
	if err := env.ExpectExportJobsAndLinks(1, 1); err != nil {
		t.Error(err)
	}
}

func TestAccStaticExportBundle_versionAndPaths(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.BundleConfig("acme.mintlify.app", `
  version = "2024-06-01"
  paths   = ["index", "guides/getting-started"]`)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("helm_values"), knownvalue.StringRegexp(regexp.MustCompile(
					`^staticExport:\n  enabled: true\n  bundleUrl: "[^"]+"\n  version: "2024-06-01"\n$`))),
			},
			Check: func(*terraform.State) error {
				var body string
				for _, r := range env.Fake.Requests() {
					if r.Method == http.MethodPost && r.Path == "/v1/static-export/jobs" {
						body = string(r.Body)
						break
					}
				}
				want := `{"domain":"acme.mintlify.app","version":"2024-06-01","paths":["index","guides/getting-started"]}`
				if body != want {
					return fmt.Errorf("start request body = %s, want %s", body, want)
				}
				return nil
			},
		}},
	})
}

func TestAccStaticExportBundle_replace(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	replaced := resource.ConfigPlanChecks{
		PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionReplace)},
	}
	var firstJob string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(providertest.BundleConfig("docs.example.com", `triggers = { docs_commit = "aaa111" }`)),
				Check:  resource.TestCheckResourceAttrWith(providertest.BundleAddr, "job_id", providertest.Capture(&firstJob)),
			},
			{
				Config:           env.Config(providertest.BundleConfig("docs.example.com", `triggers = { docs_commit = "bbb222" }`)),
				ConfigPlanChecks: replaced,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(providertest.BundleAddr, "job_id", differentFrom(&firstJob)),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 2) },
				),
			},
			{
				Config:           env.Config(providertest.BundleConfig("docs2.example.com", `triggers = { docs_commit = "bbb222" }`)),
				ConfigPlanChecks: replaced,
				Check:            func(*terraform.State) error { return env.ExpectExportJobsAndLinks(3, 3) },
			},
			{
				Config:           env.Config(providertest.BundleConfig("docs2.example.com", `version = "v2"`+"\n"+`triggers = { docs_commit = "bbb222" }`)),
				ConfigPlanChecks: replaced,
				Check:            func(*terraform.State) error { return env.ExpectExportJobsAndLinks(4, 4) },
			},
			{
				// Only the timeouts change: an in-place update, no export.
				Config: env.Config(providertest.BundleConfig("docs2.example.com", `version = "v2"`+"\n"+
					`triggers = { docs_commit = "bbb222" }`+"\n"+`timeouts = { create = "45m" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionUpdate)},
				},
				Check: func(*terraform.State) error { return env.ExpectExportJobsAndLinks(4, 4) },
			},
		},
	})
}

func TestAccStaticExportBundle_failedJob(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{QueueFor: time.Second, RunFor: time.Minute, FailWith: "page guides/broken could not be rendered", FailAtProgress: 60}
	}}))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      env.Config(providertest.BundleConfig("docs.example.com", "")),
			ExpectError: providertest.ExpectError("Static Export Job Failed", "failed at 60% (25 pages exported)", `"page guides/broken could not be rendered"`),
		}},
	})
	if err := env.ExpectExportJobsAndLinks(1, 0); err != nil {
		t.Error(err)
	}
}

func TestAccStaticExportBundle_createTimeoutKeepsJob(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{Never: true}
	}}))
	cfg := env.Config(providertest.BundleConfig("docs.example.com", `timeouts = { create = "5m" }`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: providertest.ExpectError("Static Export Timed Out", `timeouts = { create = "5m" }`,
					"did not complete within `timeouts.create` (5m0s); it was `running` at 10%",
					"Run `terraform apply` again to resume this same job", "the replacement waits for this job instead of starting another export", "raise `timeouts.create`"),
			},
			{
				// The tainted resource still names its job.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						return resource.TestCheckResourceAttr(providertest.BundleAddr, "job_id", env.Fake.JobIDs()[0])(s)
					},
					resource.TestCheckResourceAttr(providertest.BundleAddr, "status", "running"),
					resource.TestCheckNoResourceAttr(providertest.BundleAddr, "bundle_url"),
					func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 0) },
				),
			},
			{
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPreRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionReplace)},
				},
			},
		},
	})
}

func TestAccStaticExportBundle_unauthorized(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      env.ConfigWithKey("mint_revoked_key", providertest.BundleConfig("docs.example.com", "")),
			ExpectError: providertest.ExpectError("Mintlify API Key Rejected", "HTTP 401", "`api_key`", "`MINTLIFY_API_KEY`"),
		}},
	})
	if err := env.ExpectExportJobsAndLinks(0, 0); err != nil {
		t.Error(err)
	}
}

func TestAccStaticExportBundle_notEnabled(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Disabled: true}))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      env.Config(providertest.BundleConfig("docs.example.com", "")),
			ExpectError: providertest.ExpectError("Static Export Not Enabled", "HTTP 403", "Enterprise plans"),
		}},
	})
}

func TestAccStaticExportBundle_badInputRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	cases := []struct{ extra, domain, want string }{
		{"", "https://docs.example.com", `Invalid Domain|remove the scheme "https://" (use "docs.example.com")`},
		{"", "docs.example.com/guides", `Invalid Domain|remove the path "/guides"`},
		{"", "Docs.Example.com", `Invalid Domain|write it in lower case (use "docs.example.com")`},
		{`paths = ["/index"]`, "docs.example.com", `Invalid Page Path|remove the leading slash (use "index")`},
		{"", "Docs.Example.com:443", `Invalid Domain|remove the port ":443" (use "docs.example.com")`},
		{`timeouts = { create = "soon" }`, "docs.example.com", "Invalid Duration|The value \"soon\" of `timeouts.create` is not a duration|such as `6h`"},
		{`timeouts = { create = "-5m" }`, "docs.example.com", "Invalid Duration|The value \"-5m\" of `timeouts.create` must be longer than zero"},
		{`timeouts = { update = "0s" }`, "docs.example.com", "Invalid Duration|The value \"0s\" of `timeouts.update` must be longer than zero"},
		{`renew_before = "0h"`, "docs.example.com", "Invalid Duration|`renew_before` must be longer than zero"},
		{`timeouts = { create = "1ns" }`, "docs.example.com", "Invalid Duration|The value \"1ns\" of `timeouts.create` is shorter than 10s|from 10s to 24h, such as `45m`"},
		{`timeouts = { update = "87600h" }`, "docs.example.com", "Invalid Duration|`timeouts.update` is longer than 24h|unit mistake|such as `45m`"},
		{`timeouts = { read = "1ns" }`, "docs.example.com", "Invalid Duration|`timeouts.read` is shorter than 10s"},
		{`paths = ["guides/../admin"]`, "docs.example.com", "Invalid Page Path|\"guides/../admin\"|has a \".\" or \"..\" segment|such as `index` or `guides/getting-started`"},
		{`paths = ["index?lang=fr"]`, "docs.example.com", `Invalid Page Path|remove the query or fragment (use "index")`},
		{`paths = ["guides/setup#install"]`, "docs.example.com", `Invalid Page Path|remove the query or fragment (use "guides/setup")`},
		{`paths = ["index\n"]`, "docs.example.com", "Invalid Page Path|contains a control character"},
		{`paths = [" guides/setup "]`, "docs.example.com", `Invalid Page Path|remove the spaces around it (use "guides/setup")`},
		{`version = "  "`, "docs.example.com", "Invalid Version|`version`|it is empty|such as `2024-06-01`"},
		{`version = "2024-06-01\n"`, "docs.example.com", "Invalid Version|control character|`trimspace(...)`|such as `2024-06-01`"},
	}
	// One plan of every case, each its own resource: each error must point
	// into its own resource's block.
	var refusals []providertest.Refusal
	for i, c := range cases {
		refusals = append(refusals, providertest.Refusal{
			Config: strings.Replace(providertest.BundleConfig(c.domain, c.extra), `"docs"`, fmt.Sprintf(`"docs_%d"`, i), 1),
			Want:   c.want,
		})
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(""), refusals)
}

// TestDuplicatePagePathIsAWarning: a page path listed twice is a warning at
// plan, naming the path and both places, and the plan goes on (the real
// CLI: acceptance tests cannot see warnings).
func TestDuplicatePagePathIsAWarning(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com", `paths = ["index", "guides/setup", "index"]`)))
	out := cli.MustRun("plan", "-input=false", "-no-color").Output
	words := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Warning: Duplicate Page Path", `The page path "index" is listed twice in ` +
		"`paths` (at index 0 and 2)", "1 to add"} {
		if !strings.Contains(words, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	if n := env.WorkRequests(); n != 0 {
		t.Errorf("the plan sent %d requests besides the key check, want 0", n)
	}
}

func TestAccStaticExportBundle_missingAPIKey(t *testing.T) {
	env := providertest.NewTestEnv(t)
	t.Setenv(core.Env.APIKey, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      fmt.Sprintf(`provider "mintlify" { base_url = %q }`, env.URL) + providertest.BundleConfig("docs.example.com", ""),
			ExpectError: providertest.ExpectError("Missing Mintlify API Key", "`api_key`", "`MINTLIFY_API_KEY`"),
		}},
	})
}

// TestAccStaticExportBundle_jobGoneIsReplaced: a job the API forgot is
// replaced, with a warning, rather than silently dropped from state.
func TestAccStaticExportBundle_jobGoneIsReplaced(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(providertest.BundleConfig("docs.example.com", ""))},
			{
				PreConfig: func() { env.Fake.ForgetJob(env.Fake.JobIDs()[0]) },
				Config:    env.Config(providertest.BundleConfig("docs.example.com", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionReplace)},
				},
				Check: func(*terraform.State) error { return env.ExpectExportJobsAndLinks(2, 2) },
			},
		},
	})
}

// TestAccStaticExportBundle_refreshOnlyAgainst404ThenRestored reproduces a
// nightly apply's worst case: one `terraform apply -refresh-only` while the
// API answers 404 for the job (another organisation's key, a proxy that
// points elsewhere, a blip), then the API answers again. The 404 may plan a
// replacement while it lasts, but once a refresh sees the job again, plans
// are empty and no second export starts.
func TestAccStaticExportBundle_refreshOnlyAgainst404ThenRestored(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	cfg := env.Config(providertest.BundleConfig("docs.example.com", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				// `terraform apply -refresh-only` while the job answers 404;
				// the plan that follows (still 404) replaces.
				PreConfig: func() {
					env.Fake.SetFaults(fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.NotFound()}})
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
			},
			{
				// The API answers again: nothing to do, and the plans after
				// the apply (the framework's own, a refresh plan among them)
				// stay empty.
				PreConfig: func() { env.Fake.SetFaults() },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
	if err := env.ExpectExportJobsAndLinks(1, 1); err != nil {
		t.Error(err)
	}
}

// TestAccStaticExportBundle_chainsIntoHelmRelease feeds helm_values into a
// terraform_data standing in for helm_release, in the same apply.
func TestAccStaticExportBundle_chainsIntoHelmRelease(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnvWithHandler(t, func(h http.Handler) http.Handler {
		return http.StripPrefix("/mintlify", h)
	})
	prefixed := *env
	prefixed.URL = env.URL + "/mintlify/"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: prefixed.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: prefixed.Config(providertest.BundleConfig("docs.example.com", `version = "2024-06-01"`) + `
resource "terraform_data" "helm_release" {
  input = {
    chart  = "mintlify"
    values = [mintlify_static_export_bundle.docs.helm_values]
  }
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs(
					providertest.BundleAddr, tfjsonpath.New("helm_values"),
					"terraform_data.helm_release", tfjsonpath.New("output").AtMapKey("values").AtSliceIndex(0),
					compare.ValuesSame()),
			},
		}},
	})
}

func checkExpiresAfterCreate() resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[providertest.BundleAddr].Primary.Attributes
		created, _ := time.Parse(time.RFC3339, attrs["created_at"])
		expires, err := time.Parse(time.RFC3339, attrs["expires_at"])
		if err != nil {
			return err
		}
		if !expires.After(created.Add(59 * time.Minute)) {
			return fmt.Errorf("expires_at %s is not about an hour after created_at %s", expires, created)
		}
		return nil
	}
}

func differentFrom(prev *string) resource.CheckResourceAttrWithFunc {
	return func(v string) error {
		if v == *prev || !strings.HasPrefix(v, "se_") {
			return fmt.Errorf("job_id = %q, want a new job (previous %q)", v, *prev)
		}
		return nil
	}
}
