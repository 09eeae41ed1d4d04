package staticexport

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportBundle_projectBadInputRefusedAtPlan: arguments of the
// two contracts mixed, or a base path the API does not take, are refused at
// plan, naming the attribute, before any request.
func TestAccStaticExportBundle_projectBadInputRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.NextAndToday)
	refusals := []providertest.Refusal{
		{Config: providertest.BundleConfig("docs.example.com", `base_path = "/docs"`),
			Want: "Arguments Of Two Static Export Contracts|`base_path` belongs to the project-scoped|remove `domain`, `version` and `paths`"},
		{Config: providertest.BundleConfig("docs.example.com", `project_id = "proj_other"`),
			Want: "Arguments Of Two Static Export Contracts|`project_id` belongs to the project-scoped"},
		{Config: providertest.ProjectBundleConfig(`version = "v2"`),
			Want: "Arguments Of Two Static Export Contracts|`version` and `paths` belong to today's|Set `domain`"},
		{Config: providertest.ProjectBundleConfig(`base_path = "/api"`),
			Want: `base_path|value must be one of`},
	}
	// One plan of every case, each its own resource: each error must point into
	// its own block.
	for i := range refusals {
		refusals[i].Config = strings.Replace(refusals[i].Config, `"docs"`, fmt.Sprintf(`"docs_%d"`, i), 1)
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(""), refusals)
}

// TestAccStaticExportBundle_projectConflictWaitedOut: another export of the
// project's deployment is running (409): the create waits for it to end
// and then starts its own; when it outlasts `timeouts.create`, the error
// names the cause.
func TestAccStaticExportBundle_projectConflictWaitedOut(t *testing.T) {
	t.Parallel()
	t.Run("waited out", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t, providertest.NextOnly)
		other := providertest.StartProjectExportOutsideTerraform(t, env, providertest.ProjectID)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config: env.Config(providertest.ProjectBundleConfig("")),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(providertest.BundleAddr, "status", "completed"),
					providertest.CheckBundleLinkWorks(providertest.BundleAddr),
					func(s *terraform.State) error {
						if id := s.RootModule().Resources[providertest.BundleAddr].Primary.Attributes["job_id"]; id == other {
							return fmt.Errorf("the bundle took the other export's job %s", other)
						}
						if n := providertest.ProjectStarts(env); n < 3 {
							return fmt.Errorf("%d starts, want the other export's, a refused one and the bundle's", n)
						}
						return nil
					},
				),
			}},
		})
	})
	t.Run("past the timeout", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext,
			Plan: func(fakeapi.ProjectStartRequest) fakeapi.JobPlan {
				return fakeapi.JobPlan{QueueFor: time.Minute, RunFor: time.Hour}
			}}}))
		providertest.StartProjectExportOutsideTerraform(t, env, providertest.ProjectID)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config: env.Config(providertest.ProjectBundleConfig(`timeouts = { create = "5m" }`)),
				ExpectError: providertest.ExpectError("Another Static Export Is Running", "queued or running",
					"No job was started", "`timeouts.create`"),
			}},
		})
	})
}

// TestAccStaticExportBundle_projectHourlyLimit: past the API's 10 starts an
// hour, a Retry-After beyond the remaining `timeouts.create` fails the
// create at once, saying when a start is possible again.
func TestAccStaticExportBundle_projectHourlyLimit(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.NextOnly)
	for i := range 10 {
		providertest.StartProjectExportOutsideTerraform(t, env, fmt.Sprintf("proj_other_%d", i))
	}
	started := env.Clock.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.ProjectBundleConfig(`timeouts = { create = "20m" }`)),
			ExpectError: providertest.ExpectError("Static Export Start Limit Reached", "10 static export starts per organization",
				"A start is possible again at", "No job was started"),
		}},
	})
	if waited := env.Clock.Now().Sub(started); waited > time.Minute {
		t.Errorf("the create waited %s before failing, want at once", waited)
	}
}

// TestAccStaticExportBundle_projectRefusals: each refusal of the
// project-scoped contract is named by its cause, with its fix: a project
// not found (404) or malformed (at plan), and each 401 and 403: "not enabled"
// as either status, the key's expiry, scope and allowlist, a plan without
// API access, an invalid key.
func TestAccStaticExportBundle_projectRefusals(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		opts  []fakeapi.Option
		key   string
		extra string
		want  []string
	}{
		"project not found": {opts: []fakeapi.Option{providertest.NextOnly, fakeapi.WithProjects("proj_other")},
			want: []string{"Mintlify Project Not Found", "HTTP 404", "Check the project ID"}},
		// Refused at plan now, before the API's 400 (whose diagnostic
		// TestDiagnosticPerOperationAndStatus keeps covering).
		"malformed project id": {opts: []fakeapi.Option{providertest.NextOnly}, extra: `project_id = "not a project!"`,
			want: []string{"Invalid Project ID", "an id has no spaces", "API keys page"}},
		"not enabled as 401": {opts: []fakeapi.Option{fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext, NotEnabled: 401}})},
			want: []string{"Static Export Not Enabled", "HTTP 401", "Contact Mintlify to enable it"}},
		"not enabled as 403": {opts: []fakeapi.Option{fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext, NotEnabled: 403}})},
			want: []string{"Static Export Not Enabled", "HTTP 403", "Contact Mintlify to enable it"}},
		"read-only key": {opts: []fakeapi.Option{providertest.NextOnly, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{ReadOnly: true}})},
			want: []string{"Mintlify API Key Is Read-Only", "`write` scope"}},
		"IP allowlist": {opts: []fakeapi.Option{providertest.NextOnly, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{AllowedIPs: []string{"10.0.0.0/8"}}})},
			want: []string{"Mintlify API Key Not Allowed From This Address", "allowlist"}},
		"expired key": {opts: []fakeapi.Option{providertest.NextOnly, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{ExpiresAt: providertest.TestStart.Add(-time.Hour)}})},
			want: []string{"Mintlify API Key Expired", "Create a new admin API key"}},
		"plan without API access": {opts: []fakeapi.Option{providertest.NextOnly, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{NoAPIAccess: true}})},
			want: []string{"Mintlify Plan Without API Access", "Upgrade the plan"}},
		"invalid key": {opts: []fakeapi.Option{providertest.NextOnly}, key: "mint_not_the_key",
			// The plan's key check meets the key first; the start's own
			// wording: TestProjectRefusalDiagnosticNamesAnInvalidKey.
			want: []string{"Mintlify API Key Rejected", "(HTTP 401: Invalid or missing API key)", "begins with `mint_`"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, c.opts...)
			key := c.key
			if key == "" {
				key = fakeapi.DefaultAPIKey
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: env.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      env.ConfigWithKey(key, providertest.ProjectBundleConfig(c.extra)),
					ExpectError: providertest.ExpectError(c.want...),
				}},
			})
		})
	}
}

// TestProjectRefusalDiagnosticNamesAnInvalidKey: a project-scoped call
// refused for an invalid key says so, with the key's form. Through the CLI
// a plan's key check meets such a key first (TestAccKeyCheckedAtPlan), so
// the call's own wording is held here.
func TestProjectRefusalDiagnosticNamesAnInvalidKey(t *testing.T) {
	err := &mintlify.APIError{Route: "POST /v1/static-export/{projectId}/jobs", StatusCode: http.StatusUnauthorized,
		Message: "Invalid or missing API key"}
	refusal, ok := mintlify.ReadProjectExportRefusal(err)
	if !ok {
		t.Fatal("the 401 was not read as a refusal")
	}
	d := projectRefusalDiagnostic(core.APIOperation{Doing: "starting the static export of project proj_demo"}, err, refusal)
	if d.Summary() != "Mintlify API Key Invalid" || !strings.Contains(d.Detail(), "begins with `mint_`") ||
		!strings.Contains(d.Detail(), "(HTTP 401: Invalid or missing API key)") {
		t.Errorf("the diagnostic says %q: %s", d.Summary(), d.Detail())
	}
}
