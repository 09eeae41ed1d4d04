// Command workspaces is the many-workspaces benchmark behind `make
// bench-workspaces`. It builds the provider once, serves the in-repo fake
// Mintlify API on loopback in real time with the organization's documented
// limits answered as Mintlify's shared key layer may (plain-text 429s
// without Retry-After), and starts N `terraform apply` at once, each in a
// working directory of its own and so in a provider process of its own, as
// Atlantis projects, HCP Terraform workspaces or one workspace per pull
// request do:
//
//   - previews: 12 workspaces, one mintlify_preview_deployment each,
//     against trigger preview's 5 a minute;
//   - deployments: 20 workspaces, one mintlify_deployment each, against
//     trigger update's 10 per 10 seconds while the rest of the
//     organization uses half of it.
//
// For each it prints the wall time against the floor the limit allows, the
// 429s the fake answered, and whether any apply failed. Targets: every
// apply succeeds, and the wall time is at most 1.3 times the floor plus 10
// seconds. A missed target fails the run. Not part of make test: it takes
// a few minutes of real time.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

const (
	// queued and building are each deployment's timeline on the fake (the
	// demo's, devprovider.StartAPI).
	queued, building = time.Second, 3 * time.Second
	// maxFloorRatio and slack are the target: wall time at most
	// maxFloorRatio × floor + slack.
	maxFloorRatio = 1.3
	slack         = 10 * time.Second
	// initAtOnce is how many `terraform init` run at once, before the
	// timed applies.
	initAtOnce = 4
)

// scenario is one batch of workspaces against one limit.
type scenario struct {
	name       string
	workspaces int
	// resource is each workspace's configuration, of its index.
	resource func(i int) string
	// limitN per limitPer is the documented limit; othersUse the share the
	// rest of the organization uses.
	limitN    int
	limitPer  time.Duration
	othersUse float64
	// triggerPath is the path prefix of the limited trigger.
	triggerPath string
}

var scenarios = []scenario{
	{
		name: "previews", workspaces: 12, limitN: 5, limitPer: time.Minute, triggerPath: "/v1/project/preview/",
		resource: func(i int) string {
			return fmt.Sprintf("resource \"mintlify_preview_deployment\" \"pr\" {\n  branch = \"pr-%02d\"\n}\n", i)
		},
	},
	{
		name: "deployments", workspaces: 20, limitN: 10, limitPer: 10 * time.Second, othersUse: 0.5,
		triggerPath: "/v1/project/update/",
		resource: func(i int) string {
			return fmt.Sprintf("resource \"mintlify_deployment\" \"site\" {\n  triggers = { workspace = \"ws-%02d\" }\n}\n", i)
		},
	},
}

// floor is the least wall time the limit allows: the last trigger goes
// once the windows before it have passed, then its deployment queues and
// builds.
func (s scenario) floor() time.Duration {
	ours := int(float64(s.limitN)*(1-s.othersUse) + 0.5)
	windows := (s.workspaces + ours - 1) / ours
	return time.Duration(windows-1)*s.limitPer + queued + building
}

func main() {
	module := flag.String("module", ".", "the module to build the provider from (another checkout measures another version)")
	only := flag.String("run", "", "run only the scenario of this name")
	flag.Parse()
	ok, err := run(*module, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-workspaces failed:", err)
		os.Exit(1)
	}
	if !ok {
		fmt.Fprintln(os.Stderr, "bench-workspaces: targets missed")
		os.Exit(1)
	}
}

func run(module, only string) (bool, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	terraform, err := devprovider.Terraform()
	if err != nil {
		return false, err
	}
	out := os.Stdout
	fmt.Fprintln(out, "Building the provider...")
	ws, err := devprovider.NewWorkspace(ctx, module, "mintlify-bench-workspaces-", out)
	if err != nil {
		return false, err
	}
	defer func() { _ = ws.Close() }()
	cli, err := devprovider.IdentifyBinary(terraform, ws.CLIConfig)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(out, "%s, provider built from %s, fake API on loopback in real time, organization-wide limits "+
		"answered as plain text without Retry-After.\n", cli.Name, module)
	v := benchreport.NewVerdict(out)
	for _, s := range scenarios {
		if only != "" && s.name != only {
			continue
		}
		r, err := s.run(ctx, ws, cli.Path, out)
		if err != nil {
			return false, err
		}
		r.print(out, s)
		r.judge(v, s)
	}
	return !v.Failed(), nil
}

// result is what one scenario measured.
type result struct {
	took     time.Duration
	failed   []string // the failed applies' last lines
	refused  int      // 429s of the limit
	triggers int      // triggers the fake accepted
}

func (s scenario) run(ctx context.Context, ws *devprovider.Workspace, terraform string, out io.Writer) (result, error) {
	fake, err := devprovider.StartAPI(fakeapi.WithLimits(fakeapi.LimitOptions{PlainText: true, OthersUse: s.othersUse}),
		fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
			return fakeapi.DeploymentPlan{QueuedFor: queued, RunFor: building}
		}}))
	if err != nil {
		return result{}, err
	}
	defer func() { _ = fake.Close() }()
	runner := ws.Commands(terraform, devprovider.Env(fake)...)
	dirs, err := s.prepare(ctx, ws.Dir, runner)
	if err != nil {
		return result{}, err
	}
	fmt.Fprintf(out, "\n%s: %d applies at once, each in its own working directory and provider process...\n", s.name, len(dirs))
	began := time.Now()
	failed := applyAll(ctx, runner, dirs)
	r := result{took: time.Since(began), failed: failed, refused: fake.Fake.TriggersRefused()}
	for _, req := range fake.Fake.Requests() {
		if req.Method == "POST" && strings.HasPrefix(req.Path, s.triggerPath) && req.Status == 202 {
			r.triggers++
		}
	}
	return r, nil
}

// prepare writes each workspace's configuration and runs its `terraform
// init`, a few at once, before the timed applies.
func (s scenario) prepare(ctx context.Context, root string, runner devprovider.Commands) ([]string, error) {
	dirs := make([]string, s.workspaces)
	for i := range dirs {
		dirs[i] = filepath.Join(root, fmt.Sprintf("%s-%02d", s.name, i))
		if err := os.MkdirAll(dirs[i], 0o755); err != nil {
			return nil, err
		}
		config := requiredProviders + s.resource(i)
		if err := os.WriteFile(filepath.Join(dirs[i], "main.tf"), []byte(config), 0o600); err != nil {
			return nil, err
		}
	}
	errs := make(chan error, len(dirs))
	slots := make(chan struct{}, initAtOnce)
	var wg sync.WaitGroup
	for _, dir := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			errs <- runner.Run(ctx, dir, "init", "-input=false", "-no-color")
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return dirs, nil
}

// applyAll starts every apply at once and returns the failures' last lines.
func applyAll(ctx context.Context, runner devprovider.Commands, dirs []string) []string {
	var mu sync.Mutex
	var failed []string
	var wg sync.WaitGroup
	for _, dir := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := runner.Run(ctx, dir, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
				mu.Lock()
				failed = append(failed, err.Error())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failed
}

func (r result) print(out io.Writer, s scenario) {
	floor := s.floor()
	others := ""
	if s.othersUse > 0 {
		others = fmt.Sprintf(", the rest of the organization using %.0f%% of it", s.othersUse*100)
	}
	fmt.Fprintf(out, "%d workspaces, limit %d per %s%s, deployments of %s:\n", s.workspaces, s.limitN,
		benchreport.ShortDuration(s.limitPer), others, benchreport.ShortDuration(queued+building))
	fmt.Fprintf(out, "  applies succeeded: %d of %d; triggers accepted: %d\n", s.workspaces-len(r.failed), s.workspaces, r.triggers)
	fmt.Fprintf(out, "  wall time: %s; floor the limit allows: %s; ratio %.2f; target %s\n", r.took.Round(100*time.Millisecond),
		floor, r.took.Seconds()/floor.Seconds(), r.target(s).Round(time.Second))
	fmt.Fprintf(out, "  429s answered (plain text, no Retry-After): %d\n", r.refused)
	if len(r.failed) > 0 {
		fmt.Fprintf(out, "  first failed apply:\n%s\n", indent(r.failed[0]))
	}
}

func (r result) target(s scenario) time.Duration {
	return time.Duration(maxFloorRatio*float64(s.floor())) + slack
}

func (r result) judge(v *benchreport.Verdict, s scenario) {
	v.Check(len(r.failed) == 0, "%s: every apply succeeds: %d of %d", s.name, s.workspaces-len(r.failed), s.workspaces)
	v.Check(r.triggers == s.workspaces, "%s: each workspace triggers once: %d triggers for %d workspaces", s.name,
		r.triggers, s.workspaces)
	v.Check(r.took <= r.target(s), "%s: wall time at most %.1f × the floor (%s) + %s: %s", s.name, maxFloorRatio,
		s.floor(), slack, r.took.Round(100*time.Millisecond))
}

func indent(s string) string {
	return "    | " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    | ")
}

const requiredProviders = `terraform {
  required_providers {
    mintlify = { source = "mintlify/mintlify" }
  }
}

`
