package fakeapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// TestOrganizationLimitsAsPlainText: with LimitOptions.PlainText, every
// documented limit answers 429 as plain text without a Retry-After, as
// Mintlify's shared key layer may.
func TestOrganizationLimitsAsPlainText(t *testing.T) {
	h := newHarness(t, fakeapi.WithLimits(fakeapi.LimitOptions{PlainText: true}))
	for range 10 {
		h.do(t, http.MethodPost, "/v1/project/update/proj_1", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
	}
	r := h.do(t, http.MethodPost, "/v1/project/update/proj_1", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusTooManyRequests)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") || r.header.Get("Retry-After") != "" {
		t.Errorf("429 with Content-Type %q and Retry-After %q, want plain text without Retry-After", ct, r.header.Get("Retry-After"))
	}
	if strings.TrimSpace(string(r.body)) != "Too Many Requests" {
		t.Errorf("body = %q, want the plain text", r.body)
	}
	h.clock.Advance(10 * time.Second)
	h.do(t, http.MethodPost, "/v1/project/update/proj_1", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
}

// TestOthersUseHalfTheLimit: with the rest of the organization using half
// of every organization-wide limit, 5 triggers of 10 go through in any 10
// seconds, and a Retry-After counts the others' requests too.
func TestOthersUseHalfTheLimit(t *testing.T) {
	h := newHarness(t, fakeapi.WithLimits(fakeapi.LimitOptions{OthersUse: 0.5}))
	accepted := 0
	for range 60 { // a minute, a request a second
		if h.do(t, http.MethodPost, "/v1/project/update/proj_1", fakeapi.DefaultAPIKey, nil).status == http.StatusAccepted {
			accepted++
		}
		h.clock.Advance(time.Second)
	}
	if accepted < 29 || accepted > 31 {
		t.Errorf("%d triggers of 60 accepted in a minute, want about 30: half of 10 per 10 s", accepted)
	}
	previews := 0
	for range 10 {
		if h.do(t, http.MethodPost, "/v1/project/preview/proj_1", fakeapi.DefaultAPIKey, map[string]string{"branch": "b"}).status == http.StatusAccepted {
			previews++
		}
	}
	if previews != 2 {
		t.Errorf("%d previews accepted at once, want 2 (others use 3 of 5 a minute, rounded)", previews)
	}
}

// TestAgentPromptLimitPerProject: agent job creation and follow-ups allow
// 100 per project per hour; another project has its own.
func TestAgentPromptLimitPerProject(t *testing.T) {
	h := newHarness(t, fakeapi.WithProjects("proj_1", "proj_2"))
	for range 100 {
		h.do(t, http.MethodPost, "/v2/agent/proj_1/job", fakeapi.DefaultAPIKey, map[string]string{"prompt": "p"}).wantStatus(t, http.StatusCreated)
	}
	h.do(t, http.MethodPost, "/v2/agent/proj_1/job", fakeapi.DefaultAPIKey, map[string]string{"prompt": "p"}).wantStatus(t, http.StatusTooManyRequests)
	h.do(t, http.MethodPost, "/v2/agent/proj_2/job", fakeapi.DefaultAPIKey, map[string]string{"prompt": "p"}).wantStatus(t, http.StatusCreated)
}

// TestOrganizationLimitFault: the OrganizationLimit fault is a plain-text
// 429 without a Retry-After, on any call.
func TestOrganizationLimitFault(t *testing.T) {
	h := newHarness(t, fakeapi.WithFaults(fakeapi.FaultRule{Count: 1, Faults: []fakeapi.Fault{fakeapi.OrganizationLimit()}}))
	r := h.do(t, http.MethodGet, "/v1/project/update-status/nope", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusTooManyRequests)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") || r.header.Get("Retry-After") != "" {
		t.Errorf("429 with Content-Type %q and Retry-After %q, want plain text without Retry-After", ct, r.header.Get("Retry-After"))
	}
}
