package mintlify

import (
	"net/http"
	"slices"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// TestReadProjectExportRefusal: each 401 and 403 of the next contract,
// as the stand-in words it and as a bare "Unauthorized" or "Forbidden",
// read into the causes the provider names.
func TestReadProjectExportRefusal(t *testing.T) {
	t.Parallel()
	bare := fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true})
	tests := []struct {
		name     string
		next     fakeapi.NextExport
		opts     []fakeapi.Option
		key      string
		read     bool // a status read rather than a start
		status   int
		named    []Refusal
		possible []Refusal
	}{
		{name: "invalid key", key: "mint_wrong", status: 401, named: []Refusal{RefusalInvalidKey}},
		{name: "expired key", opts: []fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{ExpiresAt: start}})},
			status: 401, named: []Refusal{RefusalExpiredKey}},
		{name: "plan without API access", opts: []fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{NoAPIAccess: true}})},
			status: 401, named: []Refusal{RefusalNoAPIAccess}},
		{name: "not enabled, as 401", next: fakeapi.NextExport{NotEnabled: 401}, status: 401, named: []Refusal{RefusalExportNotEnabled}},
		{name: "not enabled, as 403", next: fakeapi.NextExport{NotEnabled: 403}, status: 403, named: []Refusal{RefusalExportNotEnabled}},
		{name: "missing write scope", opts: []fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{ReadOnly: true}})},
			status: 403, named: []Refusal{RefusalReadOnlyKey}},
		{name: "IP allowlist", opts: []fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.7"}}})},
			status: 403, named: []Refusal{RefusalIPAllowlist}},
		// Bare texts name nothing: the status and the layer say what is possible.
		{name: "bare 401 of the key layer", opts: []fakeapi.Option{bare}, key: "mint_wrong", status: 401,
			possible: []Refusal{RefusalInvalidKey, RefusalExpiredKey, RefusalNoAPIAccess, RefusalExportNotEnabled}},
		{name: "bare 403 of the key layer on a start", opts: []fakeapi.Option{bare, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{ReadOnly: true}})},
			status: 403, possible: []Refusal{RefusalReadOnlyKey, RefusalIPAllowlist, RefusalExportNotEnabled}},
		{name: "bare 403 of the key layer on a read", read: true,
			opts:   []fakeapi.Option{bare, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.7"}}})},
			status: 403, possible: []Refusal{RefusalIPAllowlist, RefusalExportNotEnabled}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			next := tt.next
			next.Contracts = fakeapi.ServeNext
			env := fakeapitest.New(t, fakeapitest.Fake(append(tt.opts, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &next}))...))
			key := tt.key
			if key == "" {
				key = fakeapi.DefaultAPIKey
			}
			c, err := New(key, WithBaseURL(env.URL), WithClock(env.Clock))
			if err != nil {
				t.Fatal(err)
			}
			if tt.read {
				_, err = c.GetProjectExportJob(t.Context(), testProject, "6520f3a1c9b1a20012ab34cd")
			} else {
				_, err = c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{})
			}
			r, ok := ReadProjectExportRefusal(err)
			if tt.possible == nil {
				tt.possible = tt.named
			}
			if !ok || r.StatusCode != tt.status || !slices.Equal(r.Named, tt.named) || !slices.Equal(r.Possible, tt.possible) {
				t.Errorf("%v read as %+v (%t); want status %d, named %q, possible %q", err, r, ok, tt.status, tt.named, tt.possible)
			}
		})
	}
}

// TestReadProjectExportRefusalWords: texts the stand-in does not write,
// and answers that are not refusals.
func TestReadProjectExportRefusalWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err   *APIError
		named []Refusal
		ok    bool
	}{
		{&APIError{StatusCode: 401, Message: "Static export is not enabled for this project.", Code: "forbidden"}, []Refusal{RefusalExportNotEnabled}, true},
		{&APIError{StatusCode: 403, Message: "Static export is not enabled for this deployment. Contact sales@mintlify.com to upgrade.", Code: "x"},
			[]Refusal{RefusalExportNotEnabled}, true},
		{&APIError{StatusCode: 401, Message: "Your organization's plan does not include access to the API"}, []Refusal{RefusalNoAPIAccess}, true},
		{&APIError{StatusCode: 401, Message: "No API key provided"}, []Refusal{RefusalInvalidKey}, true},
		{&APIError{StatusCode: 401, Message: "API key disabled"}, nil, true},
		{&APIError{StatusCode: 403, Message: "Key lacks the write scope"}, []Refusal{RefusalReadOnlyKey}, true},
		{&APIError{StatusCode: 404, Message: "Project not found"}, nil, false},
	}
	for _, tt := range tests {
		r, ok := ReadProjectExportRefusal(&RetryError{Attempts: 1, Err: tt.err})
		if ok != tt.ok || !slices.Equal(r.Named, tt.named) {
			t.Errorf("%d %q: named %q (%t), want %q (%t)", tt.err.StatusCode, tt.err.Message, r.Named, ok, tt.named, tt.ok)
		}
	}
}

// TestProjectExportProblemOf: the 400s and 404s of the next contract, as
// the stand-in answers them, each read into its cause.
func TestProjectExportProblemOf(t *testing.T) {
	t.Parallel()
	c, _, _, _ := nextFake(t, fakeapi.NextExport{}, fakeapi.WithProjects(testProject))
	tests := []struct {
		name string
		call func() error
		want ProjectExportProblem
	}{
		{"unsupported base path", func() error {
			_, err := c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{BasePath: "/api"})
			return err
		}, ProblemBasePath},
		{"malformed project id", func() error {
			_, err := c.StartProjectExport(t.Context(), "proj 1", ProjectExportRequest{})
			return err
		}, ProblemProjectID},
		{"unknown project, on a start", func() error {
			_, err := c.StartProjectExport(t.Context(), "proj_2", ProjectExportRequest{})
			return err
		}, ProblemProjectNotFound},
		{"unknown project, on a read", func() error {
			_, err := c.GetProjectExportJob(t.Context(), "proj_2", "6520f3a1c9b1a20012ab34cd")
			return err
		}, ProblemProjectNotFound},
		{"unknown job", func() error {
			_, err := c.GetProjectExportJob(t.Context(), testProject, "6520f3a1c9b1a20012ab34cd")
			return err
		}, ProblemJobNotFound},
	}
	for _, tt := range tests {
		err := tt.call()
		if got := ProjectExportProblemOf(err); got != tt.want || MayHaveStarted(err) {
			t.Errorf("%s: %v read as %q, want %q (and no job started)", tt.name, err, got, tt.want)
		}
	}
}

// TestIsDomainExportRetired: today's calls against a stand-in that serves
// both contracts, then only the next one, answering the retired calls as
// a path without a route (404) or as Gone (410).
func TestIsDomainExportRetired(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		next          fakeapi.NextExport
		startRetired  bool
		readRetired   bool
		startSucceeds bool
	}{
		{name: "both contracts served", next: fakeapi.NextExport{Contracts: fakeapi.ServeBoth}, startSucceeds: true},
		{name: "next only, 404", next: fakeapi.NextExport{Contracts: fakeapi.ServeNext}, startRetired: true, readRetired: true},
		{name: "next only, 410", next: fakeapi.NextExport{Contracts: fakeapi.ServeNext, RetiredStatus: http.StatusGone},
			startRetired: true, readRetired: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := fakeapitest.New(t, fakeapitest.Unchecked(), fakeapitest.Fake(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &tt.next})))
			c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock))
			if err != nil {
				t.Fatal(err)
			}
			_, startErr := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
			_, readErr := c.GetStaticExportJob(t.Context(), "se_0123456789abcdef")
			_, bundleErr := c.GenerateBundle(t.Context(), "se_0123456789abcdef")
			if (startErr == nil) != tt.startSucceeds || IsDomainExportRetired(startErr) != tt.startRetired {
				t.Errorf("start: %v, retired %t; want success %t, retired %t", startErr, IsDomainExportRetired(startErr),
					tt.startSucceeds, tt.startRetired)
			}
			for _, err := range []error{readErr, bundleErr} {
				if err == nil || IsDomainExportRetired(err) != tt.readRetired {
					t.Errorf("read or bundle: %v, retired %t; want an error, retired %t", err, IsDomainExportRetired(err), tt.readRetired)
				}
			}
		})
	}
}

// TestIsDomainExportRetiredRoutes: only today's three calls count, and a
// project-scoped call (even of a project named "jobs") never does.
func TestIsDomainExportRetiredRoutes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		route  string
		status int
		want   bool
	}{
		{"POST /v1/static-export/jobs", 404, true},
		{"POST /v1/static-export/jobs", 405, true},
		{"POST /v1/static-export/jobs", 410, true},
		{"POST /v1/static-export/jobs", 400, false},
		{"GET /v1/static-export/jobs/se_1", 404, false},
		{"GET /v1/static-export/jobs/se_1", 410, true},
		{"POST /v1/static-export/jobs/se_1/bundle", 410, true},
		{"POST /v1/static-export/jobs/se_1/bundle", 404, false},
		{"POST /v1/static-export/jobs/jobs", 410, false},
		{"GET /v1/static-export/jobs/jobs/6520f3a1", 410, false},
		{"GET /v2/agent/p/job/j", 410, false},
	} {
		err := &APIError{Route: tt.route, StatusCode: tt.status}
		if got := IsDomainExportRetired(err); got != tt.want {
			t.Errorf("%d on %s: retired %t, want %t", tt.status, tt.route, got, tt.want)
		}
		if problem := ProjectExportProblemOf(err); tt.want && problem != "" {
			t.Errorf("%d on %s: read as the project-scoped %q too", tt.status, tt.route, problem)
		}
	}
}

// TestIsProjectExportNotServed: a project-scoped call to an API that serves
// today's contract only answers as a path without a route, which is told
// from the contract's own 404s (no such project, no such job), and from a
// job that is gone under today's contract.
func TestIsProjectExportNotServed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{&APIError{Route: "POST /v1/static-export/proj_1/jobs", StatusCode: 404, Message: "No route for POST /v1/static-export/proj_1/jobs"}, true},
		{&APIError{Route: "GET /v1/static-export/proj_1/jobs/6520", StatusCode: 404, Message: "Cannot GET /v1/static-export/proj_1/jobs/6520"}, true},
		{&APIError{Route: "POST /v1/static-export/proj_1/jobs", StatusCode: 405, Message: "Method Not Allowed"}, true},
		{&APIError{Route: "POST /v1/static-export/proj_1/jobs", StatusCode: 404, Code: "project_not_found", Message: `Project "proj_1" not found`}, false},
		{&APIError{Route: "GET /v1/static-export/proj_1/jobs/6520", StatusCode: 404, Code: "job_not_found", Message: "No static export job"}, false},
		{&APIError{Route: "GET /v1/static-export/jobs/se_1", StatusCode: 404, Message: "No route for GET /v1/static-export/jobs/se_1"}, false},
	} {
		if got := IsProjectExportNotServed(tt.err); got != tt.want {
			t.Errorf("%v: not served %t, want %t", tt.err, got, tt.want)
		}
	}
	env := fakeapitest.New(t, fakeapitest.Unchecked()) // today's contract only
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock))
	if err != nil {
		t.Fatal(err)
	}
	_, startErr := c.StartProjectExport(t.Context(), "proj_1", ProjectExportRequest{})
	_, readErr := c.GetStaticExportJob(t.Context(), "se_0123456789abcdef")
	if !IsProjectExportNotServed(startErr) || IsNoRoute(readErr) || IsDomainExportRetired(readErr) {
		t.Errorf("start %v (want not served), read %v (want a job not found)", startErr, readErr)
	}
}
