package provider

import (
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccReliability_applySurvivesFaults: under bursts of 429 and every
// fourth idempotent request failing with a 5xx or a dropped connection,
// `terraform apply` succeeds and starts exactly one export.
func TestAccReliability_applySurvivesFaults(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{QueueFor: 30 * time.Second, RunFor: 20 * time.Minute}
	}), fakeapi.WithFaults(
		// A burst of 429 on the first three requests: the start request.
		fakeapi.FaultRule{Count: 3, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(2 * time.Second)}},
		// Another burst a few requests later, while polling, with
		// Retry-After as an HTTP date.
		fakeapi.FaultRule{Skip: 3, Count: 3, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(5 * time.Second).WithRetryAfterDate()}},
		// Every fourth status or bundle request fails.
		fakeapi.FaultRule{
			Match: fakeapi.AnyOf(fakeapi.IsStatusRequest, fakeapi.IsBundleRequest),
			Every: 4,
			Faults: []fakeapi.Fault{
				fakeapi.ServerError(http.StatusBadGateway), fakeapi.DropConnection(),
				fakeapi.ServerError(http.StatusServiceUnavailable), fakeapi.ServerError(http.StatusInternalServerError),
				fakeapi.DropConnection(), fakeapi.ServerError(http.StatusGatewayTimeout),
			},
		},
	))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.BundleConfig("docs.example.com", "")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.BundleAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
			},
			Check: resource.ComposeTestCheckFunc(
				acctest.CheckBundleLinkWorks(providertest.BundleAddr),
				func(*terraform.State) error { return env.ExpectExportJobsAndLinks(1, 1) },
			),
		}},
	})
	reqs := env.Fake.Requests()
	t.Logf("%d API requests (%d start, %d status, %d bundle), %d faults: %d 429, %d 5xx, %d dropped connections",
		len(reqs)-env.Fake.Count(http.MethodGet, "/bundles/"), providertest.CountMatching(reqs, fakeapi.IsStartRequest),
		providertest.CountMatching(reqs, fakeapi.IsStatusRequest), providertest.CountMatching(reqs, fakeapi.IsBundleRequest),
		env.Fake.FaultsInjected(""), countStatus(reqs, http.StatusTooManyRequests),
		countStatus(reqs, 500)+countStatus(reqs, 502)+countStatus(reqs, 503)+countStatus(reqs, 504),
		env.Fake.FaultsInjected(fakeapi.FaultDrop))
	if env.Fake.FaultsInjected(fakeapi.FaultDrop) == 0 || countStatus(reqs, 502)+countStatus(reqs, 503) == 0 {
		t.Error("the scenario injected no dropped connection or no 5xx; lengthen the job")
	}
	if got := env.Fake.ExportJobsStarted(); got != 1 {
		t.Errorf("export jobs started = %d, want exactly 1", got)
	}
}

// countStatus counts the recorded requests answered with status.
func countStatus(reqs []fakeapi.Request, status int) int {
	n := 0
	for _, r := range reqs {
		if r.Status == status {
			n++
		}
	}
	return n
}

// TestAccReliability_startRateLimited: a start request that keeps getting
// 429 fails once the retries run out, and says that nothing started.
func TestAccReliability_startRateLimited(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsStartRequest, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(time.Second)},
	}))
	providertest.ExpectApplyFails(t, env, providertest.ConfigWithProvider(env, "max_retries = 2", providertest.BundleConfig("docs.example.com", "")),
		[]string{"Mintlify API Rate Limit Exceeded", "HTTP 429", "after 3 attempts", "raise the provider's `max_retries`",
			"No static export job was started."},
		fakeapi.IsStartRequest, 3, 0)
}

// TestAccReliability_startMayHaveStarted: a start request that reached the
// API and got no definite answer is not retried; the error says a job may
// have started, and applying again starts one export.
func TestAccReliability_startMayHaveStarted(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		env  func(*testing.T, ...fakeapi.Option) *acctest.Env
		flt  fakeapi.Fault
		want string
		jobs int // jobs left by the lost request
	}{
		"502":                {providertest.NewTestEnv, fakeapi.ServerError(http.StatusBadGateway), "HTTP 502", 0},
		"dropped connection": {providertest.NewTestEnv, fakeapi.DropConnection(), "No usable answer", 0},
		"truncated answer":   {providertest.NewUncheckedTestEnv, fakeapi.TruncatedBody(), "the response body was truncated", 1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := tc.env(t, fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStartRequest, Count: 1, Faults: []fakeapi.Fault{tc.flt}}))
			cfg := env.Config(providertest.BundleConfig("docs.example.com", ""))
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: env.ProviderFactories(),
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ExpectError: acctest.ExpectError("Static Export May Have Started", tc.want,
							"a static export job may have started", "did not retry", "Apply again"),
						Check: func(*terraform.State) error {
							if n := env.Fake.Count(http.MethodPost, "/v1/static-export/jobs"); n != 1 {
								t.Errorf("start requests = %d, want 1: never retried", n)
							}
							return env.ExpectExportJobsAndLinks(tc.jobs, 0)
						},
					},
					{
						Config: cfg,
						Check:  func(*terraform.State) error { return env.ExpectExportJobsAndLinks(tc.jobs+1, 1) },
					},
				},
			})
		})
	}
}

// TestAccReliability_retryWouldOutlastTimeout: no retry wait runs past the
// resource's timeout; the provider stops at once and says why.
func TestAccReliability_retryWouldOutlastTimeout(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsStartRequest, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(5 * time.Minute)},
	}))
	providertest.ExpectApplyFails(t, env, env.Config(providertest.BundleConfig("docs.example.com", `timeouts = { create = "30s" }`)),
		[]string{"Mintlify API Rate Limiting", "HTTP 429", "asked the provider to wait 5m0s (`Retry-After`); the provider " +
			"waits at most 1m0s", "timeout ends in 30s", "No static export job was started."},
		fakeapi.IsStartRequest, 1, 0)
	if waited := env.Clock.Now().Sub(providertest.TestStart); waited != 0 {
		t.Errorf("the provider waited %s before giving up, want 0", waited)
	}
}

// TestAccReliability_apiDown: a status endpoint that answers 503 to every
// request fails the apply after max_retries, keeping the job in state.
func TestAccReliability_apiDown(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusServiceUnavailable)},
	}))
	// The default max_retries is 5: six status requests.
	providertest.ExpectApplyFails(t, env, env.Config(providertest.BundleConfig("docs.example.com", "")),
		[]string{"Mintlify API Unavailable", "HTTP 503", "after 6 attempts", "terraform untaint"},
		fakeapi.IsStatusRequest, 6, 1)
}

// TestAccReliability_slowAnswers: slow answers spend the resource's
// timeout (on the API's clock); within it they are only waited for.
func TestAccReliability_slowAnswers(t *testing.T) {
	t.Parallel()
	slow := func(d time.Duration) fakeapi.Option {
		return fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.SlowResponse(d)}})
	}
	within := providertest.NewTestEnv(t, slow(20*time.Second))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: within.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: within.Config(providertest.BundleConfig("docs.example.com", "")),
			Check:  func(*terraform.State) error { return within.ExpectExportJobsAndLinks(1, 1) },
		}},
	})
	beyond := providertest.NewTestEnv(t, slow(10*time.Minute))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: beyond.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      beyond.Config(providertest.BundleConfig("docs.example.com", `timeouts = { create = "5m" }`)),
			ExpectError: acctest.ExpectError("Static Export Timed Out", "`timeouts.create` (5m0s)"),
		}},
	})
}

// TestAccReliability_permanentErrorsFailFast: 401 and 403 are never
// retried: one request, one clear diagnostic.
func TestAccReliability_permanentErrorsFailFast(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		opts []fakeapi.Option
		key  string
		want []string
	}{
		"401": {nil, "mint_revoked_key", []string{"Mintlify API Key Rejected", "HTTP 401", "`MINTLIFY_API_KEY`", "No static export job was started."}},
		"403": {[]fakeapi.Option{fakeapi.WithStaticExportDisabled()}, fakeapi.DefaultAPIKey, []string{"Static Export Not Enabled", "HTTP 403", "Enterprise", "No static export job was started."}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, tc.opts...)
			providertest.ExpectApplyFails(t, env, env.ConfigWithKey(tc.key, providertest.BundleConfig("docs.example.com", "")), tc.want,
				fakeapi.IsAPIRequest, 1, 0)
		})
	}
}
