package agentjob

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAgentJobInterruptKeepsTheJob sends SIGINT to `terraform apply` while
// the resource waits for its agent job: the apply stops and says how to
// resume, and the state keeps the job, tainted. Time stands still on the
// virtual clock, so the wait lasts until the interrupt.
func TestAgentJobInterruptKeepsTheJob(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_agent_job")
	env := providertest.NewEnv(t, providertest.TestProvider, fakeapitest.ManualClock())
	waiting := providertest.NewWaitingClock(env.Clock)
	cli := providertest.ServedCLI(t, providerserver.NewProtocol6(providertest.ProviderOn(waiting)))
	cli.WriteConfig(env.Config(providertest.AgentJobResourceConfig("Document release 2.3", "")))
	cli.MustRun("init", "-no-color", "-input=false")

	apply := cli.Start("apply", "-auto-approve", "-no-color", "-input=false")
	<-waiting.Started() // the job is created and the provider waits for it
	apply.Interrupt()
	res := apply.Wait()
	if res.Exit == 0 {
		t.Fatalf("an interrupted apply must fail:\n%s", res.Output)
	}
	for _, want := range []string{"Agent Job Interrupted", "Run `terraform apply` again", "the replacement waits for this same job"} {
		if !strings.Contains(strings.Join(strings.Fields(res.Output), " "), want) {
			t.Errorf("the output does not say %q:\n%s", want, res.Output)
		}
	}
	if strings.Contains(res.Output, "timeouts.create") {
		t.Errorf("an interrupt is no timeout: the output should not advise `timeouts.create`:\n%s", res.Output)
	}

	ids := env.Fake.AgentJobIDs()
	if n := cli.Resources(); len(ids) != 1 || n != 1 {
		t.Fatalf("%d agent jobs created, %d resources in state", len(ids), n)
	}
	if inst := cli.Instance(providertest.AgentJobAddr); !inst.Tainted || inst.Attr("id") != ids[0] {
		t.Errorf("state instance: tainted %v, id %q; want tainted with job %s", inst.Tainted, inst.Attr("id"), ids[0])
	}
}
