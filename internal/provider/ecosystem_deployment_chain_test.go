//go:build ecosystem

package provider

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The chain guide (guides/commit-to-cluster) in the real API server: a
// docs deployment, then an export of what it deployed, then the release.

// deployedCommit is the commit every deployment of the chain's fake
// deploys.
const deployedCommit = "3b1f0c9"

// deploymentChainFake is the fake API of the deployment chain: on the real
// clock, so that a deployment runs its course (a second queued, two
// building) while the provider waits, and fails when fail is set.
func deploymentChainFake(fail bool) []fakeapi.Option {
	return []fakeapi.Option{
		fakeapi.WithClock(clock.Real()),
		fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
			return fakeapi.DeploymentPlan{QueuedFor: time.Second, RunFor: 2 * time.Second, CommitSHA: deployedCommit,
				Fail: fail, Summary: map[bool]string{true: "Build failed"}[fail],
				Logs: []string{"Building 48 pages", map[bool]string{true: `Error: docs.json: unknown key "navigaton"`, false: "Built 48 pages"}[fail]}}
		}}),
	}
}

// deploymentSuccessAndExportStart are when the fake first answered that a
// deployment succeeded and when it received the first export start, with
// the export's version; zero times when it never did.
func (c *chainCLI) deploymentSuccessAndExportStart() (succeeded, started time.Time, version string) {
	for _, r := range c.fake.Requests() {
		var d struct{ Status string }
		var start fakeapi.StartRequest
		switch {
		case succeeded.IsZero() && r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v1/project/update-status/") &&
			json.Unmarshal(r.Response, &d) == nil && d.Status == "success":
			succeeded = r.At
		case started.IsZero() && r.Method == http.MethodPost && r.Path == "/v1/static-export/jobs" &&
			json.Unmarshal(r.Body, &start) == nil:
			started, version = r.At, start.Version
		}
	}
	return succeeded, started, version
}

// deploymentFirst: the export starts only after the deployment succeeded,
// tagged with the deployed commit, and the release serves it; an apply
// with the same commit changes nothing, and the next commit upgrades the
// release with the new export's link.
func (c *chainCLI) deploymentFirst() {
	c.Write(readExampleAsWritten(c.t, "guides/commit-to-cluster/main.tf"))
	c.must("init", "-input=false")
	c.apply("abc123")
	succeeded, started, version := c.deploymentSuccessAndExportStart()
	switch {
	case succeeded.IsZero() || started.IsZero():
		c.t.Fatalf("deployment succeeded at %v, export started at %v: want both", succeeded, started)
	case started.Before(succeeded):
		c.t.Errorf("the export started at %v, before the deployment succeeded at %v", started, succeeded)
	case version != deployedCommit:
		c.t.Errorf("the export was tagged %q, want the deployed commit %s", version, deployedCommit)
	}
	got := c.rendered()
	if want := (staticExport{Enabled: "true", BundleURL: c.bundleURL(), Version: deployedCommit, Checksum: got.Checksum}); got != want || got.Checksum == "" {
		c.t.Errorf("the chart rendered %+v, want %+v with a checksum", got, want)
	}
	c.expectRevisions("after install", "1:deployed")
	c.expectNoChanges(c.vars("abc123")...)
	c.expectExports("after the chain", 1, 1)
	if n := len(c.fake.DeploymentRequests()); n != 1 {
		c.t.Errorf("deployments = %d, want 1", n)
	}

	// The next commit: a new deployment and export, and an upgrade of the
	// release, whose plan shows the link only as a sensitive value.
	first := got.BundleURL
	c.apply("def456")
	c.expectRevisions("after the next commit", "1:superseded", "2:deployed")
	if got := c.rendered(); got.BundleURL != c.bundleURL() || got.BundleURL == first {
		c.t.Errorf("after the next commit the ConfigMap holds another link than the new export's")
	}
	c.expectExports("after the next commit", 2, 2)
}

// failedDeployment: a failed deployment fails the apply with its log
// lines; nothing is exported and nothing is installed.
func (c *chainCLI) failedDeployment() {
	c.Write(readExampleAsWritten(c.t, "guides/commit-to-cluster/main.tf"))
	c.must("init", "-input=false")
	res := c.Run("apply", "-auto-approve", "-input=false", "-no-color", "-var=docs_commit=abc123")
	if out := res.Stdout + res.Stderr; res.Exit == 0 || !strings.Contains(out, "Deployment Failed") ||
		!strings.Contains(out, `unknown key "navigaton"`) {
		c.t.Fatalf("the apply of a failing deployment did not fail with its log lines (exit %d):\n%s", res.Exit, res.Output)
	}
	c.expectExports("after the failed deployment", 0, 0)
	if revs := c.revisions(); len(revs) != 0 {
		c.t.Errorf("a failed deployment installed the release: %v", revs)
	}
}

// failingCommits runs the chain guide through a commit whose build fails:
// the apply fails once with the log, the release stays on the last good
// commit; a scheduled apply of the same commit, once the link is due,
// renews it into the release without deploying, and still fails; the next
// good commit is deployed, exported and released. Mintlify's clock stays
// two hours behind until the scheduled apply, so that every link issued
// before it is already due then, as after a day's wait.
func (c *chainCLI) failingCommits(pushes *providertest.DocsRepository) {
	c.Write(readExampleAsWritten(c.t, "guides/commit-to-cluster/main.tf"))
	c.must("init", "-input=false")
	pushes.Push("4f1c2e9", false)
	c.apply("4f1c2e9")
	c.expectRendered("after a good commit", "4f1c2e9")
	c.expectRevisions("after a good commit", "1:deployed")

	pushes.Push("9d0e7a1", true)
	c.applyFailing("9d0e7a1", "Warning: Deployment Failed", `unknown key "navigaton"`, "Module output value precondition failed")
	c.expectRendered("after a failing commit", "4f1c2e9")
	c.expectDeployments("after a failing commit", 2)

	c.vendorClockRight()
	before := c.rendered()
	c.applyFailing("9d0e7a1", "mintlify_static_export_bundle.docs will be updated in-place", "Module output value precondition failed")
	if after := c.expectRendered("after a scheduled apply", "4f1c2e9"); after.BundleURL == before.BundleURL {
		c.t.Errorf("the scheduled apply left the due link %q in the release", before.BundleURL)
	}
	c.expectDeployments("after a scheduled apply", 2)

	pushes.Push("b7c8d9e", false)
	c.apply("b7c8d9e")
	c.expectRendered("after a good commit again", "b7c8d9e")
	c.expectDeployments("after a good commit again", 3)
	c.expectNoChanges(c.vars("b7c8d9e")...)
}

// applyFailing applies docs commit, and expects exit code 1 and each of
// wants in the output.
func (c *chainCLI) applyFailing(commit string, wants ...string) {
	c.t.Helper()
	res := c.Run(append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, c.vars(commit)...)...)
	if res.Exit != 1 {
		c.t.Fatalf("want exit 1: %s", res)
	}
	for _, want := range wants {
		if !strings.Contains(res.Output, want) {
			c.t.Errorf("the apply of %s does not say %q: %s", commit, want, res)
		}
	}
}

// expectRendered checks that the chart serves the link in state, tagged
// with version, and returns what it rendered.
func (c *chainCLI) expectRendered(when, version string) staticExport {
	c.t.Helper()
	got := c.rendered()
	if want := (staticExport{Enabled: "true", BundleURL: c.bundleURL(), Version: version, Checksum: got.Checksum}); got != want {
		c.t.Errorf("%s: the chart rendered %+v, want %+v", when, got, want)
	}
	return got
}

// expectDeployments checks how many deployments the fake was asked for.
func (c *chainCLI) expectDeployments(when string, n int) {
	c.t.Helper()
	if got := len(c.fake.DeploymentRequests()); got != n {
		c.t.Errorf("%s: deployments triggered = %d, want %d", when, got, n)
	}
}
