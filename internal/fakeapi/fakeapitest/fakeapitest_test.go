package fakeapitest_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// get sends an authorized GET to env's fake and returns the status and body.
func get(t *testing.T, env *fakeapi.Served, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, env.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+fakeapi.DefaultAPIKey)
	client := env.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func TestNewServesTheFakeOnItsClock(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.Fake(fakeapi.WithProjects("proj_1")))
	if !env.Clock.Now().Equal(fakeapitest.Start) {
		t.Errorf("the clock starts at %s, want %s", env.Clock.Now(), fakeapitest.Start)
	}
	env.Fake.AddAgentJob("proj_1", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs"})
	if status, body := get(t, env, "/v2/agent/proj_1/job/aj_1"); status != http.StatusOK || !strings.Contains(body, `"createdAt":"2026-11-21T09:00:00.000Z"`) {
		t.Errorf("GET the seeded job: %d %s", status, body)
	}
	// A sleep moves the clock by default.
	if err := env.Clock.Sleep(t.Context(), time.Hour); err != nil || !env.Clock.Now().Equal(fakeapitest.Start.Add(time.Hour)) {
		t.Errorf("after a one-hour sleep (%v) the clock reads %s", err, env.Clock.Now())
	}
}

func TestManualClockWaitsForTheTest(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.ManualClock())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := env.Clock.Sleep(ctx, time.Hour); err == nil || !env.Clock.Now().Equal(fakeapitest.Start) {
		t.Errorf("a sleep on a manual clock returned %v at %s, want it to wait until cancelled at %s", err, env.Clock.Now(), fakeapitest.Start)
	}
}

func TestTLSGivesTheFakeANameThatIsNotLoopback(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.TLS())
	if env.URL != "https://example.com" || env.HTTPClient == nil {
		t.Fatalf("URL %q, client %v; want https://example.com and a client", env.URL, env.HTTPClient)
	}
	if status, _ := get(t, env, "/v1/static-export/jobs/se_missing"); status != http.StatusNotFound {
		t.Errorf("GET an unknown job over TLS: %d, want 404", status)
	}
}

func TestHandlerWrapsTheFake(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler {
		return http.StripPrefix("/prefix", fake)
	}))
	env.URL += "/prefix"
	if status, _ := get(t, env, "/v1/static-export/jobs/se_missing"); status != http.StatusNotFound {
		t.Errorf("GET an unknown job under the prefix: %d, want 404", status)
	}
	if n := env.Fake.Count(http.MethodGet, "/v1/static-export/jobs/"); n != 1 {
		t.Errorf("the fake saw %d requests, want 1", n)
	}
}

// TestCheckerAndUncheckedLetAViolationThrough: a malformed answer breaks
// the description; a Checker records it for the test to assert, and an
// unchecked fake serves it without a word.
func TestCheckerAndUncheckedLetAViolationThrough(t *testing.T) {
	t.Parallel()
	malformed := fakeapitest.Fake(fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsAgentJobRequest, Faults: []fakeapi.Fault{fakeapi.MalformedBody()}}))
	seeded := func(env *fakeapi.Served) *fakeapi.Served {
		env.Fake.AddAgentJob("proj_1", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs"})
		return env
	}
	c := contract.New(t)
	get(t, seeded(fakeapitest.New(t, fakeapitest.Checker(c), malformed)), "/v2/agent/proj_1/job/aj_1")
	if len(c.Violations()) == 0 {
		t.Error("the checker recorded no violation for a malformed answer")
	}
	unchecked := seeded(fakeapitest.New(t, fakeapitest.Unchecked(), malformed))
	if status, _ := get(t, unchecked, "/v2/agent/proj_1/job/aj_1"); status != http.StatusOK {
		t.Errorf("the unchecked fake answered %d, want the malformed 200", status)
	}
}
