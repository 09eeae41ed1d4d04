package provider

import (
	"fmt"
	"strings"
	"testing"

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

// TestAccProviderConfig_badInputRefusedBeforeAnyRequest: every bad provider
// argument is refused at plan time, with what is wrong and how to fix it,
// and no request reaches the API.
func TestAccProviderConfig_badInputRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	key := fmt.Sprintf("api_key = %q", fakeapi.DefaultAPIKey)
	base := fmt.Sprintf("base_url = %q", env.URL)
	cases := []struct{ args, want string }{
		{`api_key = ""` + "\n" + base, "Empty Mintlify API Key|The `api_key` argument is empty|`MINTLIFY_API_KEY`"},
		{`api_key = "  "` + "\n" + base, "Empty Mintlify API Key"},
		{`api_key = "mint_abc123\n"` + "\n" + base, "Invalid Mintlify API Key|contains spaces or line breaks|the value is not shown|`trimspace(file(...))`"},
		{key + "\n" + base + "\n" + `project_id = ""`, "Empty Argument|The `project_id` argument is empty|API keys page|`MINTLIFY_PROJECT_ID`"},
		{key + "\n" + base + "\n" + `project_id = "https://dashboard.mintlify.com/proj_demo/"`, `Invalid Project ID|The ` + "`project_id`" + ` "https://dashboard.mintlify.com/proj_demo/" is not a Mintlify project ID|(use "proj_demo", if that is it)|API keys page`},
		{key + "\n" + base + "\n" + `project_id = "Acme docs"`, "Invalid Project ID|an id has no spaces"},
		{key + "\n" + base + "\n" + `project_id = "proj.demo"`, "Invalid Project ID|it holds '.', and a project ID holds only letters, digits, `_` and `-`"},
		{key + "\n" + base + "\n" + `project_id = "mint_0123456789abcdef"`, "Invalid Project ID|The `project_id` is not a Mintlify project ID: it begins with `mint_`, as an admin API key does, so the value is not shown|give the project ID here and the key to `api_key`"},
		{key + "\n" + `base_url = "api.mintlify.com"`, `Invalid Mintlify Base URL|"api.mintlify.com" is not an absolute URL|"https://api.mintlify.com"`},
		{key + "\n" + `base_url = "ftp://api.mintlify.com"`, `Invalid Mintlify Base URL|uses the scheme "ftp": use https`},
		{key + "\n" + `base_url = "https://"`, `Invalid Mintlify Base URL|has no host`},
		{key + "\n" + `base_url = "http://api.mintlify.com"`, "Invalid Mintlify Base URL|would send the admin API key unencrypted|use https|loopback host"},
		{key + "\n" + `base_url = "http://10.1.2.3:8080"`, "Invalid Mintlify Base URL|would send the admin API key unencrypted"},
		{key + "\n" + `base_url = "https://me:hunter2@proxy.example.com"`, "Invalid Mintlify Base URL|https://me:xxxxx@proxy.example.com|holds a user name or password"},
		{key + "\n" + `base_url = "https://proxy.example.com/?tenant=1"`, "Invalid Mintlify Base URL|has a query or fragment: remove it"},
		{key + "\n" + base + "\n" + `max_retries = -1`, "Invalid Retry Count|`max_retries`|from 0 (no retries) to 20|`max_retries = 5`"},
		{key + "\n" + base + "\n" + `max_retries = 1000`, "Invalid Retry Count|The value 1000 of `max_retries` is out of range"},
		{key + "\n" + base + "\n" + `request_timeout = "1ns"`, "Invalid Duration|`request_timeout` is shorter than 1s|from 1s to 10m, such as `30s`"},
		{key + "\n" + base + "\n" + `request_timeout = "87600h"`, "Invalid Duration|`request_timeout` is longer than 10m"},
		{key + "\n" + `base_url = "https://api.mintlify.com/v1"`, `Invalid Mintlify Base URL|ends with the API version "/v1", which the provider adds itself|such as "https://api.mintlify.com"`},
		{key + "\n" + `base_url = "https://proxy.example.com/mintlify/v2/"`, `Invalid Mintlify Base URL|"/v2"|such as "https://proxy.example.com/mintlify"`},
		{key + "\n" + base + "\n" + `request_timeout = "soon"`, "Invalid Duration|\"soon\" of `request_timeout` is not a duration"},
		{key + "\n" + base + "\n" + `request_timeout = "0s"`, "Invalid Duration|must be longer than zero"},
	}
	// One plan of every case, each an aliased provider block with a bundle
	// of its own: each error must point into its own provider's block.
	var refusals []providertest.Refusal
	for i, c := range cases {
		refusals = append(refusals, providertest.Refusal{
			Config: fmt.Sprintf("provider \"mintlify\" {\nalias = \"p%[1]d\"\n%[2]s\n}\n", i, c.args) +
				strings.Replace(providertest.BundleConfig("docs.example.com", fmt.Sprintf("provider = mintlify.p%d", i)), `"docs"`, fmt.Sprintf(`"docs_%d"`, i), 1),
			Want: c.want,
		})
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, "", refusals)
}

// TestAccProviderConfig_badEnvironment: the environment variables get the
// same checks as the arguments they stand in for.
func TestAccProviderConfig_badEnvironment(t *testing.T) {
	env := providertest.NewTestEnv(t)
	for _, c := range []struct{ key, baseURL, want string }{
		{"mint_abc\t", env.URL, "Invalid Mintlify API Key|The `MINTLIFY_API_KEY` environment variable contains spaces"},
		{fakeapi.DefaultAPIKey, "http://api.mintlify.com", "Invalid Mintlify Base URL|The `MINTLIFY_BASE_URL` environment variable cannot be used|unencrypted"},
		{fakeapi.DefaultAPIKey, env.URL + "/v1", "Invalid Mintlify Base URL|The `MINTLIFY_BASE_URL` environment variable cannot be used|\"/v1\""},
	} {
		t.Setenv(core.Env.APIKey, c.key)
		t.Setenv(core.Env.BaseURL, c.baseURL)
		providertest.ExpectRefusedAtPlan(t, env, []providertest.Refusal{{Config: providertest.BundleConfig("docs.example.com", ""), Want: c.want}})
	}
}

// TestAccProviderConfig_unusualKeyIsOnlyAWarning: a key without the `mint_`
// prefix earns a warning; the API decides, and here it accepts the key.
func TestAccProviderConfig_unusualKeyIsOnlyAWarning(t *testing.T) {
	t.Parallel()
	const key = "sk_legacy_0123456789"
	env := providertest.NewTestEnv(t, fakeapi.WithKeys(fakeapi.KeyOptions{APIKey: key}))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.ConfigWithKey(key, providertest.BundleConfig("docs.example.com", "")),
			Check:  func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
		}},
	})
}

// TestAccProviderConfig_retrySettings: max_retries and request_timeout reach
// the client. With max_retries = 1, two 503s in a row fail a read that the
// default policy would have ridden out.
func TestAccProviderConfig_retrySettings(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.ServerError(503)},
	}))
	providertest.ExpectApplyFails(t, env,
		providertest.ConfigWithProvider(env, "max_retries = 1\n  request_timeout = \"45s\"", providertest.BundleConfig("docs.example.com", "")),
		[]string{"Mintlify API Unavailable", "HTTP 503", "after 2 attempts", "raise the provider's `max_retries`"},
		fakeapi.IsStatusRequest, 2, 1)
}

// TestAccProviderConfig_unknownAPIKey: a key that comes from another
// resource is unknown at plan time. The plan succeeds without a client, and
// the apply configures the provider once the key is known.
func TestAccProviderConfig_unknownAPIKey(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	cfg := providertest.UnknownKeyProvider(env) + providertest.BundleConfig("docs.example.com", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(providertest.BundleAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(providertest.BundleAddr, tfjsonpath.New("bundle_url")),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
			},
			Check: func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
		}},
	})
}

// TestAccProviderConfig_unknownAPIKeyForADataSource: a data source needs
// the client at plan time, so it, and only it, reports the missing client.
func TestAccProviderConfig_unknownAPIKeyForADataSource(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	cfg := providertest.UnknownKeyProvider(env) + `
data "mintlify_static_export_job" "any" {
  job_id = "se_0000000000000000"
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: providertest.ExpectError("Mintlify Provider Not Configured", "`api_key`", "only known after apply"),
		}},
	})
}
