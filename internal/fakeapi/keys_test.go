package fakeapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// TestKeyLimits: a key's expiry answers 401 from then on, its allowlist 403
// from any other address, its read scope 403 on every POST; each says why,
// or only "Unauthorized" and "Forbidden" with KeyOptions.BareRefusals.
func TestKeyLimits(t *testing.T) {
	t.Parallel()
	const jobs = "/v1/static-export/jobs"
	start := map[string]any{"domain": "docs.example.com"}
	for _, bare := range []bool{false, true} {
		opts := []fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{ExpiresAt: fakeapitest.Start.Add(90 * 24 * time.Hour)}})}
		if bare {
			opts = append(opts, fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true}))
		}
		h := newHarness(t, opts...)
		h.fake.SeedDemo()
		job := jobs + "/" + h.startJob(t, start).JobID
		say := func(descriptive, plain string) string {
			if bare {
				return plain
			}
			return descriptive
		}

		h.do(t, http.MethodGet, job, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
		h.do(t, http.MethodGet, job, "mint_wrong", nil).
			wantError(t, http.StatusUnauthorized, say("Invalid or missing API key", "Unauthorized"))

		h.fake.SetKeyLimits(fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.0/24", "2001:db8::1"}})
		h.do(t, http.MethodGet, job, fakeapi.DefaultAPIKey, nil).
			wantError(t, http.StatusForbidden, say("Request from IP address 127.0.0.1 is not on the allowlist of this API key", "Forbidden"))
		h.fake.SetKeyLimits(fakeapi.KeyLimits{AllowedIPs: []string{"127.0.0.0/8"}})
		h.do(t, http.MethodGet, job, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
		h.fake.SetKeyLimits(fakeapi.KeyLimits{AllowedIPs: []string{"127.0.0.1"}})
		h.do(t, http.MethodGet, job, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)

		h.fake.SetKeyLimits(fakeapi.KeyLimits{ReadOnly: true})
		h.do(t, http.MethodGet, "/v2/agent/proj_demo/job/aj_demo_0001", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
		h.do(t, http.MethodPost, jobs, fakeapi.DefaultAPIKey, start).
			wantError(t, http.StatusForbidden, say("This API key is read-only: POST needs the write scope", "Forbidden"))
		h.do(t, http.MethodPost, job+"/bundle", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusForbidden)

		h.fake.SetKeyLimits(fakeapi.KeyLimits{ExpiresAt: fakeapitest.Start.Add(time.Hour)})
		h.do(t, http.MethodPost, jobs, fakeapi.DefaultAPIKey, start).wantStatus(t, http.StatusAccepted)
		h.clock.Advance(time.Hour)
		h.do(t, http.MethodGet, job, fakeapi.DefaultAPIKey, nil).
			wantError(t, http.StatusUnauthorized, say("API key expired at 2026-11-21T10:00:00.000Z", "Unauthorized"))

		if n := h.fake.ExportJobsStarted(); n != 2 {
			t.Errorf("bare %v: %d jobs started, want only the two before the key expired", bare, n)
		}
	}
}

// TestBareRefusalOfADisabledFeature: static export not enabled says only
// "Forbidden" under KeyOptions.BareRefusals.
func TestBareRefusalOfADisabledFeature(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Disabled: true}), fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true}))
	h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, map[string]any{"domain": "docs.example.com"}).
		wantError(t, http.StatusForbidden, "Forbidden")
}
