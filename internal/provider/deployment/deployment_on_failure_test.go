package deployment

import (
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// recordedApply applies the resource with `on_failure = "record"` and
// triggers { commit }, expects it to succeed and say each of wants, and
// returns the resource as the state holds it.
func recordedApply(t *testing.T, env *providertest.Env, cli *providertest.CLI, commit string, wants ...string) providertest.Instance {
	t.Helper()
	cli.WriteConfig(env.Config(providertest.DeploymentResourceConfig(`on_failure = "record"
  triggers   = { commit = "` + commit + `" }`)))
	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false").Output
	flowed := strings.Join(strings.Fields(out), " ") // the CLI wraps a diagnostic's lines
	for _, want := range wants {
		if !strings.Contains(flowed, want) {
			t.Errorf("the apply of %s does not say %q:\n%s", commit, want, providertest.Indent(out))
		}
	}
	dep := cli.Instance(deploymentAddr)
	if dep.Tainted {
		t.Errorf("after the apply of %s, the resource is tainted", commit)
	}
	return dep
}

// lastSuccess is the resource's `last_success` id and commit, "" when
// null.
func lastSuccess(dep providertest.Instance) (id, commitSHA string) {
	last, _ := dep.Attrs["last_success"].(map[string]any)
	id, _ = last["id"].(string)
	commitSHA, _ = last["commit_sha"].(string)
	return id, commitSHA
}

// TestDeployment_onFailureRecord: with `on_failure = "record"`, a failed
// deployment (of the create, then of an update) is a warning with its log,
// the resource is not tainted, a plan with the same triggers is empty, a
// change of triggers deploys again in place, and `last_success` names the
// last deployment that succeeded throughout.
func TestDeployment_onFailureRecord(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(req fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		fail := req.N != 2
		return fakeapi.DeploymentPlan{QueuedFor: 30 * time.Second, RunFor: 2 * time.Minute, Fail: fail,
			Logs: []string{"Error: broken link /quickstart in index.mdx"}, CommitSHA: map[int]string{1: "c0ffee01", 2: "c0ffee02", 3: "c0ffee03"}[req.N]}
	}}))
	cli := env.CLI(t)

	dep := recordedApply(t, env, cli, "a", "Warning: Deployment Failed", "deployment 6650f1c2a0b1c2d300000001",
		"Error: broken link /quickstart in index.mdx", "No deployment of this resource has succeeded yet", "1 added")
	if id, _ := lastSuccess(dep); dep.Attr("status") != "failure" || id != "" {
		t.Errorf("after a failed create: status %q, last_success %q; want failure, null", dep.Attr("status"), id)
	}
	if res := cli.Run("plan", "-no-color", "-input=false", "-detailed-exitcode"); res.Exit != 0 {
		t.Errorf("the plan with the same triggers is not empty: %s", res)
	}

	dep = recordedApply(t, env, cli, "b", "will be updated in-place", "1 changed")
	if id, sha := lastSuccess(dep); dep.Attr("id") != "6650f1c2a0b1c2d300000002" || id != dep.Attr("id") || sha != "c0ffee02" {
		t.Errorf("after a successful update: %+v; want deployment 2 as last_success", dep.Attrs)
	}

	dep = recordedApply(t, env, cli, "c", "Warning: Deployment Failed", "deployment 6650f1c2a0b1c2d300000003",
		"`last_success` still names the deployment 6650f1c2a0b1c2d300000002 of commit c0ffee02", "1 changed")
	if id, sha := lastSuccess(dep); dep.Attr("status") != "failure" || id != "6650f1c2a0b1c2d300000002" || sha != "c0ffee02" {
		t.Errorf("after a failed update: %+v; want failure, with deployment 2 as last_success", dep.Attrs)
	}
	if res := cli.Run("plan", "-no-color", "-input=false", "-detailed-exitcode"); res.Exit != 0 {
		t.Errorf("the plan with the same triggers is not empty: %s", res)
	}
	if n := len(env.Fake.DeploymentRequests()); n != 3 {
		t.Errorf("deployments triggered = %d, want 3, one per change of triggers", n)
	}
}

// TestDeployment_onFailureRecordResumes: with `on_failure = "record"`, the
// in-place deployment of a change of triggers that outlasts
// `timeouts.create` fails the apply, untainted, with the new deployment in
// state; the next apply waits for that same deployment, and `last_success`
// moves to it once it succeeds.
func TestDeployment_onFailureRecordResumes(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(req fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: 30 * time.Second, RunFor: time.Duration(req.N*req.N) * time.Minute,
			CommitSHA: map[int]string{1: "c0ffee01", 2: "c0ffee02"}[req.N]}
	}}))
	cli := env.CLI(t)
	config := func(commit string) {
		cli.WriteConfig(env.Config(providertest.DeploymentResourceConfig(`on_failure = "record"
  triggers   = { commit = "` + commit + `" }
  timeouts   = { create = "3m" }`)))
	}
	config("a")
	cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")

	config("b")
	res := cli.Run("apply", "-auto-approve", "-no-color", "-input=false")
	dep := cli.Instance(deploymentAddr)
	if id, _ := lastSuccess(dep); res.Exit == 0 || !strings.Contains(res.Output, "Deployment Still Running") ||
		dep.Tainted || dep.Attr("id") != "6650f1c2a0b1c2d300000002" || id != "6650f1c2a0b1c2d300000001" {
		t.Fatalf("a timed-out in-place deployment left %+v (tainted %v): %s", dep.Attrs, dep.Tainted, res)
	}

	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false").Output
	dep = cli.Instance(deploymentAddr)
	if id, sha := lastSuccess(dep); dep.Attr("status") != "success" || id != "6650f1c2a0b1c2d300000002" || sha != "c0ffee02" {
		t.Errorf("the resumed deployment left %+v:\n%s", dep.Attrs, providertest.Indent(out))
	}
	if n := len(env.Fake.DeploymentRequests()); n != 2 {
		t.Errorf("deployments triggered = %d, want 2: the resumed one is not triggered again", n)
	}
}
