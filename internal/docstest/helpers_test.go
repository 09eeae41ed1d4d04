package docstest

import (
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// What the tests here share beyond internal/provider/providertest (the test's world, the
// provider block, the checks of Terraform's answers and of the fake): the
// provider under test, and the names the examples use.

// The environment variables the provider reads, as the docs name them.
const (
	envAPIKey    = "MINTLIFY_API_KEY"
	envBaseURL   = "MINTLIFY_BASE_URL"
	envProjectID = "MINTLIFY_PROJECT_ID"
)

const (
	bundleAddr  = "mintlify_static_export_bundle.docs"
	archiveAddr = "mintlify_static_export_archive.docs"
)

// identityVersions are the CLIs that import by resource identity.
var identityVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// testProvider is the provider under test, on the fake API's clock.
// Nothing here serves the fake over TLS, so the provider's own HTTP client
// reaches it.
func testProvider(api *fakeapi.Served) fwprovider.Provider {
	return provider.NewOnClock("test", api.Clock)()
}

// newTestEnv is one test's world (providertest.Env): the fake API, checked
// against the API's description, and the provider on its virtual clock.
func newTestEnv(t *testing.T, opts ...fakeapi.Option) *providertest.Env {
	t.Helper()
	return providertest.NewEnv(t, testProvider, fakeapitest.Fake(opts...))
}
