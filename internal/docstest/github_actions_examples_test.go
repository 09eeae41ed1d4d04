package docstest

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The tests of the guide "Deployments and previews in GitHub Actions": each
// event below goes through the guide's workflows as GitHub Actions would
// run them (github_actions_runner_test.go), with the real CLI against the
// stand-in API, and the test checks what the user sees: which jobs ran,
// what Terraform printed, and what Mintlify was asked to do.

const (
	ghaRepository = "acme/docs"
	ghaBranch     = "feature/new-api"
	ghaPR         = "12"
)

// ghaContext is what every event of the repository gives: its name, its
// secrets and variables (a pull request from a fork gets no secrets), and
// then the event's own values.
func ghaContext(secrets bool, own map[string]string) map[string]string {
	ctx := map[string]string{
		"github.repository":         ghaRepository,
		"github.actor":              "octocat",
		"secrets.MINTLIFY_API_KEY":  "",
		"vars.MINTLIFY_PROJECT_ID":  providertest.ProjectID,
		"vars.TERRAFORM_STATE_ROLE": "arn:aws:iam::123456789012:role/terraform-state",
	}
	if secrets {
		ctx["secrets.MINTLIFY_API_KEY"] = fakeapi.DefaultAPIKey
	}
	maps.Copy(ctx, own)
	return ctx
}

// pushEvent is a push of commit sha to the default branch, main.
func pushEvent(sha string) ghEvent {
	return ghEvent{name: "push", context: ghaContext(true, map[string]string{
		"github.event_name": "push", "github.sha": sha, "github.ref": "refs/heads/main", "github.ref_name": "main",
		"github.head_ref": "",
	})}
}

// scheduleEvent is a run of a workflow's schedule, on the default branch.
func scheduleEvent() ghEvent {
	return ghEvent{name: "schedule", context: ghaContext(true, map[string]string{
		"github.event_name": "schedule", "github.sha": "3b1f0c9", "github.ref": "refs/heads/main",
		"github.ref_name": "main", "github.head_ref": "",
	})}
}

// pullRequestEvent is pull request 12, from ghaBranch at headSHA, of this
// repository or of a fork; action is opened, synchronize, closed and so
// on. github.ref and github.sha are those of the merge commit GitHub makes.
func pullRequestEvent(action, headSHA string, fork bool) ghEvent {
	headRepo := ghaRepository
	if fork {
		headRepo = "someone/docs"
	}
	return ghEvent{name: "pull_request", action: action, context: ghaContext(!fork, map[string]string{
		"github.event_name": "pull_request", "github.event.action": action, "github.event.number": ghaPR,
		"github.ref": "refs/pull/" + ghaPR + "/merge", "github.ref_name": ghaPR + "/merge",
		"github.sha": "7c4e2d1", "github.head_ref": ghaBranch, "github.base_ref": "main",
		"github.event.pull_request.head.sha": headSHA, "github.event.pull_request.head.repo.full_name": headRepo,
	})}
}

// expectJobs checks which jobs an event ran, and that each built the
// provider into a mirror first: it is not in the registry yet.
func expectJobs(t *testing.T, event string, ran map[string]ghaJob, want ...string) {
	t.Helper()
	if got := jobNames(ran); !slices.Equal(got, want) {
		t.Fatalf("%s: jobs run = %q, want %q", event, got, want)
	}
	for name, job := range ran {
		if !job.mirrored {
			t.Errorf("%s: %s runs terraform init without building the provider (scripts/build-mirror), "+
				"which no registry serves yet", event, name)
		}
	}
}

// expectOutput checks that a job printed each phrase, wherever the CLI
// wrapped its lines.
func expectOutput(t *testing.T, what string, job ghaJob, phrases ...string) {
	t.Helper()
	out := strings.Join(strings.Fields(job.Output()), " ")
	for _, p := range phrases {
		if !strings.Contains(out, p) {
			t.Errorf("%s: the job did not print %q:\n%s", what, p, providertest.Indent(job.Output()))
		}
	}
}

// TestAccExampleGitHubActionsDeployOnPush: a push to the default branch runs
// deploy.yml alone; its plan saved with -out deploys nothing, the apply of
// that saved plan deploys once, and a run of the same commit again plans
// no change and deploys nothing.
func TestAccExampleGitHubActionsDeployOnPush(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	example := newGHAExample(t, env)
	var after []string
	example.afterCommand = func(args []string) {
		after = append(after, fmt.Sprintf("%s: %d", args[1], len(env.Fake.DeploymentRequests())))
	}

	ran := example.trigger(pushEvent("3b1f0c9"))
	expectJobs(t, "push", ran, "deploy.yml/deploy")
	if want := []string{"init: 0", "plan: 0", "apply: 1"}; !slices.Equal(after, want) {
		t.Errorf("deployments after each command = %q, want %q", after, want)
	}
	job := ran["deploy.yml/deploy"]
	expectOutput(t, "push", job, "Plan: 1 to add, 0 to change, 0 to destroy.",
		"Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", `deployed_commit = "3b1f0c9"`)
	if apply := job.results[len(job.results)-1]; strings.Contains(apply.Output, "Terraform will perform the following actions") {
		t.Errorf("the apply of the saved plan planned again:\n%s", apply)
	}
	if got := env.Fake.DeploymentRequests(); len(got) != 1 || got[0].Branch != "" {
		t.Errorf("deployments = %+v, want one of the deployment branch", got)
	}

	ran = example.trigger(pushEvent("3b1f0c9"))
	expectOutput(t, "the same commit again", ran["deploy.yml/deploy"], "No changes.")
	if n := len(env.Fake.DeploymentRequests()); n != 1 {
		t.Errorf("after a second run of the same commit, deployments = %d, want 1", n)
	}
}

// TestAccExampleGitHubActionsPreviewLifecycle: a pull request from a branch
// of the repository deploys a preview of its head branch (not of
// refs/pull/12/merge), a new commit deploys the same preview again, and
// closing the pull request forgets the preview, whose destroy warns that
// it stays online.
func TestAccExampleGitHubActionsPreviewLifecycle(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	example := newGHAExample(t, env)
	url := fakeapi.PreviewURL(providertest.ProjectID, ghaBranch)

	ran := example.trigger(pullRequestEvent("opened", "3b1f0c9", false))
	expectJobs(t, "pull request opened", ran, "preview.yml/deploy")
	expectOutput(t, "pull request opened", ran["preview.yml/deploy"], `Created and switched to workspace "pr-12"`,
		"Apply complete! Resources: 1 added", fmt.Sprintf("preview_url = %q", url))

	ran = example.trigger(pullRequestEvent("synchronize", "9d2e4a1", false))
	expectJobs(t, "new commit", ran, "preview.yml/deploy")
	expectOutput(t, "new commit", ran["preview.yml/deploy"], "Apply complete! Resources: 0 added, 1 changed",
		fmt.Sprintf("preview_url = %q", url))
	for _, d := range env.Fake.DeploymentRequests() {
		if d.Branch != ghaBranch {
			t.Errorf("deployment %d is of branch %q, want the head branch %q", d.N, d.Branch, ghaBranch)
		}
	}

	ran = example.trigger(pullRequestEvent("closed", "9d2e4a1", false))
	expectJobs(t, "pull request closed", ran, "preview.yml/close")
	expectOutput(t, "pull request closed", ran["preview.yml/close"], "Warning: Preview Stays Online",
		fmt.Sprintf("Terraform forgot the preview of branch %q", ghaBranch), "it stays online at "+url,
		"Destroy complete! Resources: 1 destroyed.", `Deleted workspace "pr-12"`)
	if n := len(env.Fake.DeploymentRequests()); n != 2 {
		t.Errorf("deployments = %d, want 2: the preview's and its redeployment", n)
	}
}

// TestAccExampleGitHubActionsForkPullRequestIsSkipped: a pull request from
// a fork, which runs without the repository's secrets, runs no job, from
// open to close, and deploys nothing.
func TestAccExampleGitHubActionsForkPullRequestIsSkipped(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	example := newGHAExample(t, env)
	for _, action := range []string{"opened", "synchronize", "closed"} {
		expectJobs(t, "fork pull request "+action, example.trigger(pullRequestEvent(action, "3b1f0c9", true)))
	}
	if n := len(env.Fake.DeploymentRequests()); n != 0 {
		t.Errorf("deployments = %d, want none", n)
	}
}

// TestAccExampleGitHubActionsDependabotPullRequestIsSkipped: a pull request
// that Dependabot opens, which runs without the repository's secrets (it
// gets Dependabot's), runs no job, from open to close, and deploys nothing.
func TestAccExampleGitHubActionsDependabotPullRequestIsSkipped(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, deploysCommit())
	example := newGHAExample(t, env)
	for _, action := range []string{"opened", "synchronize", "closed"} {
		ev := pullRequestEvent(action, "3b1f0c9", false)
		ev.context["github.actor"] = "dependabot[bot]"
		ev.context["secrets.MINTLIFY_API_KEY"] = ""
		expectJobs(t, "Dependabot pull request "+action, example.trigger(ev))
	}
	if n := len(env.Fake.DeploymentRequests()); n != 0 {
		t.Errorf("deployments = %d, want none", n)
	}
}

// TestGitHubActionsExamplesSwitchToTheRegistryInOneLine: with the one line
// MINTLIFY_PROVIDER_FROM set to "registry", no step of any job builds the
// provider, checks out its repository or installs Go.
func TestGitHubActionsExamplesSwitchToTheRegistryInOneLine(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "examples", filepath.FromSlash(ghaExampleDir), "workflows")
	switched := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(dir, "*.yml"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		const line = "  MINTLIFY_PROVIDER_FROM: build-mirror\n"
		if strings.Count(string(raw), line) != 1 {
			t.Fatalf("%s: want the line %q once", f, strings.TrimSpace(line))
		}
		out := strings.Replace(string(raw), line, "  MINTLIFY_PROVIDER_FROM: registry\n", 1)
		if err := os.WriteFile(filepath.Join(switched, filepath.Base(f)), []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ev := pullRequestEvent("opened", "3b1f0c9", false) // gives every value the workflows' if: read
	for file, wf := range readWorkflows(t, switched) {
		for name, job := range wf.Jobs {
			stepEnv := ev.withEnv(mergedEnv(wf.Env, job.Env))
			for i, step := range job.Steps {
				building := strings.Contains(step.Run, buildMirrorCommand) || strings.HasPrefix(step.Uses, "actions/setup-go@") ||
					strings.HasPrefix(step.Uses, "actions/checkout@") && i > 0
				if run, err := stepEnv.condition(step.If); building && (err != nil || run) {
					t.Errorf("%s/%s step %d still runs with the registry (%v)", file, name, i+1, err)
				}
			}
		}
	}
}

// mergedEnv is a job's env: the workflow's, then the job's own.
func mergedEnv(levels ...map[string]string) map[string]string {
	env := map[string]string{}
	for _, level := range levels {
		maps.Copy(env, level)
	}
	return env
}

// TestAccExampleGitHubActionsNightly: the schedule runs nightly.yml alone,
// which runs the automation once; a second run the same day (UTC) runs
// nothing. Terraform's plantimestamp() is the wall clock: when the day
// turns between the two runs, the second run is the next day's, and runs
// the automation again, as it should.
func TestAccExampleGitHubActionsNightly(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: "6650f1c2a0b1c2d3e4f50617"}))
	example := newGHAExample(t, env)
	day := time.Now().UTC().Format(time.DateOnly)

	ran := example.trigger(scheduleEvent())
	expectJobs(t, "schedule", ran, "nightly.yml/automation")
	expectOutput(t, "schedule", ran["nightly.yml/automation"], "Apply complete! Resources: 1 added")
	ran = example.trigger(scheduleEvent())
	want := 1
	if time.Now().UTC().Format(time.DateOnly) != day {
		want = 2
	} else {
		expectOutput(t, "second run the same day", ran["nightly.yml/automation"], "No changes.")
	}
	if got := len(env.Fake.AutomationRuns()); got != want {
		t.Errorf("automation runs = %d, want %d", got, want)
	}
}
