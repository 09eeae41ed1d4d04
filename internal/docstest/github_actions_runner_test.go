package docstest

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// ghaExample is the guide's examples/guides/github-actions, as a repository
// whose workflows run against the stand-in API: a copy of each Terraform
// configuration, whose state the runs share as they would share the remote
// backend, and the workflows that apply them.
type ghaExample struct {
	t         *testing.T
	env       *providertest.Env
	repo      string
	workflows map[string]workflow
	// afterCommand, when set, is called after each terraform command a
	// step runs, with its words.
	afterCommand func(args []string)
}

// ghaJob is a job that ran: what its terraform commands printed, one after
// the other.
type ghaJob struct {
	results []providertest.Result
	// mirrored is true when the job built the provider into a filesystem
	// mirror before its first terraform command.
	mirrored bool
}

// Output is everything the job's terraform commands printed.
func (j ghaJob) Output() string {
	var b strings.Builder
	for _, r := range j.results {
		b.WriteString(r.Output)
	}
	return b.String()
}

const ghaExampleDir = "guides/github-actions"

// newGHAExample copies the configurations of the guide's example into a
// repository of the test. In each, an override file puts a local backend
// in place of the remote one (the runs of one test share it, as runs share
// the bucket); nothing else is changed.
func newGHAExample(t *testing.T, env *providertest.Env) *ghaExample {
	t.Helper()
	providertest.SkipUnlessVersion(t, ">= 1.10") // the configurations' required_version (use_lockfile)
	src := filepath.Join("..", "..", "examples", filepath.FromSlash(ghaExampleDir))
	e := &ghaExample{t: t, env: env, repo: t.TempDir(), workflows: readWorkflows(t, filepath.Join(src, "workflows"))}
	configs, err := filepath.Glob(filepath.Join(src, "*", "*.tf"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("no configurations in %s (%v)", src, err)
	}
	for _, f := range configs {
		dir := filepath.Join(e.repo, filepath.Base(filepath.Dir(f)))
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for name, content := range map[string][]byte{
			filepath.Base(f):      raw,
			"backend_override.tf": []byte("terraform {\n  backend \"local\" {}\n}\n"),
		} {
			if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	return e
}

// trigger runs every workflow that starts on ev, each job whose `if:` holds,
// and in it each step that runs terraform, in order, as GitHub Actions
// would on a runner with the repository checked out. It returns the jobs
// that ran, as "file/job". A command that fails fails the test, as it
// would fail the job.
func (e *ghaExample) trigger(ev ghEvent) map[string]ghaJob {
	e.t.Helper()
	ran := map[string]ghaJob{}
	files := make([]string, 0, len(e.workflows))
	for file := range e.workflows {
		files = append(files, file)
	}
	sort.Strings(files)
	for _, file := range files {
		wf := e.workflows[file]
		if !wf.startsOn(ev) {
			continue
		}
		for _, name := range wf.sortedJobs() {
			if job, ok := e.runJob(ev, wf, file+"/"+name); ok {
				ran[file+"/"+name] = job
			}
		}
	}
	return ran
}

// runJob runs one job of wf, unless its `if:` skips it.
func (e *ghaExample) runJob(ev ghEvent, wf workflow, name string) (ghaJob, bool) {
	e.t.Helper()
	spec := wf.Jobs[name[strings.Index(name, "/")+1:]]
	if run, err := ev.condition(spec.If); err != nil {
		e.t.Fatalf("%s: if: %v", name, err)
	} else if !run {
		return ghaJob{}, false
	}
	var job ghaJob
	withEnv := ev.withEnv(e.stepEnv(ev, name, wf.Env, spec.Env)) // a step's if: reads env.*
	for i, step := range spec.Steps {
		if run, err := withEnv.condition(step.If); err != nil || !run {
			e.must(err, "%s step %d: if", name, i+1)
			continue
		}
		if step.Run == "" {
			continue // an action: checkout, credentials, the CLI's setup
		}
		if strings.Contains(step.Run, buildMirrorCommand) {
			e.checkBuildMirrorStep(name, i+1, step, len(job.results))
			job.mirrored = true
			continue
		}
		env := e.stepEnv(ev, name, wf.Env, spec.Env, step.Env)
		dir := step.WorkingDirectory
		if dir == "" {
			dir = wf.Defaults.Run.WorkingDirectory
		}
		script, err := ev.interpolate(step.Run)
		e.must(err, "%s step %d", name, i+1)
		job.results = append(job.results, e.runScript(name, dir, script, env)...)
	}
	return job, true
}

// stepEnv is a step's environment: the workflow's, the job's and the
// step's own, each value's expressions replaced.
func (e *ghaExample) stepEnv(ev ghEvent, name string, levels ...map[string]string) map[string]string {
	e.t.Helper()
	env := map[string]string{}
	for _, level := range levels {
		for k, v := range level {
			value, err := ev.interpolate(v)
			e.must(err, "%s: env %s", name, k)
			env[k] = value
		}
	}
	return env
}

// runScript runs each line of a run: script, which must be a terraform
// command: the example workflows keep their scripts to those.
func (e *ghaExample) runScript(job, dir, script string, env map[string]string) []providertest.Result {
	e.t.Helper()
	var results []providertest.Result
	for _, line := range strings.Split(script, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words, err := shellWords(line, env)
		e.must(err, "%s", job)
		if len(words) == 0 || words[0] != "terraform" {
			e.t.Fatalf("%s: %q is not a terraform command: the test runs only those", job, line)
		}
		res := e.cli(dir, env).Run(append(words[1:], "-no-color")...)
		if res.Exit != 0 {
			e.t.Fatalf("%s: the step failed, and with it the job:\n%s", job, res)
		}
		if e.afterCommand != nil {
			e.afterCommand(words)
		}
		results = append(results, res)
	}
	return results
}

// cli runs a command in the configuration dir with the step's environment.
// The provider is served from the test process, on the stand-in's clock,
// and reads no environment of the CLI: an override file gives it what the
// step's environment gives the provider on a runner (MINTLIFY_API_KEY,
// MINTLIFY_PROJECT_ID), and the stand-in's address.
func (e *ghaExample) cli(dir string, env map[string]string) *providertest.CLI {
	e.t.Helper()
	vars := make([]string, 0, len(env))
	for _, k := range sortedKeys(env) {
		vars = append(vars, k+"="+env[k])
	}
	cli := providertest.ServedCLI(e.t, providerserver.NewProtocol6(testProvider(&e.env.Served)), providertest.WithEnv(vars...))
	cli.Dir = filepath.Join(e.repo, filepath.FromSlash(dir))
	cli.WriteFile("mintlify_override.tf", fmt.Sprintf("provider \"mintlify\" {\n  api_key    = %q\n  base_url   = %q\n  project_id = %q\n}\n",
		env[envAPIKey], e.env.URL, env[envProjectID]))
	return cli
}

func (e *ghaExample) must(err error, format string, args ...any) {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf(format+": %v", append(args, err)...)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range maps.Keys(m) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jobNames are the jobs that ran, sorted.
func jobNames(ran map[string]ghaJob) []string {
	names := make([]string, 0, len(ran))
	for name := range ran {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// buildMirrorCommand runs scripts/build-mirror of the provider's repository,
// checked out at provider/ beside the configurations.
const buildMirrorCommand = "provider/scripts/build-mirror "

// mirrorStep is what the build-mirror step must run: the script into a
// directory of the runner's, then that directory's CLI configuration for
// the steps after it.
var mirrorStep = regexp.MustCompile(`^provider/scripts/build-mirror ("\$RUNNER_TEMP/[^"]+")\n` +
	`echo "TF_CLI_CONFIG_FILE=([^"]+)/terraform\.rc" >> "\$GITHUB_ENV"\n?$`)

// checkBuildMirrorStep checks the step of a job that builds the provider
// into a mirror, without running it: the test serves the provider itself,
// and TestBuildMirrorScript runs the script. The step must run before any
// terraform command (ran is how many ran), from the repository's root,
// with a script this repository has, and hand its CLI configuration to the
// steps after it.
func (e *ghaExample) checkBuildMirrorStep(job string, n int, step workflowStep, ran int) {
	e.t.Helper()
	m := mirrorStep.FindStringSubmatch(step.Run)
	switch {
	case ran > 0:
		e.t.Fatalf("%s step %d builds the mirror after a terraform command ran", job, n)
	case m == nil:
		e.t.Fatalf("%s step %d: want %q then the echo of TF_CLI_CONFIG_FILE to $GITHUB_ENV, got:\n%s", job, n,
			buildMirrorCommand+`"$RUNNER_TEMP/..."`, step.Run)
	case `"`+m[2]+`"` != m[1]:
		e.t.Fatalf("%s step %d: the mirror is built in %s, but TF_CLI_CONFIG_FILE points into %s", job, n, m[1], m[2])
	case step.WorkingDirectory != ".":
		e.t.Fatalf("%s step %d runs in %q: provider/ is checked out at the repository's root, so set working-directory: .",
			job, n, step.WorkingDirectory)
	}
	info, err := os.Stat(filepath.Join("..", "..", "scripts", "build-mirror"))
	if err != nil || info.Mode()&0o111 == 0 {
		e.t.Fatalf("%s step %d runs scripts/build-mirror, which this repository lacks or cannot run: %v", job, n, err)
	}
}
