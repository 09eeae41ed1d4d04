package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/tfcli"
)

// testStart is the virtual moment every acceptance test begins at.
var testStart = fakeapitest.Start

const testProjectID = "proj_test"

// TestMain runs the tests, then removes the provider binary that the
// real-binary tests share (tfcli.Built). The CLI is looked up by the tests
// that need it (tfcli.Path), so that the others run without one.
func TestMain(m *testing.M) { tfcli.Main(m) }

// testEnv is one acceptance test's world: a fake Mintlify API on a loopback
// port, checked against the vendor contract, and a virtual clock shared by the fake and the provider, so that a
// 30-minute export runs in milliseconds.
type testEnv struct {
	fake  *fakeapi.Server
	clock *clock.Fake
	url   string
	// httpClient, when not nil, replaces the provider's HTTP client (see
	// newTLSTestEnv).
	httpClient *http.Client
}

// newTestEnv serves the fake (fakeapitest), every exchange validated
// against the in-repo OpenAPI description.
func newTestEnv(t *testing.T, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	return newTestEnvServing(t, fakeapitest.Fake(opts...))
}

// newTestEnvWithHandler serves the fake behind wrap, for tests that mount it
// under a path prefix.
func newTestEnvWithHandler(t *testing.T, wrap func(http.Handler) http.Handler, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	return newTestEnvServing(t, fakeapitest.Fake(opts...),
		fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler { return wrap(fake) }))
}

// newUncheckedTestEnv serves the fake without the contract check, for
// faults that break an answer's body (a truncated or malformed JSON body),
// which the checker would rightly report as a violation.
func newUncheckedTestEnv(t *testing.T, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	return newTestEnvServing(t, fakeapitest.Unchecked(), fakeapitest.Fake(opts...))
}

// newTestEnvServing serves the fake as opts say. The env is for tests
// that run the CLI (through terraform-plugin-testing, or tfcli), so it
// finds the CLI first: terraform-plugin-testing would download one.
func newTestEnvServing(t *testing.T, opts ...fakeapitest.Option) *testEnv {
	t.Helper()
	tfcli.Path(t)
	env := fakeapitest.New(t, opts...)
	return &testEnv{fake: env.Fake, clock: env.Clock, url: env.URL, httpClient: env.HTTPClient}
}

// configWithProvider prepends a provider block pointed at the fake, with
// the default key and the given extra arguments (HCL lines).
func (e *testEnv) configWithProvider(args, body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key  = %[1]q
  base_url = %[2]q
  %[3]s
}
%[4]s`, fakeapi.DefaultAPIKey, e.url, args, body)
}

// refusal is a configuration that must fail at plan time with the phrases
// of want (separated by "|", see expectError).
type refusal struct{ config, want string }

// expectRefusedAtPlan plans each configuration, expects its error, and then
// checks that none of them sent a request.
func expectRefusedAtPlan(t *testing.T, env *testEnv, refusals []refusal) {
	t.Helper()
	var steps []resource.TestStep
	for _, r := range refusals {
		steps = append(steps, resource.TestStep{
			Config:      r.config,
			PlanOnly:    true,
			ExpectError: expectError(strings.Split(r.want, "|")...),
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.factories(), Steps: steps})
	if n := len(env.fake.Requests()); n != 0 {
		t.Errorf("bad input reached the API: %d requests, want 0", n)
	}
}

// factories runs the provider in the test process on the env's clock, for
// terraform-plugin-testing.
func (e *testEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"mintlify": providerserver.NewProtocol6WithError(e.provider()),
	}
}

// cli is the CLI with the provider served on the env's clock (tfcli.Served),
// for the commands terraform-plugin-testing does not run and for the CLI's
// output as a user sees it (warnings, an action's progress).
func (e *testEnv) cli(t *testing.T) *tfcli.CLI {
	t.Helper()
	return tfcli.Served(t, providerserver.NewProtocol6(e.provider()))
}

// provider is the provider under test on the env's clock and HTTP client.
func (e *testEnv) provider() *mintlifyProvider {
	return &mintlifyProvider{version: "test", clock: e.clock, httpClient: e.httpClient}
}

// config prepends a provider block pointed at the fake.
func (e *testEnv) config(body string) string {
	return e.configWithKey(fakeapi.DefaultAPIKey, body)
}

func (e *testEnv) configWithKey(apiKey, body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key    = %[1]q
  base_url   = %[2]q
  project_id = %[3]q
}
%[4]s`, apiKey, e.url, testProjectID, body)
}

// startJobDirectly starts an export through the client, as a CI script
// would, and returns its id.
func startJobDirectly(t *testing.T, env *testEnv) string {
	t.Helper()
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(env.url), mintlify.WithClock(env.clock))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return job.JobID
}

// expectError matches diagnostics as Terraform prints them: the phrases in
// order, each space free to be a line break where the CLI wrapped the text.
func expectError(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}
