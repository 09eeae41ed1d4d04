//go:build unix

package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
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
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	for _, tc := range []struct {
		name, config, started, address string
		jobs                           func(*fakeapi.Server) int
	}{
		{"bundle", providertest.BundleConfig("docs.example.com", ""), "Static export job started", "mintlify_static_export_bundle.docs",
			(*fakeapi.Server).ExportJobsStarted},
		{"agent job", providertest.AgentJobResourceConfig("Document release 2.3", ""), "Agent job started", "mintlify_agent_job.docs",
			(*fakeapi.Server).AgentJobsCreated},
		{"deployment", providertest.DeploymentResourceConfig(""), "Deployment triggered", "mintlify_deployment.docs",
			func(s *fakeapi.Server) int { return len(s.DeploymentRequests()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The fake's time stands still until the test moves it: the job
			// runs until the apply is killed, and has finished by the import.
			clk := clock.NewFake(time.Now().UTC(), false)
			fake := fakeapi.New(fakeapi.WithClock(clk))
			cli := providertest.BuiltCLI(t, providertest.WithEnv("MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+contract.Serve(t, fake),
				"MINTLIFY_PROJECT_ID="+providertest.ProjectID, "TF_LOG_PROVIDER=INFO"))
			cli.WriteConfig(tc.config)

			// terraform leads a process group of its own, with the provider
			// it starts: once the provider logs the job, both are killed.
			apply := cli.StartInGroup("apply", "-auto-approve", "-no-color", "-input=false")
			line := apply.WaitFor(tc.started)
			apply.KillGroup()
			out := apply.Wait().Output
			t.Log(line)
			importID := regexp.MustCompile(`import_id=(\S+)`).FindStringSubmatch(line)
			if importID == nil || !strings.Contains(line, "[INFO]") {
				t.Fatalf("the INFO line names no job to import: %q", line)
			}
			if n := tc.jobs(fake); n != 1 {
				t.Fatalf("%d jobs started before the kill, want 1:\n%s", n, out)
			}
			if n := cli.Resources(); n != 0 {
				t.Fatalf("the state of the killed apply holds %d resources: the test would prove nothing", n)
			}
			if res := cli.Run("plan", "-no-color", "-input=false"); res.Exit != 0 || !strings.Contains(res.Stdout, "1 to add") {
				t.Fatalf("plan after the kill: exit %d, want a second job planned:\n%s", res.Exit, res.Output)
			}

			clk.Advance(time.Hour)
			cli.WriteConfig(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", tc.address, importID[1]) + tc.config)
			if res := cli.Run("apply", "-auto-approve", "-no-color", "-input=false"); res.Exit != 0 ||
				!strings.Contains(res.Stdout, "1 imported, 0 added") {
				t.Fatalf("apply with the import block: exit %d\n%s", res.Exit, res.Output)
			}
			if n := tc.jobs(fake); n != 1 {
				t.Errorf("%d jobs started in all, want the one that the import adopted", n)
			}
		})
	}
}
