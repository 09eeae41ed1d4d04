package deployment

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// deploymentActionConfig is the action named name, with args.
func deploymentActionConfig(name, args string) string {
	return fmt.Sprintf(`
action "mintlify_deployment" %q {
  config {
    %s
  }
}
`, name, args)
}

// TestDeploymentAction_invoke runs the action with `terraform apply
// -invoke`: one trigger, progress from the status id to the commit
// deployed; then a deployment that fails fails the action, with its logs.
func TestDeploymentAction_invoke(t *testing.T) {
	providertest.CLIContract(t, "action.mintlify_deployment")
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, deploymentPlan(3*time.Minute, false, "Built 12 pages", "Deployed"))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(deploymentActionConfig("docs", "") + deploymentActionConfig("quick", "wait_for_completion = false")))
	cli.MustRun("init", "-no-color", "-input=false")

	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_deployment.docs").Output
	id := `6650f1c2a0b1c2d300000001`
	lines := providertest.ProgressLines(out, "action.mintlify_deployment.docs", "CLI")
	providertest.ExpectLines(t, "the progress of -invoke=action.mintlify_deployment.docs", []string{lines[0], lines[len(lines)-1]},
		`Triggered deployment `+id+` of project proj_test\.`,
		`Deployment `+id+` success: commit c0ffee01 \(Deployed\)\.`)
	for _, want := range []string{"Deployment " + id + " is now queued.", "Deployment " + id + " is now success.",
		"Deployment " + id + ": Built 12 pages", "Deployment " + id + ": Deployed"} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("the progress does not say %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	if !strings.Contains(out, "Actions: 1 invoked.") {
		t.Errorf("terraform did not report the action as invoked:\n%s", out)
	}

	out = cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_deployment.quick").Output
	providertest.ExpectLines(t, "the progress of a deployment not waited for", providertest.ProgressLines(out, "action.mintlify_deployment.quick", "CLI"),
		`Triggered deployment 6650f1c2a0b1c2d300000002 of project proj_test\.`,
		`Not waiting for deployment 6650f1c2a0b1c2d300000002 \(wait_for_completion = false\): .*`)
	if n := len(env.Fake.DeploymentRequests()); n != 2 {
		t.Errorf("deployments triggered = %d, want 2", n)
	}
}

// TestDeploymentAction_failure: a deployment that fails fails the action,
// with its summary and log.
func TestDeploymentAction_failure(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, deploymentPlan(time.Minute, true, "Error: broken link /quickstart"))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(deploymentActionConfig("docs", "")))
	cli.MustRun("init", "-no-color", "-input=false")
	res := cli.Run("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_deployment.docs")
	out := strings.Join(strings.Fields(res.Output), " ")
	for _, want := range []string{"Deployment Failed", "deployment 6650f1c2a0b1c2d300000001 of project proj_test failed: The build failed",
		"Error: broken link /quickstart", "invoke the action again"} {
		if res.Exit == 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the output does not say %q:\n%s", res.Exit, want, res.Output)
		}
	}
}

// flappingLogLines is the length of the log that flappingLog serves.
const flappingLogLines = 200_000

// flappingLog rewrites the log of every status answer of the fake, as a
// hostile API would: 200,000 lines, then one, then 200,000 again, and so
// on. It counts the answers it rewrote.
func flappingLog(rewrites *atomic.Int64) func(http.Handler) http.Handler {
	long := slices.Repeat([]string{"."}, flappingLogLines)
	return func(fake http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/v1/project/update-status/") {
				fake.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			fake.ServeHTTP(rec, r)
			var answer map[string]any
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &answer) != nil {
				maps.Copy(w.Header(), rec.Header())
				w.WriteHeader(rec.Code)
				_, _ = w.Write(rec.Body.Bytes())
				return
			}
			answer["logs"] = long
			if rewrites.Add(1)%2 == 0 {
				answer["logs"] = long[:1]
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(answer)
		})
	}
}

// TestDeploymentAction_flappingLogIsBounded: a deployment whose log the API
// rewrites at every answer, 200,000 lines then one, reports each line once
// and at most 200 of them, then one line with the count left out.
func TestDeploymentAction_flappingLogIsBounded(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	var rewrites atomic.Int64
	env := providertest.NewTestEnvWithHandler(t, flappingLog(&rewrites), deploymentPlan(2*time.Minute, false))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(deploymentActionConfig("docs", "")))
	cli.MustRun("init", "-no-color", "-input=false")
	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_deployment.docs").Output
	if n := rewrites.Load(); n < 4 {
		t.Fatalf("the log was rewritten %d times: the test would prove nothing", n)
	}
	id := "6650f1c2a0b1c2d300000001"
	var logLines, leftOut []string
	for _, line := range providertest.ProgressLines(out, "action.mintlify_deployment.docs", "CLI") {
		switch {
		case strings.Contains(line, "more log lines not shown"):
			leftOut = append(leftOut, line)
		case strings.HasPrefix(line, "Deployment "+id+": "):
			logLines = append(logLines, line)
		}
	}
	if len(logLines) != 200 {
		t.Errorf("%d log lines reported, want 200", len(logLines))
	}
	providertest.ExpectLines(t, "the count of the lines left out", leftOut,
		`Deployment `+id+`: 199800 more log lines not shown \(only the first 200 are\); the Mintlify dashboard shows them all\.`)
	if len(out) > 64<<10 {
		t.Errorf("terraform printed %d bytes, want the progress bounded", len(out))
	}
}
