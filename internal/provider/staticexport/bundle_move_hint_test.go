package staticexport

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// twoDomainBundles are two bundles of today's contract.
const twoDomainBundles = `
resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}

resource "mintlify_static_export_bundle" "site" {
  domain = "acme.mintlify.app"
}
`

const moveHintSummary = "Move To Project-Scoped Static Export Possible"

// TestAccStaticExportBundle_moveHintOncePerPlan: against an API that serves
// both contracts, a plan of two bundles with `domain` says once that the
// move is possible, for the provider's project, with the guide, after one
// probe; the apply that created them, which refreshes nothing, neither
// probes nor says it.
func TestAccStaticExportBundle_moveHintOncePerPlan(t *testing.T) {
	t.Parallel()
	env, cli, created := twoBundlesApplied(t, providertest.NextAndToday)
	if strings.Contains(created, moveHintSummary) || probes(env) != 0 {
		t.Errorf("the creating apply probed %d times or hinted:\n%s", probes(env), created)
	}
	out := strings.Join(strings.Fields(expectPlanExit(t, cli, 0).Output), " ")
	if n := strings.Count(out, moveHintSummary); n != 1 {
		t.Errorf("the hint is given %d times, want once:\n%s", n, out)
	}
	for _, want := range []string{`project "` + providertest.ProjectID + `"`, "set `project_id`",
		"docs/guides/moving-to-project-scoped-exports.md"} {
		if !strings.Contains(out, want) {
			t.Errorf("the hint does not say %q:\n%s", want, out)
		}
	}
	if n := probes(env); n != 1 {
		t.Errorf("%d project-scoped reads, want one probe per plan", n)
	}
}

// TestAccStaticExportBundle_noMoveHintWithTodaysContractOnly: an API that
// does not serve the project-scoped calls answers the probe as a path
// without a route, and no plan hints at a move.
func TestAccStaticExportBundle_noMoveHintWithTodaysContractOnly(t *testing.T) {
	t.Parallel()
	env, cli, _ := twoBundlesApplied(t)
	if out := expectPlanExit(t, cli, 0).Output; strings.Contains(out, moveHintSummary) || probes(env) != 1 {
		t.Errorf("%d probes (want 1), and a hint against today's contract only:\n%s", probes(env), out)
	}
}

// twoBundlesApplied applies twoDomainBundles against the fake of opts,
// returning the apply's output.
func twoBundlesApplied(t *testing.T, opts ...fakeapi.Option) (*providertest.Env, *providertest.CLI, string) {
	t.Helper()
	env := providertest.NewTestEnv(t, opts...)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(twoDomainBundles))
	res := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	return env, cli, res.Output
}

// probes counts the reads of a project-scoped job that reached the API.
func probes(env *providertest.Env) int {
	n := 0
	for _, r := range env.Fake.Requests() {
		if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v1/static-export/"+providertest.ProjectID+"/jobs/") {
			n++
		}
	}
	return n
}
