package providertest

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// ProjectID is the project the provider block of Config names.
const ProjectID = "proj_test"

// ProviderFactory makes the provider under test for a test's fake API: on
// api.Clock, and with api.HTTPClient where it is set (fakeapitest.TLS).
// internal/provider's tests make it from the provider's own type, other
// packages with provider.NewOnClock.
type ProviderFactory func(api *fakeapi.Served) provider.Provider

// Env is one acceptance test's world: a fake Mintlify API on a loopback
// port, checked against the API's description, and a virtual clock shared
// by the fake and the provider, so that a 30-minute export runs in
// milliseconds.
type Env struct {
	// The fake API: Fake, Clock, URL and HTTPClient (see fakeapi.Served).
	fakeapi.Served

	newProvider ProviderFactory
}

// New serves the fake API for t as opts say (fakeapitest.New), and runs
// the provider that newProvider makes on its clock. An Env is for tests
// that run the CLI, through terraform-plugin-testing or CLI, so New finds
// the CLI first (Path): terraform-plugin-testing would download one.
func NewEnv(t *testing.T, newProvider ProviderFactory, opts ...fakeapitest.Option) *Env {
	t.Helper()
	CLIPath(t)
	return &Env{Served: *fakeapitest.New(t, opts...), newProvider: newProvider}
}

// ProviderFactories runs the provider under test in the test process, for
// terraform-plugin-testing's ProtoV6ProviderFactories.
func (e *Env) ProviderFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"mintlify": providerserver.NewProtocol6WithError(e.newProvider(&e.Served)),
	}
}

// CLI is the CLI with the provider under test served on the env's clock
// (Served), for the commands terraform-plugin-testing does not run
// (`apply -invoke`, taint) and for the CLI's output as a user sees it
// (warnings, an action's progress).
func (e *Env) CLI(t *testing.T) *CLI {
	t.Helper()
	return ServedCLI(t, providerserver.NewProtocol6(e.newProvider(&e.Served)))
}

// Config prepends a provider block pointed at the fake, with its default
// API key and ProjectID.
func (e *Env) Config(body string) string {
	return e.ConfigWithKey(fakeapi.DefaultAPIKey, body)
}

// ConfigWithKey is Config with another API key.
func (e *Env) ConfigWithKey(apiKey, body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key    = %[1]q
  base_url   = %[2]q
  project_id = %[3]q
}
%[4]s`, apiKey, e.URL, ProjectID, body)
}
