package provider

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// hangingAnswers makes every request that match selects hang, as a hung
// API does: the fake's clock moves an hour on and no answer comes, so only
// a deadline ends the wait.
func hangingAnswers(env *providertest.Env, match func(*http.Request) bool) {
	env.Fake.SetFaults(fakeapi.FaultRule{Match: match, Faults: []fakeapi.Fault{fakeapi.Hang(time.Hour)}})
}

// TestAccReadTimeouts_refresh: for every resource, a refresh against a
// hung API ends at `timeouts.read` (2 minutes by default), and the error
// names that setting.
func TestAccReadTimeouts_refresh(t *testing.T) {
	t.Parallel()
	forEachFixture(t, suiteRefreshTimeouts, func(t *testing.T, _ string, fx fixture) {
		env, body := fixtureEnv(t, fx)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{
				{Config: providertest.ConfigWithProvider(env, readTimeoutProvider, body)},
				{
					PreConfig:    func() { hangingAnswers(env, fakeapi.IsAPIRequest) },
					RefreshState: true,
					ExpectError: providertest.ExpectError("Mintlify Operation Timed Out", "`timeouts.read` (2m0s) ran out while",
						"raise `timeouts.read`", `timeouts = { read = "5m" }`),
				},
			},
		})
	})
}

// readTimeoutProvider lets one request run past the default read timeout,
// so that only the operation's deadline stops it.
var readTimeoutProvider = providertest.SlowRequests + "\n  project_id = \"" + providertest.ProjectID + "\""

// TestAccReadTimeouts_dataSourcesAndEphemeral: for every data source and
// ephemeral resource, a read against a hung API ends at its deadline
// (`timeouts.read`, or `timeouts.open` for an ephemeral resource), which the
// error names. Once the API answers again, the same configuration applies.
func TestAccReadTimeouts_dataSourcesAndEphemeral(t *testing.T) {
	t.Parallel()
	forEachFixture(t, suiteReadTimeouts, func(t *testing.T, name string, fx fixture) {
		deadline := "`timeouts.read` (2m0s)"
		if strings.HasPrefix(name, "ephemeral.") {
			deadline = "`timeouts.open` ("
		}
		env, body := fixtureEnv(t, fx)
		hangingAnswers(env, fakeapi.IsAPIRequest)
		config := providertest.ConfigWithProvider(env, readTimeoutProvider, body)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			Steps: []resource.TestStep{
				{Config: config, ExpectError: providertest.ExpectError("Mintlify Operation Timed Out", deadline, "ran out while")},
				// The destroy that ends the test opens an ephemeral resource
				// under OpenTofu.
				{PreConfig: func() { env.Fake.SetFaults() }, Config: config},
			},
		})
	})
}
