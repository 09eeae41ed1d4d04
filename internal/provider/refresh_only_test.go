package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestRefreshOnlyIsQuietForEveryType: for every type, `terraform plan
// -refresh-only -detailed-exitcode` right after apply, and an hour later,
// reports no change made outside Terraform; and `terraform apply
// -refresh-only` changes nothing that `terraform show -json` shows. The
// types run together, one configuration for the types each CLI has: a
// refresh reads each on its own, and a change of any one would show.
func TestRefreshOnlyIsQuietForEveryType(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	forFixturesTogether(t, suiteRefreshOnly, func(t *testing.T, names []string) {
		env, body := fixturesEnv(t, names)
		cli := env.CLI(t)
		cli.WriteConfig(env.Config(body))
		cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
		quirk := refreshOnlyQuirk(t)
		for _, step := range []struct {
			name    string
			advance time.Duration
		}{{"right after apply", 0}, {"an hour later", time.Hour}} {
			env.Clock.Advance(step.advance)
			before := cli.MustRun("show", "-json", "-no-color").Stdout
			res := cli.Run("plan", "-refresh-only", "-detailed-exitcode", "-no-color", "-input=false")
			if res.Exit != 0 && (res.Exit != 2 || quirk == "" && !strings.Contains(res.Output, noChanges)) {
				t.Fatalf("%s: a drift check reports a change where nothing changed:\n%s", step.name, res)
			}
			if res.Exit == 2 && quirk == "" {
				t.Logf("%s: terraform exits 2 from a refresh-only plan that says %q", step.name, noChanges)
			}
			cli.MustRun("apply", "-refresh-only", "-auto-approve", "-no-color", "-input=false")
			if after := cli.MustRun("show", "-json", "-no-color").Stdout; after != before {
				t.Fatalf("%s: apply -refresh-only changed the state:\nbefore:\n%s\nafter:\n%s", step.name, before, after)
			}
		}
		if quirk != "" {
			t.Log(quirk)
		}
	})
}

// noChanges is what Terraform says of a refresh that found nothing. Some
// CLIs (1.15 and later, in a workspace with a data source, built-in ones
// included) exit 2 from `plan -refresh-only -detailed-exitcode` while
// saying it.
const noChanges = "No changes. Your infrastructure still matches the configuration."

// refreshOnlyQuirk explains why the CLI under test may exit 2 from a quiet
// `plan -refresh-only -detailed-exitcode`, through no fault of the
// provider, whatever it says; "" when it must exit 0 or say noChanges.
// `terraform show -json` proves the state unchanged either way.
func refreshOnlyQuirk(t *testing.T) string {
	t.Helper()
	if providertest.VersionMeets(t, "~> 1.11.0") {
		return "Terraform 1.11 writes the sensitive_attributes of a refreshed resource with two sensitive " +
			"attributes in random order, and counts a new order as a change"
	}
	return ""
}
