package provider

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// TestAgentJobInterruptKeepsTheJob sends SIGINT to `terraform apply` while
// the resource waits for its agent job: the apply stops and says how to
// resume, and the state keeps the job, tainted. Time stands still on the
// virtual clock, so the wait lasts until the interrupt.
func TestAgentJobInterruptKeepsTheJob(t *testing.T) {
	env := newTestEnvServing(t, fakeapitest.ManualClock())
	waiting := &firstSleep{Fake: env.clock, started: make(chan struct{})}
	cli := newServedCLIOn(t, waiting)
	cli.writeConfig(env.config(agentJobResourceConfig("Document release 2.3", "")))
	cli.mustRun("init", "-no-color", "-input=false")

	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "apply", "-auto-approve", "-no-color", "-input=false")
	cmd.Dir, cmd.Env = cli.dir, cli.env
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-waiting.started // the job is created and the provider waits for it
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("an interrupted apply must fail:\n%s", out)
	}
	for _, want := range []string{"Agent Job Interrupted", "terraform untaint mintlify_agent_job.NAME"} {
		if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}

	raw, err := os.ReadFile(filepath.Join(cli.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Instances []struct {
				Status     string
				Attributes map[string]any
			}
		}
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	ids := env.fake.AgentJobIDs()
	if len(ids) != 1 || len(state.Resources) != 1 || len(state.Resources[0].Instances) != 1 {
		t.Fatalf("%d agent jobs created, state:\n%s", len(ids), raw)
	}
	if inst := state.Resources[0].Instances[0]; inst.Status != "tainted" || inst.Attributes["id"] != ids[0] {
		t.Errorf("state instance: status %q, id %v; want tainted with job %s", inst.Status, inst.Attributes["id"], ids[0])
	}
}

// firstSleep is a clock that tells when something first sleeps on it.
type firstSleep struct {
	*clock.Fake
	started chan struct{}
	once    sync.Once
}

func (c *firstSleep) Sleep(ctx context.Context, d time.Duration) error {
	c.once.Do(func() { close(c.started) })
	return c.Fake.Sleep(ctx, d)
}
