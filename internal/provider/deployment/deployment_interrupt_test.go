package deployment

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestDeploymentInterruptThenResume sends SIGINT to `terraform apply`
// while the resource waits for its deployment: the apply stops and says
// what to do, and the state keeps the deployment, tainted. The next plain
// `terraform apply` shows a replacement, which waits for that same
// deployment: no second deployment is triggered.
func TestDeploymentInterruptThenResume(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_deployment")
	env, cli, waiting := interruptedApply(t, providertest.DeploymentResourceConfig(`triggers = { docs_commit = "c0ffee01" }`),
		"waits for this same deployment instead of triggering another")
	first := cli.Instance(deploymentAddr)
	if !first.Tainted || first.Attr("id") != "6650f1c2a0b1c2d300000001" {
		t.Fatalf("state instance: tainted %v, id %q; want tainted with the first deployment", first.Tainted, first.Attr("id"))
	}

	resumeApply(t, cli, waiting, "6650f1c2a0b1c2d300000001")
	if inst := cli.Instance(deploymentAddr); inst.Tainted || inst.Attr("id") != first.Attr("id") || inst.Attr("status") != "success" {
		t.Errorf("state instance: tainted %v, id %q, status %q; want the first deployment, success", inst.Tainted,
			inst.Attr("id"), inst.Attr("status"))
	}
	if n := len(env.Fake.DeploymentRequests()); n != 1 {
		t.Errorf("deployments triggered = %d, want 1", n)
	}
}

// TestPreviewInterruptThenResume is TestDeploymentInterruptThenResume for
// a preview: after SIGINT, the state keeps the deployment, tainted, and the
// next plain `terraform apply` shows a replacement, which waits for that
// same deployment, at the same address: the preview is deployed once.
func TestPreviewInterruptThenResume(t *testing.T) {
	env, cli, waiting := interruptedApply(t, previewConfig(previewBranch, `triggers = { commit = "a1" }`),
		"waits for this same deployment instead of deploying the preview again")
	first := cli.Instance(previewAddr)
	if !first.Tainted || first.Attr("id") != firstStatusID {
		t.Fatalf("state instance: tainted %v, id %q; want tainted with the first deployment", first.Tainted, first.Attr("id"))
	}

	res := resumeApply(t, cli, waiting, firstStatusID)
	if strings.Contains(res.Output, "Preview Stays Online") {
		t.Errorf("the resuming apply warned that the preview it goes on with stays online:\n%s", res.Output)
	}
	inst := cli.Instance(previewAddr)
	if inst.Tainted || inst.Attr("id") != firstStatusID || inst.Attr("status") != "success" ||
		inst.Attr("preview_url") != first.Attr("preview_url") {
		t.Errorf("state instance: tainted %v, id %q, status %q, preview_url %q; want the first deployment, success, "+
			"at %q", inst.Tainted, inst.Attr("id"), inst.Attr("status"), inst.Attr("preview_url"), first.Attr("preview_url"))
	}
	if n := len(env.Fake.DeploymentRequests()); n != 1 {
		t.Errorf("previews deployed = %d, want 1", n)
	}
}

// interruptedApply applies config, sends SIGINT to `terraform apply` while
// the provider waits for the deployment it triggered, and fails t unless
// the apply fails saying what to do next, resume among it.
func interruptedApply(t *testing.T, config, resume string) (*providertest.Env, *providertest.CLI, *providertest.WaitingClock) {
	t.Helper()
	env := providertest.NewEnv(t, providertest.TestProvider, fakeapitest.ManualClock())
	waiting := providertest.NewWaitingClock(env.Clock)
	cli := providertest.ServedCLI(t, providerserver.NewProtocol6(providertest.ProviderOn(waiting)))
	cli.WriteConfig(env.Config(config))
	cli.MustRun("init", "-no-color", "-input=false")

	apply := cli.Start("apply", "-auto-approve", "-no-color", "-input=false")
	<-waiting.Started() // the deployment is triggered and the provider waits for it
	apply.Interrupt()
	res := apply.Wait()
	out := strings.Join(strings.Fields(res.Output), " ")
	if res.Exit == 0 {
		t.Fatalf("an interrupted apply must fail:\n%s", res.Output)
	}
	for _, want := range []string{"Deployment Wait Interrupted", "Run `terraform apply` again", resume} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, res.Output)
		}
	}
	if strings.Contains(out, "timeouts.create") {
		t.Errorf("an interrupt is no timeout: the output should not advise `timeouts.create`:\n%s", res.Output)
	}
	return env, cli, waiting
}

// resumeApply runs the next plain `terraform apply`, on virtual time, and
// fails t unless it replaces the tainted resource with the deployment id.
func resumeApply(t *testing.T, cli *providertest.CLI, waiting *providertest.WaitingClock, id string) providertest.Result {
	t.Helper()
	waiting.RunFreely() // from now on, waits run on virtual time
	res := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	for _, want := range []string{"is tainted, so", "must be replaced", "Destruction complete", "Creation complete",
		"[id=" + id + "]"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("the resuming apply does not say %q:\n%s", want, res.Output)
		}
	}
	return res
}
