package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// TestSandboxContractRefusesAnUnknownValue: `make sandbox CONTRACT=...`
// with a value that is not a contract stops before building anything,
// naming the flag and its three values.
func TestSandboxContractRefusesAnUnknownValue(t *testing.T) {
	t.Parallel()
	for _, value := range []string{"tomorrow", "", "Both"} {
		err := run(t.Context(), io.Discard, "succeed", value)
		if err == nil {
			t.Fatalf("-contract %q was accepted", value)
		}
		for _, want := range []string{"-contract", "today, both or next"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("-contract %q: %q does not say %q", value, err, want)
			}
		}
	}
}

// TestSandboxContractServesWhatItSays: under each value of -contract, the
// sandbox's stand-in starts the exports of the contracts it serves and
// answers the others' calls 404 (a path without a route), and the sandbox
// prints the value with what it serves. Without the flag it serves today's
// contract, as Mintlify does now.
func TestSandboxContractServesWhatItSays(t *testing.T) {
	t.Parallel()
	if defaultContract != "today" {
		t.Errorf("the sandbox serves %q by default, and CONTRIBUTING says today's contract", defaultContract)
	}
	for _, tc := range []struct {
		name                string
		domain, project     bool
		says, alsoMentioned string
	}{
		{"today", true, false, "today's domain-scoped contract only", "both, next"},
		{"both", true, true, "both contracts", "today, next"},
		{"next", false, true, "the project-scoped contract only", "today, both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			contract, err := contractFor(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			opts, err := seeds("succeed")
			if err != nil {
				t.Fatal(err)
			}
			api, err := devprovider.StartAPI(append(opts, contract.option())...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = api.Close() })
			c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(api.URL), mintlify.WithMaxRetries(0))
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
			expectServed(t, "a domain-scoped start", tc.domain, err)
			_, err = c.StartProjectExport(t.Context(), devprovider.ProjectID, mintlify.ProjectExportRequest{})
			expectServed(t, "a project-scoped start", tc.project, err)

			var out strings.Builder
			printContract(&out, tc.name)
			said := strings.Join(strings.Fields(out.String()), " ")
			for _, want := range []string{"Static exports (-contract " + tc.name + "; also " + tc.alsoMentioned + ")", tc.says} {
				if !strings.Contains(said, want) {
					t.Errorf("the sandbox does not say %q:\n%s", want, out.String())
				}
			}
		})
	}
}

// expectServed fails unless a call was served (no error) when served is
// true, and answered 404 otherwise.
func expectServed(t *testing.T, what string, served bool, err error) {
	t.Helper()
	switch {
	case served && err != nil:
		t.Errorf("%s: %v, want it served", what, err)
	case !served && mintlify.StatusCode(err) != http.StatusNotFound:
		t.Errorf("%s: err = %v, want a 404 (not served)", what, err)
	}
}
