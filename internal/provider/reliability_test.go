package provider

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccReliability_applySurvivesFaults: for every type, under bursts of
// 429 and with the requests the provider retries failing with a 5xx or a
// dropped connection (the first two, then every fourth), `terraform apply`
// succeeds, starts exactly what one apply starts, and the plan after it is
// empty.
func TestAccReliability_applySurvivesFaults(t *testing.T) {
	t.Parallel()
	forEachFixture(t, suiteFaults, func(t *testing.T, _ string, fx fixture) {
		env, body := fixtureEnv(t, fx)
		before := started(env.Fake)
		failures := []fakeapi.Fault{
			fakeapi.ServerError(http.StatusBadGateway), fakeapi.DropConnection(),
			fakeapi.ServerError(http.StatusServiceUnavailable), fakeapi.ServerError(http.StatusInternalServerError),
			fakeapi.DropConnection(), fakeapi.ServerError(http.StatusGatewayTimeout),
		}
		env.Fake.SetFaults(
			// A burst of 429 on the first two requests, the second with
			// Retry-After as an HTTP date.
			fakeapi.FaultRule{Count: 2, Faults: []fakeapi.Fault{
				fakeapi.TooManyRequests(2 * time.Second), fakeapi.TooManyRequests(5 * time.Second).WithRetryAfterDate(),
			}},
			fakeapi.FaultRule{Match: fx.retried, Count: 2, Faults: failures},
			fakeapi.FaultRule{Match: fx.retried, Every: 4, Faults: failures},
		)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config: env.Config(body),
				Check: func(*terraform.State) error {
					if n := started(env.Fake) - before; n != fx.starts {
						return fmt.Errorf("the apply made %d starts (see started), want %d", n, fx.starts)
					}
					return nil
				},
			}},
		})
		if n := env.Fake.FaultsInjected(fakeapi.FaultStatus); n < 2 {
			t.Errorf("%d faults answered, want the burst of 429 at least", n)
		}
		if providertest.CountMatching(env.Fake.Requests(), fx.retried) > 0 && env.Fake.FaultsInjected(fakeapi.FaultDrop) == 0 {
			t.Error("the scenario dropped no connection: the test would prove nothing")
		}
	})
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
		env  func(*testing.T, ...fakeapi.Option) *providertest.Env
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
						ExpectError: providertest.ExpectError("Static Export May Have Started", tc.want,
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

// TestAccReliability_apiDown: for every type, when each request the
// provider retries is answered 503, the apply fails after max_retries (5 by
// default: six attempts of the first such request), saying the API is
// unavailable.
func TestAccReliability_apiDown(t *testing.T) {
	t.Parallel()
	forEachFixture(t, suiteAPIDown, func(t *testing.T, _ string, fx fixture) {
		env, body := fixtureEnv(t, fx)
		retried := providertest.ButKeyChecks(fx.retried)
		before := providertest.CountMatching(env.Fake.Requests(), retried)
		env.Fake.SetFaults(fakeapi.FaultRule{Match: fx.retried, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusServiceUnavailable)}})
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config:      env.Config(body),
				ExpectError: providertest.ExpectError("Mintlify API Unavailable", "HTTP 503", "after 6 attempts"),
			}},
		})
		if n := providertest.CountMatching(env.Fake.Requests(), retried) - before; n != 6 {
			t.Errorf("%d requests answered 503, want 6", n)
		}
	})
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
			ExpectError: providertest.ExpectError("Static Export Timed Out", "`timeouts.create` (5m0s)"),
		}},
	})
}

// TestAccReliability_permanentErrorsFailFast: for every type, 401 and 403
// are never retried: one request, one diagnostic that says why, and nothing
// started. The 403 is bare ("Forbidden"), as from a key off its IP
// allowlist, which every call can meet.
func TestAccReliability_permanentErrorsFailFast(t *testing.T) {
	t.Parallel()
	forEachFixture(t, suiteRefusals, func(t *testing.T, _ string, fx fixture) {
		for name, tc := range map[string]struct {
			key    string
			limits fakeapi.KeyLimits
			status int
			want   []string
		}{
			"401": {"mint_revoked_key", fakeapi.KeyLimits{}, http.StatusUnauthorized, []string{"Mintlify API Key Rejected", "HTTP 401", "`MINTLIFY_API_KEY`"}},
			"403": {fakeapi.DefaultAPIKey, fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.0/24"}}, http.StatusForbidden,
				[]string{"Mintlify API Request Forbidden", "HTTP 403: Forbidden", "allowlist"}},
		} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				env, body := fixtureEnv(t, fx, fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true}))
				requests, jobs := len(env.Fake.Requests()), started(env.Fake)
				env.Fake.SetKeyLimits(tc.limits)
				resource.Test(t, resource.TestCase{
					ProtoV6ProviderFactories: env.ProviderFactories(),
					Steps:                    []resource.TestStep{{Config: env.ConfigWithKey(tc.key, body), ExpectError: providertest.ExpectError(tc.want...)}},
				})
				// A 401 stops at the plan's key check, where the plan
				// creates something, else at the call; a 403 (the check's
				// read proves the key) is the call's. Each is sent once.
				refused := map[string]int{}
				for _, r := range env.Fake.Requests()[requests:] {
					if r.Status == tc.status && r.Path != providertest.KeyCheckPath {
						refused[r.Method+" "+r.Path]++
					}
				}
				for call, n := range refused {
					if n != 1 {
						t.Errorf("%s was answered %d %d times, want once: never retried", call, tc.status, n)
					}
				}
				if len(refused) > 1 || tc.status == http.StatusForbidden && len(refused) != 1 {
					t.Errorf("%d calls were refused besides the key check, want one (none when the key check refused a 401)", len(refused))
				}
				if n := started(env.Fake) - jobs; n != 0 {
					t.Errorf("%d starts (see started), want none", n)
				}
			})
		}
	})
}
