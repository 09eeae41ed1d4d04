//go:build ecosystem

package provider

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
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
// with the same commit changes nothing.
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
