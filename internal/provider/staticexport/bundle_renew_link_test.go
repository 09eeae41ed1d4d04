package staticexport

import (
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestRenewLinkFalse: with `renew_link = false`, plans leave the link as it
// is while it ages and after it expires, with and without a refresh, and
// generate no link; a change of `renew_triggers` still renews it; turning
// `renew_link` back on renews the expired link.
func TestRenewLinkFalse(t *testing.T) {
	t.Parallel()
	env, cli, first := renewalCLI(t, "renew_link = false\n  renew_triggers = { chart = \"1.0.0\" }")

	env.Clock.Advance(100 * time.Minute) // 20m of 2h left: due, were renew_link true
	expectPlanExit(t, cli, 0)
	env.Clock.Advance(time.Hour) // expired
	expectPlanExit(t, cli, 0)
	expectPlanExit(t, cli, 0, "-refresh=false")
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	expectLinks(t, env, 1)
	if got := cli.Instance(providertest.BundleAddr).Attr("bundle_url"); got != first {
		t.Fatalf("bundle_url changed to %q without a renewal", got)
	}

	cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com", "renew_link = false\n  renew_triggers = { chart = \"1.1.0\" }")))
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	expectLinks(t, env, 2)
	expectPlanExit(t, cli, 0)

	env.Clock.Advance(3 * time.Hour)
	cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com", "renew_triggers = { chart = \"1.1.0\" }")))
	res := expectPlanExit(t, cli, 2)
	if !strings.Contains(res.Output, "~ renew_link") || !strings.Contains(res.Output, "1 to change") {
		t.Fatalf("removing renew_link = false does not plan it back to true with the renewal:\n%s", res)
	}
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	expectLinks(t, env, 3)
	expectPlanExit(t, cli, 0)
}

// TestRenewLinkAbsentFromAnOldState: a state written before `renew_link`
// existed plans no change, and still renews a due link as `true` does.
func TestRenewLinkAbsentFromAnOldState(t *testing.T) {
	t.Parallel()
	env, cli := stateFromB7a625f(t)
	expectPlanExit(t, cli, 0)
	env.Clock.Advance(time.Hour) // the fixture's link has expired
	res := expectPlanExit(t, cli, 2)
	if !strings.Contains(res.Output, "will be updated in-place") || strings.Contains(res.Output, "~ renew_link") {
		t.Fatalf("the old state does not renew its expired link in place, renew_link untouched:\n%s", res)
	}
}
