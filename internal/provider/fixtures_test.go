package provider

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The cross-cutting suites (refresh-only quiet, 401 and 403, the retry and
// fault suite, read timeouts, secrets never in logs or state) hold every
// type of the provider to the same guarantees. None of them names a type:
// each draws its cases from fixtures, one per resource, data source,
// ephemeral resource and action, and first checks fixtures against
// Families(), so that a type added without a fixture fails every suite,
// naming the type and this map. A suite holds the kinds of type in
// suiteKinds (every kind when it is not listed there); a type of such a
// kind that the suite cannot apply to says so, with the reason, in its
// fixture's notFor. A type outside a suite is no subtest of it: the suite
// lists the types it leaves out, with the reasons, in its log.

// suite is one cross-cutting suite.
type suite string

const (
	suiteRefreshOnly     suite = "refresh-only quiet"
	suiteRefusals        suite = "401 and 403"
	suiteFaults          suite = "apply survives faults"
	suiteAPIDown         suite = "API down"
	suiteRefreshTimeouts suite = "refresh timeouts"
	suiteReadTimeouts    suite = "read timeouts"
	suiteSecrets         suite = "secrets never in logs or state"
)

// suiteKinds are the kinds of type (block keywords) a suite holds, where it
// does not hold every kind: only a resource is refreshed, and only a data
// source or an ephemeral resource is read.
var suiteKinds = map[suite][]string{
	suiteRefreshTimeouts: {"resource"},
	suiteReadTimeouts:    {"data", "ephemeral"},
}

// outside is why the type name is outside suite s, or "" when s holds it.
func outside(s suite, name string, fx fixture) string {
	if kinds, ok := suiteKinds[s]; ok {
		kind, _, _ := strings.Cut(name, ".")
		if !slices.Contains(kinds, kind) {
			return fmt.Sprintf("the suite holds only %s blocks", strings.Join(kinds, " and "))
		}
	}
	return fx.notFor[s]
}

// fixture is the smallest configuration of one type that does its work,
// and what the suites need to know to hold it to their guarantees.
type fixture struct {
	// opts are the fake API's options the type needs. Jobs and deployments
	// end at once: the secrets suite runs on the wall clock.
	opts []fakeapi.Option
	// body readies the fake (what the type reads, made outside Terraform)
	// and returns the type's configuration, after the provider block.
	body func(t *testing.T, w world) string
	// address is the block of body that the suites look at.
	address string
	// retried matches the type's requests that the provider retries after a
	// 5xx or a dropped connection.
	retried func(*http.Request) bool
	// starts is how many jobs, deployments or runs one apply makes.
	starts int
	// links is whether the type handles presigned links, whose signatures
	// the secrets suite must then find in no log.
	links bool
	// notFor are the suites the type is outside of, each with the reason.
	notFor map[suite]string
}

// world is what a fixture's body readies: the fake API, at URL on clock,
// that takes key.
type world struct {
	URL, Key string
	Fake     *fakeapi.Server
	Clock    clock.Clock
}

// worldOf is the world of an acceptance test's env.
func worldOf(env *providertest.Env) world {
	return world{URL: env.URL, Key: fakeapi.DefaultAPIKey, Fake: env.Fake, Clock: env.Clock}
}

// client is the API client of a script outside Terraform.
func (w world) client(t *testing.T) *mintlify.Client {
	t.Helper()
	c, err := mintlify.New(w.Key, mintlify.WithBaseURL(w.URL), mintlify.WithClock(w.Clock))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// exportOutside starts a static export as a CI script would, and returns
// its job id.
func (w world) exportOutside(t *testing.T) string {
	t.Helper()
	job, err := w.client(t).StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return job.JobID
}

// started counts what the fake started: export jobs, agent jobs,
// deployments (previews included) and automation runs.
func started(fake *fakeapi.Server) int {
	return fake.ExportJobsStarted() + fake.AgentJobsCreated() + len(fake.DeploymentRequests()) + len(fake.AutomationRuns())
}

// triggered is a terraform_data, named after typ, whose creation invokes
// the action of typ, named "this", configured with args.
func triggered(typ, args string) string {
	return fmt.Sprintf(`
resource "terraform_data" %[1]q {
  input = "2.3.0"

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.%[1]s.this]
    }
  }
}

action %[1]q "this" {
  config {
    %[2]s
  }
}
`, typ, args)
}

// fixtureAutomation is the automation the fixtures run.
const fixtureAutomation = "6650f1c2a0b1c2d3000000a1"

// Why a suite does not apply to a kind of type.
const (
	actionHasNoState = "an action keeps nothing in state, and no refresh invokes it"
	triggerOnly      = "its only call, the trigger, is a POST that is never retried after a 5xx " +
		"(TestAccReliability_startMayHaveStarted holds starts to that)"
	refreshAsksNothing = "its refresh asks the API nothing"
)

var (
	statusOrBundle = fakeapi.AnyOf(isGet, fakeapi.IsBundleRequest)
	exports        = fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }})
	// An agent job is active for a second, so that an action that starts
	// one has to ask for its status at least once.
	agentJobs   = providertest.AgentPlan(time.Second, "", false)
	automations = fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: fixtureAutomation})
	deployments = fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(req fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{CommitSHA: fmt.Sprintf("c0ffee%02d", req.N), CommitRef: "main", Logs: []string{"Deployed"}}
	}})
)

// isGet matches the API's GET requests, which the provider retries.
func isGet(r *http.Request) bool { return r.Method == http.MethodGet && fakeapi.IsAPIRequest(r) }

// noRequest matches nothing.
func noRequest(*http.Request) bool { return false }

// fixtures are the cross-cutting suites' cases: every type the provider
// serves, by its block keyword and name.
var fixtures = map[string]fixture{
	"resource.mintlify_static_export_bundle": {
		opts:    []fakeapi.Option{exports},
		body:    func(*testing.T, world) string { return providertest.BundleConfig("docs.example.com", "") },
		address: providertest.BundleAddr, retried: statusOrBundle, starts: 1, links: true,
	},
	"resource.mintlify_static_export_archive": {
		opts: []fakeapi.Option{exports},
		body: func(t *testing.T, w world) string {
			return providertest.ArchiveConfig(fmt.Sprintf("%q", w.exportOutside(t)), filepath.Join(t.TempDir(), "docs.tar.gz"))
		},
		address: providertest.ArchiveAddr, retried: statusOrBundle, links: true,
		notFor: map[suite]string{suiteRefreshTimeouts: refreshAsksNothing + ": it checks the file at `output_path`"},
	},
	"data.mintlify_static_export_job": {
		opts: []fakeapi.Option{exports},
		body: func(t *testing.T, w world) string {
			return fmt.Sprintf("\ndata \"mintlify_static_export_job\" \"this\" {\n  job_id = %q\n}\n", w.exportOutside(t))
		},
		address: providertest.JobAddr, retried: isGet,
	},
	"ephemeral.mintlify_static_export_bundle": {
		opts: []fakeapi.Option{exports},
		body: func(t *testing.T, w world) string {
			return fmt.Sprintf("\nephemeral \"mintlify_static_export_bundle\" \"this\" {\n  job_id = %q\n}\n", w.exportOutside(t))
		},
		address: "ephemeral.mintlify_static_export_bundle.this", retried: statusOrBundle, links: true,
	},
	"resource.mintlify_agent_job": {
		opts:    []fakeapi.Option{agentJobs},
		body:    func(*testing.T, world) string { return providertest.AgentJobResourceConfig("Document the release", "") },
		address: providertest.AgentJobAddr, retried: isGet, starts: 1,
	},
	"data.mintlify_agent_job": {
		body: func(_ *testing.T, w world) string {
			w.Fake.AddAgentJob(providertest.ProjectID, fakeapi.AgentJobSeed{ID: "aj_seeded", Repository: fakeapi.AgentRepository})
			return providertest.AgentJobConfig("aj_seeded", "")
		},
		address: providertest.AgentAddr, retried: isGet,
	},
	"action.mintlify_agent_job": {
		opts: []fakeapi.Option{agentJobs},
		body: func(*testing.T, world) string {
			return triggered("mintlify_agent_job", `prompt = "Document release 2.3"`)
		},
		address: "action.mintlify_agent_job.this", retried: isGet, starts: 1,
		notFor: map[suite]string{suiteRefreshOnly: actionHasNoState},
	},
	"resource.mintlify_automation_run": {
		opts: []fakeapi.Option{automations},
		body: func(*testing.T, world) string {
			return fmt.Sprintf("\nresource \"mintlify_automation_run\" \"this\" {\n  automation_id = %q\n}\n", fixtureAutomation)
		},
		address: "mintlify_automation_run.this", retried: noRequest, starts: 1,
		notFor: map[suite]string{suiteAPIDown: triggerOnly, suiteRefreshTimeouts: refreshAsksNothing + ": the API cannot read a run"},
	},
	"action.mintlify_automation_run": {
		opts: []fakeapi.Option{automations},
		body: func(*testing.T, world) string {
			return triggered("mintlify_automation_run", fmt.Sprintf("automation_id = %q", fixtureAutomation))
		},
		address: "action.mintlify_automation_run.this", retried: noRequest, starts: 1,
		notFor: map[suite]string{suiteRefreshOnly: actionHasNoState, suiteAPIDown: triggerOnly},
	},
	"resource.mintlify_preview_deployment": {
		opts: []fakeapi.Option{deployments},
		body: func(*testing.T, world) string {
			return "\nresource \"mintlify_preview_deployment\" \"this\" {\n  branch = \"feature/new-api\"\n}\n"
		},
		address: "mintlify_preview_deployment.this", retried: isGet, starts: 1,
	},
	"resource.mintlify_deployment": {
		opts:    []fakeapi.Option{deployments},
		body:    func(*testing.T, world) string { return providertest.DeploymentResourceConfig("") },
		address: "mintlify_deployment.docs", retried: isGet, starts: 1,
	},
	"data.mintlify_deployment": {
		opts: []fakeapi.Option{deployments},
		body: func(t *testing.T, w world) string {
			id, err := w.client(t).TriggerDeployment(t.Context(), providertest.ProjectID)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("\ndata \"mintlify_deployment\" \"this\" {\n  id = %q\n}\n", id)
		},
		address: "data.mintlify_deployment.this", retried: isGet,
	},
	"action.mintlify_deployment": {
		opts:    []fakeapi.Option{deployments},
		body:    func(*testing.T, world) string { return triggered("mintlify_deployment", "") },
		address: "action.mintlify_deployment.this", retried: isGet, starts: 1,
		notFor: map[suite]string{suiteRefreshOnly: actionHasNoState},
	},
}

// fixtureKey is the key of a type in fixtures: its block keyword and name.
func fixtureKey(typ familyType) string {
	keyword := map[string]string{"resources": "resource", "data-sources": "data", "ephemeral-resources": "ephemeral", "actions": "action"}
	return keyword[typ.kind] + "." + typ.name
}

// fixtureProblems lists the types of families without a fixture in have,
// and the fixtures of no type.
func fixtureProblems(families []core.Family, have map[string]fixture) []string {
	var problems []string
	served := map[string]bool{}
	for _, f := range families {
		for _, typ := range familyTypes(f) {
			key := fixtureKey(typ)
			served[key] = true
			if _, ok := have[key]; !ok {
				problems = append(problems, fmt.Sprintf("%s (family %s) has no fixture in the map `fixtures` "+
					"(internal/provider/fixtures_test.go): add one, so that the cross-cutting suites cover it", key, f.Name))
			}
		}
	}
	for key := range have {
		if !served[key] {
			problems = append(problems, fmt.Sprintf("the map `fixtures` (internal/provider/fixtures_test.go) has %s, "+
				"which no family serves", key))
		}
	}
	slices.Sort(problems)
	return problems
}

// forEachFixture runs test for each type of the provider that s holds, as a
// subtest named by the type, after failing t if a type has no fixture. The
// types s does not hold are logged, each with the reason.
func forEachFixture(t *testing.T, s suite, test func(t *testing.T, name string, fx fixture)) {
	t.Helper()
	for _, name := range suiteFixtures(t, s) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if needs := newerKindOf(name).needs; needs != "" {
				providertest.SkipUnlessVersion(t, needs)
			}
			test(t, name, fixtures[name])
		})
	}
}

// forFixturesTogether runs test once for the types that s holds, all in one
// configuration, where a suite's guarantee does not depend on which types
// share a run: a subtest for the types any CLI has, and one for each kind
// that needs a newer CLI (newerKinds), skipped under an older one. It fails
// t first if a type has no fixture, and logs the types s does not hold.
func forFixturesTogether(t *testing.T, s suite, test func(t *testing.T, names []string)) {
	t.Helper()
	groups := map[newerKind][]string{}
	for _, name := range suiteFixtures(t, s) {
		k := newerKindOf(name)
		groups[k] = append(groups[k], name)
	}
	byVersion := func(a, b newerKind) int { return strings.Compare(a.needs, b.needs) }
	for _, k := range slices.SortedFunc(maps.Keys(groups), byVersion) {
		t.Run(cmp.Or(k.label, "resources and data sources"), func(t *testing.T) {
			t.Parallel()
			if k.needs != "" {
				providertest.SkipUnlessVersion(t, k.needs)
			}
			test(t, groups[k])
		})
	}
}

// suiteFixtures are the names of the fixtures of the types s holds, in
// order, after failing t if a type has no fixture; the types s does not
// hold are logged, each with the reason.
func suiteFixtures(t *testing.T, s suite) []string {
	t.Helper()
	if problems := fixtureProblems(Families(), fixtures); len(problems) > 0 {
		t.Fatalf("the %s suite cannot cover every type:\n%s", s, strings.Join(problems, "\n"))
	}
	var names []string
	for _, name := range slices.Sorted(maps.Keys(fixtures)) {
		if reason := outside(s, name, fixtures[name]); reason != "" {
			t.Logf("the %s suite leaves out %s: %s", s, name, reason)
			continue
		}
		names = append(names, name)
	}
	return names
}

// newerKind is a kind of block that not every CLI of the matrix has: the
// Terraform version that has it (a constraint), and what a group of such
// blocks is called. The zero newerKind is every other kind.
type newerKind struct{ needs, label string }

// newerKinds are the kinds of block that only newer CLIs have, by keyword.
var newerKinds = map[string]newerKind{
	"ephemeral": {">= 1.10", "ephemeral resources"},
	"action":    {">= 1.14", "actions"},
}

// newerKindOf is the newerKind of the fixture name's block.
func newerKindOf(name string) newerKind {
	keyword, _, _ := strings.Cut(name, ".")
	return newerKinds[keyword]
}

// fixtureEnv is the acceptance test world of fx, on the fake's virtual
// clock, and its configuration after the provider block.
func fixtureEnv(t *testing.T, fx fixture, opts ...fakeapi.Option) (*providertest.Env, string) {
	t.Helper()
	env := providertest.NewTestEnv(t, append(slices.Clone(fx.opts), opts...)...)
	return env, fx.body(t, worldOf(env))
}

// fixturesEnv is the acceptance test world of the fixtures names together
// (forFixturesTogether), and their configuration after the provider block.
func fixturesEnv(t *testing.T, names []string) (*providertest.Env, string) {
	t.Helper()
	env := providertest.NewTestEnv(t, fixtureOptions(names)...)
	return env, fixtureBodies(t, names, worldOf(env))
}

// fixtureOptions are the fake API's options of the fixtures names.
func fixtureOptions(names []string) []fakeapi.Option {
	var opts []fakeapi.Option
	for _, name := range names {
		opts = append(opts, fixtures[name].opts...)
	}
	return opts
}

// fixtureBodies readies w for each of the fixtures names and returns their
// configurations, one after another.
func fixtureBodies(t *testing.T, names []string, w world) string {
	t.Helper()
	var body strings.Builder
	for _, name := range names {
		body.WriteString(fixtures[name].body(t, w))
	}
	return body.String()
}

// TestFixturesCoverEveryType: every type of every family has a fixture,
// and every fixture a type.
func TestFixturesCoverEveryType(t *testing.T) {
	t.Parallel()
	for _, p := range fixtureProblems(Families(), fixtures) {
		t.Error(p)
	}
}

// TestStubFamilyWithoutFixtureFailsTheSuites: a family whose resource has
// no fixture fails the check every cross-cutting suite makes first, which
// names the type and the map.
func TestStubFamilyWithoutFixtureFailsTheSuites(t *testing.T) {
	t.Parallel()
	stub := core.Family{Name: "stub", Resources: []func() resource.Resource{
		func() resource.Resource { return stubResource{} },
	}}
	problems := fixtureProblems(append(Families(), stub), fixtures)
	want := "resource.mintlify_stub_thing (family stub) has no fixture in the map `fixtures` (internal/provider/fixtures_test.go)"
	if len(problems) != 1 || !strings.Contains(problems[0], want) {
		t.Errorf("problems = %q, want one that says %q", problems, want)
	}
	if problems := fixtureProblems(Families(), fixtures); len(problems) != 0 {
		t.Errorf("without the stub: %q, want none", problems)
	}
}
