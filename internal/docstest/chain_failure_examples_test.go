package docstest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The chain guide's example when the docs stop building from some commit
// on: the failure fails the apply once per commit, and the scheduled applies
// that follow keep renewing the cluster's link without deploying again.

// deploymentAddr is the example's deployment.
const deploymentAddr = "mintlify_deployment.docs"

// chainRun is the chain example in a CLI's working directory.
type chainRun struct {
	t    *testing.T
	env  *providertest.Env
	cli  *providertest.CLI
	repo *providertest.DocsRepository
}

// apply applies the example with commit as the docs commit, and checks its
// exit code and that its output says each of wants.
func (c *chainRun) apply(commit string, exit int, wants ...string) {
	c.t.Helper()
	res := c.cli.Run("apply", "-auto-approve", "-no-color", "-input=false", "-var=docs_commit="+commit,
		"-var=chart_repository=oci://registry.example.com/mintlify")
	if res.Exit != exit {
		c.t.Fatalf("want exit %d: %s", exit, res)
	}
	out := strings.Join(strings.Fields(res.Output), " ") // wherever the CLI wrapped its lines
	for _, want := range wants {
		if !strings.Contains(out, want) {
			c.t.Errorf("the apply of %s does not say %q: %s", commit, want, res)
		}
	}
	// A message that points at a warning reads right only when there is one.
	if strings.Contains(out, "warning above") && !strings.Contains(out, "Warning:") {
		c.t.Errorf("the apply of %s speaks of a warning above, and prints none: %s", commit, res)
	}
}

// expect checks the fake's deployments, export jobs and links, and what the
// state's export and release hold.
func (c *chainRun) expect(when string, deployments, jobs, links int, version string) {
	c.t.Helper()
	if n := len(c.env.Fake.DeploymentRequests()); n != deployments {
		c.t.Errorf("%s: deployments triggered = %d, want %d", when, n, deployments)
	}
	if err := c.env.ExpectExportJobsAndLinks(jobs, links); err != nil {
		c.t.Errorf("%s: %v", when, err)
	}
	bundle := c.cli.Instance(bundleAddr)
	if !bundle.Exists || bundle.Attr("version") != version {
		c.t.Errorf("%s: the export is %+v, want one of version %s", when, bundle.Attrs, version)
	}
	release, _ := c.cli.Instance("terraform_data.release").Attrs["output"].(map[string]any)
	held, _ := release["value"].(map[string]any)
	if link := bundle.Attr("bundle_url"); link == "" || held["bundle_url"] != link || held["version"] != bundle.Attr("version") {
		c.t.Errorf("%s: the release holds %v, not the export's link and version", when, held)
	}
	resp, err := http.Get(bundle.Attr("bundle_url")) //nolint:noctx // a loopback fake
	if err != nil {
		c.t.Fatalf("%s: %v", when, err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		c.t.Errorf("%s: the cluster's link answers HTTP %d", when, resp.StatusCode)
	}
}

// TestExampleChainKeepsTheLinkAcrossFailedCommits: a good commit, then
// one whose build fails (the apply fails with the log, once; the cluster
// keeps an export of what is live), then scheduled applies of that commit
// a day later (the link is renewed, nothing is deployed, the apply still
// fails), then a good commit again (deployed, exported, released).
func TestExampleChainKeepsTheLinkAcrossFailedCommits(t *testing.T) {
	t.Parallel()
	repo := &providertest.DocsRepository{QueuedFor: 20 * time.Second, RunFor: 3 * time.Minute}
	env := newTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 24 * time.Hour}), fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: repo.Plan}))
	c := &chainRun{t: t, env: env, cli: env.CLI(t), repo: repo}
	c.cli.WriteConfig(env.Config(chainWithoutRelease(t)))
	c.cli.MustRun("init", "-no-color", "-input=false")

	repo.Push("4f1c2e9", false)
	c.apply("4f1c2e9", 0, "Apply complete!")
	c.expect("after a good commit", 1, 1, 1, "4f1c2e9")
	live := c.cli.Instance(deploymentAddr).Attr("id")

	repo.Push("9d0e7a1", true)
	c.apply("9d0e7a1", 1, "Warning: Deployment Failed", `unknown key "navigaton"`, "of commit 4f1c2e9",
		"Error: Module output value precondition failed", "The deployment of the docs commit failed")
	// Nobody knows at plan whether the build will fail: the export was
	// replaced, before the old one was destroyed, by one of what is live,
	// and the release took its new link, as the chain guide says.
	c.expect("after a failing commit", 2, 2, 2, "4f1c2e9")
	guideSays(t, "the-chain-from-commit-to-cluster", "that apply still starts one new export, of what is still live",
		"upgrades the release onto its link", "a renewal starts none")
	dep := c.cli.Instance(deploymentAddr)
	if success, _ := dep.Attrs["last_success"].(map[string]any); dep.Tainted || dep.Attr("status") != "failure" ||
		success["id"] != live || success["commit_sha"] != "4f1c2e9" {
		t.Errorf("the failed deployment is recorded as tainted=%v %+v, want untainted, failure, last_success %s",
			dep.Tainted, dep.Attrs, live)
	}
	if res := c.cli.Run("plan", "-no-color", "-input=false", "-detailed-exitcode", "-var=docs_commit=9d0e7a1",
		"-var=chart_repository=oci://registry.example.com/mintlify"); res.Exit != 0 {
		t.Errorf("the plan of the same commit is not empty and clean: %s", res)
	}

	// Scheduled applies: within the link's first 3/4 nothing happens, past
	// it the link is renewed in place; nothing is deployed either time.
	env.Clock.Advance(6 * time.Hour)
	c.apply("9d0e7a1", 1, "No changes.", "The deployment of the docs commit failed",
		`Its log is in the "Deployment Failed" warning of the apply that deployed this commit`)
	c.expect("6 hours on", 2, 2, 2, "4f1c2e9")
	env.Clock.Advance(13 * time.Hour)
	c.apply("9d0e7a1", 1, "Plan: 0 to add, 2 to change, 0 to destroy.", "The deployment of the docs commit failed")
	c.expect("19 hours on", 2, 2, 3, "4f1c2e9")

	repo.Push("b7c8d9e", false)
	c.apply("b7c8d9e", 0, "Apply complete!")
	c.expect("after a good commit again", 3, 3, 4, "b7c8d9e")
	if dep := c.cli.Instance(deploymentAddr); dep.Attr("status") != "success" || dep.Attr("commit_sha") != "b7c8d9e" {
		t.Errorf("the good commit's deployment is recorded as %+v", dep.Attrs)
	}
}

// guideSays checks that the guide (templates/guides/NAME.md.tmpl) states
// each claim that the test calling it has just observed.
func guideSays(t *testing.T, name string, claims ...string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "templates", "guides", name+".md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(raw)), " ")
	for _, claim := range claims {
		if !strings.Contains(text, claim) {
			t.Errorf("the guide %q no longer says %q, which this test shows", name, claim)
		}
	}
}
