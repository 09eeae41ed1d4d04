// Command e2e is the end-to-end benchmark behind `make bench-e2e`. It
// builds the provider, serves the in-repo fake Mintlify API on loopback in
// real time, and drives the Terraform CLI from PATH through a generated CLI
// configuration (dev_overrides: nothing is installed or downloaded):
//
//  1. one apply with a 20 s and a 90 s export: how soon the provider noticed
//     each one complete and how many status requests it spent, beside a
//     fixed 10-second loop polling twin jobs on the same fake; and the
//     progress lines (staticexport.LogExportProgress) TF_LOG=INFO shows for them;
//  2. 50 exports in one apply (-parallelism=50) against an API limited to 5
//     requests a second: all must succeed, in a total time close to the
//     longest job's;
//  3. `terraform plan` of 100 bundles against the same plan of 100
//     terraform_data resources, and the provider's peak memory (VmHWM from
//     /proc) during it.
//
// Machines are noisy, so it reports ratios, not absolute times, wherever
// the target is a ratio. It leaves nothing running.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

func main() {
	planRuns := flag.Int("plan-runs", 7, "timed runs of each plan")
	skip := flag.String("skip", "", "comma-separated parts to skip: single, parallel, plan")
	flag.Parse()
	missed, err := run(*planRuns, *skip)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-e2e failed:", err)
		os.Exit(1)
	}
	if missed > 0 {
		fmt.Fprintf(os.Stderr, "bench-e2e: %d targets missed\n", missed)
		os.Exit(1)
	}
}

// The targets, each checked once: maxNoticeMean in reportSingle,
// maxParallelRatio in parallelExports (the memory target, checked in
// reportPlans, is shared with the archive benchmark:
// benchreport.MaxProviderPeakRSS).
const (
	// maxNoticeMean is how late, on average, the provider may notice a
	// single export complete; it must also be sooner than the 10 s loop.
	maxNoticeMean = time.Second
	// maxParallelRatio bounds the 50-bundle apply against its longest job.
	maxParallelRatio = 1.2
)

// bench holds what every part shares.
type bench struct {
	cli devprovider.Binary
	ws  *devprovider.Workspace // the built provider and its CLI configuration
	out io.Writer
}

// part is what one part of the benchmark measured: its report, and its
// targets, judged once every part is done.
type part struct {
	report  strings.Builder
	targets []target
}

type target struct {
	met  bool
	text string
}

func (p *part) printf(format string, args ...any) { fmt.Fprintf(&p.report, format, args...) }

func (p *part) check(met bool, format string, args ...any) {
	p.targets = append(p.targets, target{met, fmt.Sprintf(format, args...)})
}

// run runs the parts not skipped and returns how many targets they missed.
func run(planRuns int, skip string) (int, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	terraform, err := devprovider.Terraform()
	if err != nil {
		return 0, err
	}
	out := os.Stdout
	fmt.Fprintln(out, "Building the provider...")
	ws, err := devprovider.NewWorkspace(ctx, ".", "mintlify-bench-e2e-", out)
	if err != nil {
		return 0, err
	}
	defer func() { _ = ws.Close() }()
	cli, err := devprovider.IdentifyBinary(terraform, ws.CLIConfig)
	if err != nil {
		return 0, err
	}
	b := &bench{cli: cli, ws: ws, out: out}
	fmt.Fprintf(out, "%s, provider built from this tree, fake API on loopback in real time.\n", cli.Name)

	skipped := func(name string) bool { return slices.Contains(strings.Split(skip, ","), name) }
	parts, err := b.runParts(ctx, skipped, planRuns)
	for _, p := range parts {
		fmt.Fprint(out, p.report.String())
	}
	if err != nil {
		return 0, err
	}
	fmt.Fprintln(out)
	v := benchreport.NewVerdict(out)
	for _, p := range parts {
		for _, t := range p.targets {
			v.Check(t.met, "%s", t.text)
		}
	}
	return v.Missed(), nil
}

// runParts runs the single exports and the parallel apply side by side
// (both mostly wait, and together they take as long as the longest job),
// then the plan.
func (b *bench) runParts(ctx context.Context, skipped func(string) bool, planRuns int) ([]*part, error) {
	var single, parallel *part
	var singleErr, parallelErr error
	var wg sync.WaitGroup
	if !skipped("single") {
		wg.Go(func() { single, singleErr = b.singleExports(ctx) })
	}
	if !skipped("parallel") {
		wg.Go(func() { parallel, parallelErr = b.parallelExports(ctx) })
	}
	wg.Wait()
	parts := slices.DeleteFunc([]*part{single, parallel}, func(p *part) bool { return p == nil })
	if err := errors.Join(singleErr, parallelErr); err != nil || skipped("plan") {
		return parts, err
	}
	plan, err := b.planCost(ctx, planRuns)
	if plan != nil {
		parts = append(parts, plan)
	}
	return parts, err
}

// terraform runs the CLI with the workspace's CLI configuration and env.
func (b *bench) terraform(env ...string) devprovider.Commands {
	return b.ws.Commands(b.cli.Path, env...)
}

func (b *bench) workdir(name, config string) (string, error) {
	dir := filepath.Join(b.ws.Dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600)
}

// bundleBlock is one bundle resource.
func bundleBlock(name, domain string) string {
	return fmt.Sprintf(`
resource "mintlify_static_export_bundle" %q {
  domain = %q
}
`, name, domain)
}

const providerBlock = `
terraform {
  required_providers {
    mintlify = { source = "mintlify/mintlify" }
  }
}
`
