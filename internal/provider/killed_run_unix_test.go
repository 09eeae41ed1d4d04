//go:build unix

package provider

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
)

// TestKilledApplyLosesTheJobUntilImported kills `terraform apply` and the
// provider with SIGKILL, as the out-of-memory killer or a CI runner's hard
// timeout would, while the create waits for its job. The state never got
// the job: the next plan would start a second one. But the provider logged
// the job's id at INFO the moment it started, in the TF_LOG_PROVIDER=INFO
// output, and an import block with that id adopts the same job, as the
// guide "Running in CI" shows, without starting another.
func TestKilledApplyLosesTheJobUntilImported(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, config, started, address string
		jobs                           func(*fakeapi.Server) int
	}{
		{"bundle", bundleConfig("docs.example.com", ""), "Static export job started", "mintlify_static_export_bundle.docs",
			(*fakeapi.Server).ExportJobsStarted},
		{"agent job", agentJobResourceConfig("Document release 2.3", ""), "Agent job started", "mintlify_agent_job.docs",
			(*fakeapi.Server).AgentJobsCreated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The fake's time stands still until the test moves it: the job
			// runs until the apply is killed, and has finished by the import.
			clk := clock.NewFake(time.Now().UTC(), false)
			fake := fakeapi.New(fakeapi.WithClock(clk))
			cli := newRealCLI(t, "MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+contract.Serve(t, fake),
				"MINTLIFY_PROJECT_ID="+testProjectID, "TF_LOG_PROVIDER=INFO")
			cli.writeConfig(tc.config)

			line, out := cli.killWhenLogged(tc.started, "apply", "-auto-approve", "-no-color", "-input=false")
			t.Log(line)
			importID := regexp.MustCompile(`import_id=(\S+)`).FindStringSubmatch(line)
			if importID == nil || !strings.Contains(line, "[INFO]") {
				t.Fatalf("the INFO line names no job to import: %q", line)
			}
			if n := tc.jobs(fake); n != 1 {
				t.Fatalf("%d jobs started before the kill, want 1:\n%s", n, out)
			}
			if n := stateResources(t, cli.dir); n != 0 {
				t.Fatalf("the state of the killed apply holds %d resources: the test would prove nothing", n)
			}
			stdout, stderr, err := cli.run("plan", "-no-color", "-input=false")
			if err != nil || !strings.Contains(stdout, "1 to add") {
				t.Fatalf("plan after the kill: %v, want a second job planned:\n%s%s", err, stdout, stderr)
			}

			clk.Advance(time.Hour)
			cli.writeConfig(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", tc.address, importID[1]) + tc.config)
			stdout, stderr, err = cli.run("apply", "-auto-approve", "-no-color", "-input=false")
			if err != nil || !strings.Contains(stdout, "1 imported, 0 added") {
				t.Fatalf("apply with the import block: %v\n%s%s", err, stdout, stderr)
			}
			if n := tc.jobs(fake); n != 1 {
				t.Errorf("%d jobs started in all, want the one that the import adopted", n)
			}
		})
	}
}

// killWhenLogged starts terraform in a process group of its own, with the
// provider it starts, reads its log (stderr) until a line holds marker, and
// then kills the whole group with SIGKILL. It returns that line and all the
// output.
func (c *realCLI) killWhenLogged(marker string, args ...string) (string, string) {
	c.t.Helper()
	cmd := c.command(args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &syncBuffer{}
	cmd.Stdout = out
	pipe, err := cmd.StderrPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	copied := make(chan struct{})
	line := ""
	scanner := bufio.NewScanner(pipe)
	for scanner.Scan() {
		out.WriteString(scanner.Text() + "\n")
		if strings.Contains(scanner.Text(), marker) {
			line = scanner.Text()
			break
		}
	}
	go func() {
		_, _ = io.Copy(out, pipe)
		close(copied)
	}()
	if line != "" {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			c.t.Fatal(err)
		}
	}
	<-copied
	err = cmd.Wait()
	if line == "" {
		c.t.Fatalf("terraform %s ended (%v) without logging %q:\n%s", strings.Join(args, " "), err, marker, out)
	}
	return line, out.String()
}

// stateResources counts the resources in the local state of dir; a state
// that was never written (no file, or the empty file a killed terraform
// leaves) has none.
func stateResources(t *testing.T, dir string) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if os.IsNotExist(err) || err == nil && len(raw) == 0 {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	var state struct{ Resources []json.RawMessage }
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	return len(state.Resources)
}
