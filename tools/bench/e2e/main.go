// Command e2e is the end-to-end benchmark behind `make bench-e2e`. It
// builds the provider, serves the in-repo fake Mintlify API on loopback in
// real time, and drives the Terraform CLI from PATH through a generated CLI
// configuration (dev_overrides: nothing is installed or downloaded):
//
//  1. one apply with a 20 s and a 90 s export: how soon the provider noticed
//     each one complete and how many status requests it spent, beside a
//     fixed 10-second loop polling twin jobs on the same fake; and the
//     "Static export progress" lines TF_LOG=INFO shows for them;
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
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
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

// The targets, each checked once below (the memory target is shared with
// the archive benchmark: benchreport.MaxProviderPeakRSS).
const (
	// maxNoticeMean is how late, on average, the provider may notice a
	// single export complete; it must also be sooner than the 10 s loop.
	maxNoticeMean = time.Second
	// maxParallelRatio bounds the 50-bundle apply against its longest job.
	maxParallelRatio = 1.2
)

// bench holds what every part shares.
type bench struct {
	cli devprovider.CLI
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
	cli, err := devprovider.IdentifyCLI(terraform, ws.CLIConfig)
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

// jobPlans decides each export's timeline by its domain.
type jobPlans struct {
	mu    sync.Mutex
	plans map[string]fakeapi.JobPlan
}

func (p *jobPlans) set(domain string, plan fakeapi.JobPlan) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.plans == nil {
		p.plans = map[string]fakeapi.JobPlan{}
	}
	p.plans[domain] = plan
}

func (p *jobPlans) get(req fakeapi.StartRequest) fakeapi.JobPlan {
	p.mu.Lock()
	defer p.mu.Unlock()
	if plan, ok := p.plans[req.Domain]; ok {
		return plan
	}
	return fakeapi.JobPlan{RunFor: time.Second}
}

// jobStats is one export as the fake saw it.
type jobStats struct {
	domain    string
	created   time.Time
	completed time.Time // first answer that showed it completed
	requests  int       // status requests
	changes   int       // status answers that differed from the one before
}

// jobAnswer is what the benchmark reads from a request and its answer.
type jobAnswer struct {
	Domain    string  `json:"domain"` // of a start request
	JobID     string  `json:"jobId"`
	Status    string  `json:"status"`
	Progress  float64 `json:"progress"`
	PageCount int     `json:"pageCount"`
}

// statsByJob gathers the fake's recorded requests per job id.
func statsByJob(reqs []fakeapi.Request) map[string]*jobStats {
	stats := map[string]*jobStats{}
	last := map[string]jobAnswer{}
	for _, r := range reqs {
		var sent, got jobAnswer
		_ = json.Unmarshal(r.Body, &sent)
		_ = json.Unmarshal(r.Response, &got)
		if got.JobID == "" {
			continue
		}
		s := stats[got.JobID]
		if s == nil {
			s = &jobStats{}
			stats[got.JobID] = s
		}
		switch {
		case r.Method == http.MethodPost && !strings.HasSuffix(r.Path, "/bundle"):
			s.created, s.domain = r.At, sent.Domain
		case r.Method == http.MethodGet:
			s.requests++
			if prev, seen := last[got.JobID]; !seen || prev != got {
				s.changes++
			}
			last[got.JobID] = got
			if got.Status == mintlify.StatusCompleted && s.completed.IsZero() {
				s.completed = r.At
			}
		}
	}
	return stats
}

// terraform runs the CLI with the workspace's CLI configuration and env.
func (b *bench) terraform(env ...string) devprovider.Runner { return b.ws.Runner(b.cli.Path, env...) }

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

// Single exports: how many of each length the provider applies, and how
// many twins the fixed loop polls, at phases spread over its interval.
const (
	providerJobs = 5
	loopTwins    = 10
)

// singleLengths are the lengths of the single exports, queue included.
var singleLengths = []time.Duration{20 * time.Second, 90 * time.Second}

// singleExports applies five 20 s and five 90 s exports in one apply, while
// a fixed 10 s loop polls ten twins of each. A real job's length is no
// multiple of 10 s, so the twins start polling at phases spread over the
// loop's interval (0.5 s to 9.5 s after the job starts); the loop's
// latency then averages half its interval, as it does in the field.
func (b *bench) singleExports(ctx context.Context) (*part, error) {
	const queue = 2 * time.Second
	plans := &jobPlans{}
	config := providerBlock
	for _, l := range singleLengths {
		plan := fakeapi.JobPlan{QueueFor: queue, RunFor: l - queue, Pages: 240}
		for i := range providerJobs {
			plans.set(domainFor(fmt.Sprint("tf", i), l), plan)
			config += bundleBlock(fmt.Sprintf("job_%s_%d", benchreport.ShortDuration(l), i), domainFor(fmt.Sprint("tf", i), l))
		}
		for i := range loopTwins {
			plans.set(domainFor(fmt.Sprint("loop", i), l), plan)
		}
	}
	fake, err := devprovider.StartFake(fakeapi.WithJobPlan(plans.get))
	if err != nil {
		return nil, err
	}
	defer func() { _ = fake.Close() }()
	dir, err := b.workdir("single", config)
	if err != nil {
		return nil, err
	}
	twins, err := pollTwins(ctx, fake.URL)
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(b.ws.Dir, "single-apply.log")
	applyErr := b.terraform(append(fake.Env(), "TF_LOG_PROVIDER=INFO", "TF_LOG_PATH="+logPath)...).Run(ctx, dir,
		"apply", "-auto-approve", "-input=false", "-no-color")
	if err := errors.Join(applyErr, twins()); err != nil {
		return nil, err
	}
	progressLines, err := countProgressLines(logPath)
	if err != nil {
		return nil, err
	}
	return reportSingle(statsByJob(fake.Requests()), progressLines)
}

// pollTwins starts the loop's twin exports and polls each one, from its
// phase, with the client and the vendor's fixed 10-second interval. The
// function it returns waits for them all.
func pollTwins(ctx context.Context, url string) (func() error, error) {
	loop, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(url),
		mintlify.WithPollPolicy(poll.Exponential{Initial: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1}))
	if err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	errs := make([]error, len(singleLengths)*loopTwins)
	for li, l := range singleLengths {
		for i := range loopTwins {
			wg.Go(func() {
				job, err := loop.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: domainFor(fmt.Sprint("loop", i), l)})
				if err == nil {
					err = waitFromPhase(ctx, loop, job.JobID, time.Duration(i)*time.Second+500*time.Millisecond)
				}
				errs[li*loopTwins+i] = err
			})
		}
	}
	return func() error { wg.Wait(); return errors.Join(errs...) }, nil
}

// waitFromPhase waits phase, then for the job.
func waitFromPhase(ctx context.Context, c *mintlify.Client, jobID string, phase time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(phase):
	}
	_, err := c.WaitForStaticExport(ctx, jobID)
	return err
}

// lateness is how late a group of jobs was noticed complete, and what it
// cost.
type lateness struct {
	mean, worst time.Duration
	requests    float64 // status requests per job
	lines       int     // progress log lines
	changes     int     // status answers that changed something
}

// summarize averages the n jobs of one prefix and length.
func summarize(stats map[string]*jobStats, progressLines map[string]int, prefix string, n int, l time.Duration) (lateness, error) {
	var r lateness
	for id, s := range stats {
		if !isOneOf(s.domain, prefix, n, l) {
			continue
		}
		if s.completed.IsZero() {
			return r, fmt.Errorf("job %s never showed completed", id)
		}
		late := s.completed.Sub(s.created.Add(l))
		r.mean += late / time.Duration(n)
		r.worst = max(r.worst, late)
		r.requests += float64(s.requests) / float64(n)
		r.lines += progressLines[id]
		r.changes += s.changes
	}
	return r, nil
}

// reportSingle reports the single exports: the provider's jobs beside the
// loop's twins, and the progress log lines.
func reportSingle(stats map[string]*jobStats, progressLines map[string]int) (*part, error) {
	p := &part{}
	p.printf("\nSingle exports: %d of each length in one terraform apply; a fixed 10 s loop polls %d twins of each.\n",
		providerJobs, loopTwins)
	p.printf("  %-6s  %-40s  %-40s\n", "job", "provider: late by mean (max), requests", "fixed 10 s loop: late by mean (max), requests")
	var logCheck []string
	for _, l := range singleLengths {
		tf, err := summarize(stats, progressLines, "tf", providerJobs, l)
		if err != nil {
			return p, err
		}
		lp, err := summarize(stats, progressLines, "loop", loopTwins, l)
		if err != nil {
			return p, err
		}
		name := benchreport.ShortDuration(l)
		p.printf("  %-6s  %-40s  %-40s\n", name,
			fmt.Sprintf("%.2f s (%.2f s), %.1f", tf.mean.Seconds(), tf.worst.Seconds(), tf.requests),
			fmt.Sprintf("%.2f s (%.2f s), %.1f", lp.mean.Seconds(), lp.worst.Seconds(), lp.requests))
		logCheck = append(logCheck, fmt.Sprintf("%d lines for the %d answers that changed something (%s jobs)", tf.lines, tf.changes, name))
		p.check(tf.mean < maxNoticeMean && tf.mean < lp.mean,
			"%s exports noticed complete within %s on average, sooner than the fixed 10 s loop: %.2f s (the loop: %.2f s)",
			name, maxNoticeMean, tf.mean.Seconds(), lp.mean.Seconds())
		p.check(tf.lines == tf.changes, "TF_LOG=INFO shows one progress line per status answer that changed something (%s jobs): %d lines, %d answers",
			name, tf.lines, tf.changes)
	}
	p.printf("  \"Static export progress\" at TF_LOG=INFO: %s\n", strings.Join(logCheck, "; "))
	return p, nil
}

// isOneOf reports whether domain is that of one of the n jobs of prefix and
// length l.
func isOneOf(domain, prefix string, n int, l time.Duration) bool {
	for i := range n {
		if domain == domainFor(fmt.Sprint(prefix, i), l) {
			return true
		}
	}
	return false
}

func domainFor(prefix string, l time.Duration) string {
	return fmt.Sprintf("%s-%s.example.com", prefix, benchreport.ShortDuration(l))
}

// countProgressLines counts the provider's "Static export progress" log
// lines per job id.
func countProgressLines(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "Static export progress") {
			continue
		}
		if _, rest, ok := strings.Cut(line, "job_id="); ok {
			id, _, _ := strings.Cut(rest, " ")
			counts[strings.Trim(id, `"`)]++
		}
	}
	return counts, sc.Err()
}

// parallelExports applies 50 exports of two to three minutes at once
// (-parallelism=50) against an API that allows 5 requests a second.
func (b *bench) parallelExports(ctx context.Context) (*part, error) {
	const n, queue = 50, 2 * time.Second
	plans := &jobPlans{}
	longest := time.Duration(0)
	config := providerBlock
	for i := range n {
		// From 2 to 3 minutes, queue included.
		total := 2*time.Minute + time.Duration(i)*time.Minute/(n-1)
		domain := fmt.Sprintf("p%02d.example.com", i)
		plans.set(domain, fakeapi.JobPlan{QueueFor: queue, RunFor: total - queue})
		longest = max(longest, total)
		config += bundleBlock(fmt.Sprintf("p%02d", i), domain)
	}
	fake, err := devprovider.StartFake(fakeapi.WithJobPlan(plans.get), fakeapi.WithRateLimit(5))
	if err != nil {
		return nil, err
	}
	defer func() { _ = fake.Close() }()
	dir, err := b.workdir("parallel", config)
	if err != nil {
		return nil, err
	}

	began := time.Now()
	applyErr := b.terraform(fake.Env()...).Run(ctx, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=50")
	took := time.Since(began)
	if applyErr != nil {
		return nil, applyErr
	}
	reqs := fake.Requests()
	status := 0
	for _, s := range statsByJob(reqs) {
		status += s.requests
	}
	ratio := took.Seconds() / longest.Seconds()
	p := &part{}
	p.printf("\n%d exports in one apply (-parallelism=50), API limited to 5 requests/s, jobs of 2 to 3 minutes:\n", n)
	p.printf("  exports completed with a bundle link: %d of %d\n", fake.BundlesGenerated(), n)
	p.printf("  apply time / longest job: %.2f\n", ratio)
	p.printf("  status requests per export: %.1f; all API requests %d, of which %d refused with 429 and retried\n",
		float64(status)/float64(n), len(reqs), fake.RateLimited())
	p.check(fake.BundlesGenerated() == n, "every export of a 50-bundle apply under 5 requests/s completes with a link: %d of %d",
		fake.BundlesGenerated(), n)
	p.check(ratio <= maxParallelRatio, "that apply takes at most %.2f times its longest job: %.2f", maxParallelRatio, ratio)
	return p, nil
}

// planTimes are the timed plans of planCost.
type planTimes struct {
	bundles, data, noRefresh, logged []time.Duration
	peak                             int64          // the provider's VmHWM, bytes
	perPlan                          map[string]int // API requests by route, over all runs
}

// planCost times `terraform plan` of 100 bundles against the same plan of
// 100 terraform_data resources, and samples the provider's peak memory.
func (b *bench) planCost(ctx context.Context, runs int) (*part, error) {
	const n = 100
	fake, err := devprovider.StartFake(fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Second}
	}))
	if err != nil {
		return nil, err
	}
	defer func() { _ = fake.Close() }()

	bundles, err := b.workdir("plan-bundles", providerBlock+fmt.Sprintf(`
resource "mintlify_static_export_bundle" "docs" {
  count  = %d
  domain = "docs${count.index}.example.com"
}
`, n))
	if err != nil {
		return nil, err
	}
	data, err := b.workdir("plan-terraform-data", fmt.Sprintf(`
resource "terraform_data" "docs" {
  count = %d
  input = "docs${count.index}.example.com"
}
`, n))
	if err != nil {
		return nil, err
	}
	for _, dir := range []string{bundles, data} {
		if err := b.terraform(fake.Env()...).Run(ctx, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=100"); err != nil {
			return nil, err
		}
	}
	times := &planTimes{perPlan: map[string]int{}}
	for i := range runs {
		if err := b.timePlans(ctx, fake, bundles, data, i, times); err != nil {
			return nil, err
		}
	}
	return reportPlans(n, runs, times), nil
}

var planArgs = []string{"plan", "-input=false", "-no-color", "-detailed-exitcode"}

// timePlans runs one round: the bundles' plan and the terraform_data plan,
// alternating so that drift in the machine's speed hits both alike, then
// the bundles' plan without refresh (no API request at all) and with the
// provider's logs on, which Terraform discards.
func (b *bench) timePlans(ctx context.Context, fake *devprovider.Fake, bundles, data string, run int, times *planTimes) error {
	for _, dir := range []string{bundles, data} {
		fake.Reset()
		cmd := b.terraform(fake.Env()...).Command(ctx, dir, planArgs...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		sampler := devprovider.SampleMemory(b.ws.Binary)
		began := time.Now()
		err := cmd.Run()
		took := time.Since(began)
		hwm := sampler.Stop()
		if err != nil {
			return fmt.Errorf("terraform plan in %s (run %d): %v\n%s", filepath.Base(dir), run+1, err, devprovider.Tail(out.Bytes(), 30))
		}
		if dir == data {
			times.data = append(times.data, took)
			continue
		}
		times.bundles = append(times.bundles, took)
		times.peak = max(times.peak, hwm)
		for _, req := range fake.Requests() {
			times.perPlan[req.Method+" "+routeOf(req.Path)]++
		}
	}
	for _, variant := range []struct {
		times *[]time.Duration
		env   []string
		args  []string
	}{
		{&times.noRefresh, fake.Env(), append(slices.Clone(planArgs), "-refresh=false")},
		{&times.logged, append(fake.Env(), "TF_LOG_SDK=TRACE"), planArgs},
	} {
		began := time.Now()
		if err := b.terraform(variant.env...).Run(ctx, bundles, variant.args...); err != nil {
			return err
		}
		*variant.times = append(*variant.times, time.Since(began))
	}
	return nil
}

// reportPlans reports the plan times as ratios to the terraform_data plan.
func reportPlans(n, runs int, t *planTimes) *part {
	median, data := benchreport.Median, benchreport.Median(t.data).Seconds()
	ratio := median(t.bundles).Seconds() / data
	p := &part{}
	p.printf("\nterraform plan of %d resources, median of %d runs each, nothing to change:\n", n, runs)
	p.printf("  %d bundles / %d terraform_data: %.2f (a plugin's start-up and gRPC calls, which terraform_data, built in, never pays: see docs/design/polling.md)\n", n, n, ratio)
	p.printf("  the same bundles plan with -refresh=false (no API request at all) / terraform_data: %.2f\n",
		median(t.noRefresh).Seconds()/data)
	p.printf("  the same bundles plan with the provider's logs on (TF_LOG_SDK=TRACE; Terraform still discards them) / terraform_data: %.2f\n",
		median(t.logged).Seconds()/data)
	p.printf("  refresh's share of the bundles plan (1 - no-refresh/refresh): %.0f %%\n",
		100*(1-median(t.noRefresh).Seconds()/median(t.bundles).Seconds()))
	var calls []string
	statusCalls := 0
	for route, count := range t.perPlan {
		calls = append(calls, fmt.Sprintf("%s: %.0f", route, float64(count)/float64(runs)))
		if route == "GET /v1/static-export/jobs/{jobId}" {
			statusCalls = count / runs
		}
	}
	slices.Sort(calls)
	p.printf("  API requests per plan: %s\n", strings.Join(calls, ", "))
	p.check(len(t.perPlan) == 1 && statusCalls == n, "a %d-bundle plan makes exactly one status request per bundle and no other: %s",
		n, strings.Join(calls, ", "))
	if t.peak > 0 {
		p.printf("  provider peak memory (VmHWM): %.1f MiB\n", float64(t.peak)/(1<<20))
		p.check(t.peak < benchreport.MaxProviderPeakRSS, "the provider stays under %d MiB during that plan: %.1f MiB",
			benchreport.MaxProviderPeakRSS>>20, float64(t.peak)/(1<<20))
	} else {
		p.printf("  provider peak memory: not measured (no /proc, or the plugin was not seen)\n")
	}
	return p
}

// routeOf names a request path by its route: job ids become {id}.
func routeOf(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) >= 5 && parts[1] == "v1" && parts[3] == "jobs" {
		parts[4] = "{jobId}"
	}
	return strings.Join(parts, "/")
}
