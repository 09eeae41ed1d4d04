// Command benche2e is the end-to-end benchmark behind `make bench-e2e`. It
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
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

func main() {
	planRuns := flag.Int("plan-runs", 7, "timed runs of each plan")
	skip := flag.String("skip", "", "comma-separated parts to skip: single, parallel, plan")
	flag.Parse()
	if err := run(*planRuns, *skip); err != nil {
		fmt.Fprintln(os.Stderr, "bench-e2e failed:", err)
		os.Exit(1)
	}
}

// bench holds what every part shares.
type bench struct {
	terraform string
	tmp       string
	binary    string // the provider binary, as terraform runs it
	cliConfig string
	out       io.Writer
}

func run(planRuns int, skip string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	terraform, err := exec.LookPath("terraform")
	if err != nil {
		return errors.New("the Terraform CLI is not on PATH; install it (nothing is downloaded)")
	}
	tmp, err := os.MkdirTemp("", "mintlify-bench-e2e-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	b := &bench{terraform: terraform, tmp: tmp, out: os.Stdout}

	fmt.Fprintln(b.out, "Building the provider...")
	inst, err := devprovider.Install(ctx, ".", tmp, b.out)
	if err != nil {
		return err
	}
	b.binary, b.cliConfig = inst.Binary, inst.CLIConfig
	version, _ := exec.CommandContext(ctx, terraform, "version").Output()
	fmt.Fprintf(b.out, "%s, provider built from this tree, fake API on loopback in real time.\n",
		strings.SplitN(string(version), "\n", 2)[0])

	skipped := func(part string) bool { return slices.Contains(strings.Split(skip, ","), part) }

	// The single exports and the parallel apply run side by side: both
	// mostly wait, and together they take as long as the longest job.
	var single, parallel string
	var singleErr, parallelErr error
	var wg sync.WaitGroup
	if !skipped("single") {
		wg.Go(func() { single, singleErr = b.singleExports(ctx) })
	}
	if !skipped("parallel") {
		wg.Go(func() { parallel, parallelErr = b.parallelExports(ctx) })
	}
	wg.Wait()
	fmt.Fprint(b.out, single, parallel)
	if err := errors.Join(singleErr, parallelErr); err != nil {
		return err
	}
	if !skipped("plan") {
		report, err := b.planCost(ctx, planRuns)
		fmt.Fprint(b.out, report)
		if err != nil {
			return err
		}
	}
	return nil
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

// exchange is one answered API request, as the recorder saw it.
type exchange struct {
	at       time.Time
	domain   string // of a start request
	method   string
	path     string
	code     int
	jobID    string
	status   string
	progress float64
	pages    int
}

// recorder serves the fake and remembers every exchange, with the job
// fields of its answer.
type recorder struct {
	h  http.Handler
	mu sync.Mutex
	ex []exchange
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var start struct {
		Domain string `json:"domain"`
	}
	if req.Method == http.MethodPost && req.Body != nil {
		raw, _ := io.ReadAll(req.Body)
		_ = json.Unmarshal(raw, &start)
		req.Body = io.NopCloser(bytes.NewReader(raw))
	}
	rw := &capture{ResponseWriter: w}
	r.h.ServeHTTP(rw, req)
	var body struct {
		JobID     string  `json:"jobId"`
		Status    string  `json:"status"`
		Progress  float64 `json:"progress"`
		PageCount int     `json:"pageCount"`
	}
	_ = json.Unmarshal(rw.body.Bytes(), &body)
	r.mu.Lock()
	r.ex = append(r.ex, exchange{at: time.Now(), domain: start.Domain, method: req.Method, path: req.URL.Path, code: rw.code,
		jobID: body.JobID, status: body.Status, progress: body.Progress, pages: body.PageCount})
	r.mu.Unlock()
}

func (r *recorder) exchanges() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ex)
}

// capture keeps a copy of the answer's status and body.
type capture struct {
	http.ResponseWriter
	code int
	body bytes.Buffer
}

func (c *capture) WriteHeader(code int) {
	if c.code == 0 {
		c.code = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *capture) Write(p []byte) (int, error) {
	if c.code == 0 {
		c.code = http.StatusOK
	}
	c.body.Write(p)
	return c.ResponseWriter.Write(p)
}

func (c *capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// serve starts h on a loopback port; stop closes it.
func serve(h http.Handler) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// jobStats is one export as the fake saw it.
type jobStats struct {
	domain    string
	created   time.Time
	completed time.Time // first answer that showed it completed
	requests  int       // status requests
	changes   int       // status answers that differed from the one before
}

// statsByJob gathers the exchanges per job id.
func statsByJob(ex []exchange) map[string]*jobStats {
	stats := map[string]*jobStats{}
	last := map[string]exchange{}
	for _, e := range ex {
		if e.jobID == "" {
			continue
		}
		s := stats[e.jobID]
		if s == nil {
			s = &jobStats{}
			stats[e.jobID] = s
		}
		switch {
		case e.method == http.MethodPost && !strings.HasSuffix(e.path, "/bundle"):
			s.created, s.domain = e.at, e.domain
		case e.method == http.MethodGet:
			s.requests++
			prev, seen := last[e.jobID]
			if !seen || prev.status != e.status || prev.progress != e.progress || prev.pages != e.pages {
				s.changes++
			}
			last[e.jobID] = e
			if e.status == mintlify.StatusCompleted && s.completed.IsZero() {
				s.completed = e.at
			}
		}
	}
	return stats
}

// terraformCmd returns the CLI command args, run in dir with the bench's CLI
// configuration and env.
func (b *bench) terraformCmd(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, b.terraform, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{
		"TF_CLI_CONFIG_FILE=" + b.cliConfig,
		"TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1",
	}, env...)...)
	return cmd
}

// runTerraform runs one CLI command and returns its output's tail on error.
func (b *bench) runTerraform(ctx context.Context, dir string, env []string, args ...string) error {
	out, err := b.terraformCmd(ctx, dir, env, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("terraform %s in %s: %v\n%s", args[0], filepath.Base(dir), err, tail(out, 40))
	}
	return nil
}

func tail(out []byte, lines int) string {
	all := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(all[max(len(all)-lines, 0):], "\n")
}

func (b *bench) workdir(name, config string) (string, error) {
	dir := filepath.Join(b.tmp, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600)
}

func apiEnv(url string) []string {
	return []string{"MINTLIFY_API_KEY=" + fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL=" + url, "MINTLIFY_PROJECT_ID=proj_bench"}
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

// singleExports applies five 20 s and five 90 s exports in one apply, while
// a fixed 10 s loop polls ten twins of each. A real job's length is no
// multiple of 10 s, so the twins start polling at phases spread over the
// loop's interval (0.5 s to 9.5 s after the job starts); the loop's
// latency then averages half its interval, as it does in the field.
func (b *bench) singleExports(ctx context.Context) (string, error) {
	lengths := []time.Duration{20 * time.Second, 90 * time.Second}
	const queue = 2 * time.Second
	plans := &jobPlans{}
	config := providerBlock
	for _, l := range lengths {
		plan := fakeapi.JobPlan{QueueFor: queue, RunFor: l - queue, Pages: 240}
		for i := range providerJobs {
			plans.set(domainFor(fmt.Sprint("tf", i), l), plan)
			config += bundleBlock(fmt.Sprintf("job_%s_%d", shortDuration(l), i), domainFor(fmt.Sprint("tf", i), l))
		}
		for i := range loopTwins {
			plans.set(domainFor(fmt.Sprint("loop", i), l), plan)
		}
	}
	rec := &recorder{h: fakeapi.New(fakeapi.WithJobPlan(plans.get))}
	url, stop, err := serve(rec)
	if err != nil {
		return "", err
	}
	defer stop()
	dir, err := b.workdir("single", config)
	if err != nil {
		return "", err
	}

	// The loop: the same client, the vendor's fixed 10-second interval.
	loop, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(url),
		mintlify.WithPollPolicy(mintlify.ExponentialPolicy{Initial: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1}))
	if err != nil {
		return "", err
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var loopErrs []error
	for _, l := range lengths {
		for i := range loopTwins {
			wg.Go(func() {
				job, err := loop.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: domainFor(fmt.Sprint("loop", i), l)})
				if err == nil {
					phase := time.Duration(i)*time.Second + 500*time.Millisecond
					select {
					case <-ctx.Done():
						err = ctx.Err()
					case <-time.After(phase):
						_, err = loop.WaitForStaticExport(ctx, job.JobID, nil)
					}
				}
				mu.Lock()
				loopErrs = append(loopErrs, err)
				mu.Unlock()
			})
		}
	}

	logPath := filepath.Join(b.tmp, "single-apply.log")
	applyErr := b.runTerraform(ctx, dir, append(apiEnv(url), "TF_LOG_PROVIDER=INFO", "TF_LOG_PATH="+logPath),
		"apply", "-auto-approve", "-input=false", "-no-color")
	wg.Wait()
	if err := errors.Join(append([]error{applyErr}, loopErrs...)...); err != nil {
		return "", err
	}

	stats := statsByJob(rec.exchanges())
	progressLines, err := countProgressLines(logPath)
	if err != nil {
		return "", err
	}
	// summarize averages the jobs of one prefix and length.
	summarize := func(prefix string, n int, l time.Duration) (mean, worst time.Duration, requests float64, lines, changes int, err error) {
		for id, s := range stats {
			for i := range n {
				if s.domain != domainFor(fmt.Sprint(prefix, i), l) {
					continue
				}
				if s.completed.IsZero() {
					return 0, 0, 0, 0, 0, fmt.Errorf("job %s never showed completed", id)
				}
				late := s.completed.Sub(s.created.Add(l))
				mean += late / time.Duration(n)
				worst = max(worst, late)
				requests += float64(s.requests) / float64(n)
				lines += progressLines[id]
				changes += s.changes
			}
		}
		return mean, worst, requests, lines, changes, nil
	}

	var r strings.Builder
	fmt.Fprintf(&r, "\nSingle exports: %d of each length in one terraform apply; a fixed 10 s loop polls %d twins of each.\n",
		providerJobs, loopTwins)
	fmt.Fprintf(&r, "  %-6s  %-40s  %-40s\n", "job", "provider: late by mean (max), requests", "fixed 10 s loop: late by mean (max), requests")
	var logCheck []string
	for _, l := range lengths {
		tfMean, tfWorst, tfReq, lines, changes, err := summarize("tf", providerJobs, l)
		if err != nil {
			return r.String(), err
		}
		lpMean, lpWorst, lpReq, _, _, err := summarize("loop", loopTwins, l)
		if err != nil {
			return r.String(), err
		}
		fmt.Fprintf(&r, "  %-6s  %-40s  %-40s\n", shortDuration(l),
			fmt.Sprintf("%.2f s (%.2f s), %.1f", tfMean.Seconds(), tfWorst.Seconds(), tfReq),
			fmt.Sprintf("%.2f s (%.2f s), %.1f", lpMean.Seconds(), lpWorst.Seconds(), lpReq))
		logCheck = append(logCheck, fmt.Sprintf("%d lines for the %d answers that changed something (%s jobs)", lines, changes, shortDuration(l)))
	}
	fmt.Fprintf(&r, "  \"Static export progress\" at TF_LOG=INFO: %s\n", strings.Join(logCheck, "; "))
	return r.String(), nil
}

func domainFor(prefix string, l time.Duration) string {
	return fmt.Sprintf("%s-%s.example.com", prefix, shortDuration(l))
}

func shortDuration(d time.Duration) string {
	if d%time.Minute == 0 {
		return strconv.Itoa(int(d.Minutes())) + "m"
	}
	return strconv.Itoa(int(d.Seconds())) + "s"
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
func (b *bench) parallelExports(ctx context.Context) (string, error) {
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
	fake := fakeapi.New(fakeapi.WithJobPlan(plans.get), fakeapi.WithRateLimit(5))
	rec := &recorder{h: fake}
	url, stop, err := serve(rec)
	if err != nil {
		return "", err
	}
	defer stop()
	dir, err := b.workdir("parallel", config)
	if err != nil {
		return "", err
	}

	began := time.Now()
	applyErr := b.runTerraform(ctx, dir, apiEnv(url), "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=50")
	took := time.Since(began)
	if applyErr != nil {
		return "", applyErr
	}
	stats := statsByJob(rec.exchanges())
	status := 0
	for _, s := range stats {
		status += s.requests
	}
	var r strings.Builder
	fmt.Fprintf(&r, "\n%d exports in one apply (-parallelism=50), API limited to 5 requests/s, jobs of 2 to 3 minutes:\n", n)
	fmt.Fprintf(&r, "  exports completed with a bundle link: %d of %d\n", fake.BundlesGenerated(), n)
	fmt.Fprintf(&r, "  apply time / longest job: %.2f (target at most 1.20)\n", took.Seconds()/longest.Seconds())
	fmt.Fprintf(&r, "  status requests per export: %.1f; all API requests %d, of which %d refused with 429 and retried\n",
		float64(status)/float64(n), len(rec.exchanges()), fake.RateLimited())
	if fake.BundlesGenerated() != n {
		return r.String(), fmt.Errorf("%d of %d exports got a bundle link", fake.BundlesGenerated(), n)
	}
	return r.String(), nil
}

// planCost times `terraform plan` of 100 bundles against the same plan of
// 100 terraform_data resources, and samples the provider's peak memory.
func (b *bench) planCost(ctx context.Context, runs int) (string, error) {
	const n = 100
	fake := fakeapi.New(fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Second}
	}))
	url, stop, err := serve(fake)
	if err != nil {
		return "", err
	}
	defer stop()

	bundles, err := b.workdir("plan-bundles", providerBlock+fmt.Sprintf(`
resource "mintlify_static_export_bundle" "docs" {
  count  = %d
  domain = "docs${count.index}.example.com"
}
`, n))
	if err != nil {
		return "", err
	}
	data, err := b.workdir("plan-terraform-data", fmt.Sprintf(`
resource "terraform_data" "docs" {
  count = %d
  input = "docs${count.index}.example.com"
}
`, n))
	if err != nil {
		return "", err
	}
	env := apiEnv(url)
	for _, dir := range []string{bundles, data} {
		if err := b.runTerraform(ctx, dir, env, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=100"); err != nil {
			return "", err
		}
	}

	planArgs := []string{"plan", "-input=false", "-no-color", "-detailed-exitcode"}
	var bundleTimes, dataTimes, noRefreshTimes, loggedTimes []time.Duration
	var peak int64
	perPlan := map[string]int{}
	for i := range runs {
		// Alternate, so that drift in the machine's speed hits both alike.
		for _, dir := range []string{bundles, data} {
			fake.Reset()
			cmd := b.terraformCmd(ctx, dir, env, planArgs...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			sampler := newMemorySampler(b.binary)
			began := time.Now()
			err := cmd.Run()
			took := time.Since(began)
			hwm := sampler.stop()
			if err != nil {
				return "", fmt.Errorf("terraform plan in %s (run %d): %v\n%s", filepath.Base(dir), i+1, err, tail(out.Bytes(), 30))
			}
			if dir == bundles {
				bundleTimes = append(bundleTimes, took)
				peak = max(peak, hwm)
				for _, req := range fake.Requests() {
					perPlan[req.Method+" "+routeOf(req.Path)]++
				}
			} else {
				dataTimes = append(dataTimes, took)
			}
		}
		// The same bundles plan without refresh (no API request at all),
		// and with the provider's logs on, which Terraform discards (see the report).
		for _, variant := range []struct {
			times *[]time.Duration
			env   []string
			args  []string
		}{
			{&noRefreshTimes, env, append(slices.Clone(planArgs), "-refresh=false")},
			{&loggedTimes, append(slices.Clone(env), "TF_LOG_SDK=TRACE"), planArgs},
		} {
			began := time.Now()
			if err := b.runTerraform(ctx, bundles, variant.env, variant.args...); err != nil {
				return "", err
			}
			*variant.times = append(*variant.times, time.Since(began))
		}
	}
	ratio := median(bundleTimes).Seconds() / median(dataTimes).Seconds()

	var r strings.Builder
	fmt.Fprintf(&r, "\nterraform plan of %d resources, median of %d runs each, nothing to change:\n", n, runs)
	fmt.Fprintf(&r, "  %d bundles / %d terraform_data: %.2f (target at most 1.50)\n", n, n, ratio)
	fmt.Fprintf(&r, "  the same bundles plan with -refresh=false (no API request at all) / terraform_data: %.2f\n",
		median(noRefreshTimes).Seconds()/median(dataTimes).Seconds())
	fmt.Fprintf(&r, "  the same bundles plan with the provider's logs on (TF_LOG_SDK=TRACE; Terraform still discards them) / terraform_data: %.2f\n",
		median(loggedTimes).Seconds()/median(dataTimes).Seconds())
	fmt.Fprintf(&r, "  refresh's share of the bundles plan (1 - no-refresh/refresh): %.0f %%\n",
		100*(1-median(noRefreshTimes).Seconds()/median(bundleTimes).Seconds()))
	var calls []string
	for route, count := range perPlan {
		calls = append(calls, fmt.Sprintf("%s: %.0f", route, float64(count)/float64(runs)))
	}
	slices.Sort(calls)
	fmt.Fprintf(&r, "  API requests per plan: %s\n", strings.Join(calls, ", "))
	if peak > 0 {
		fmt.Fprintf(&r, "  provider peak memory (VmHWM): %.1f MiB (target under 64 MiB)\n", float64(peak)/(1<<20))
	} else {
		fmt.Fprintf(&r, "  provider peak memory: not measured (no /proc, or the plugin was not seen)\n")
	}
	return r.String(), nil
}

// routeOf names a request path by its route: job ids become {id}.
func routeOf(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) >= 5 && parts[1] == "v1" && parts[3] == "jobs" {
		parts[4] = "{jobId}"
	}
	return strings.Join(parts, "/")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// memorySampler watches /proc for processes running the provider binary and
// keeps the highest VmHWM (peak resident set) any of them reported. VmHWM
// only grows, so reading it every few milliseconds until the process exits
// misses at most what it allocated in its last few milliseconds. New
// processes are looked for every 20 ms; known ones are read every 5 ms.
type memorySampler struct {
	binary string
	done   chan struct{}
	result chan int64
}

func newMemorySampler(binary string) *memorySampler {
	m := &memorySampler{binary: binary, done: make(chan struct{}), result: make(chan int64, 1)}
	go m.loop()
	return m
}

func (m *memorySampler) stop() int64 {
	close(m.done)
	return <-m.result
}

func (m *memorySampler) loop() {
	var peak int64
	pids := map[string]bool{}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		if i%4 == 0 {
			m.findPIDs(pids)
		}
		for pid := range pids {
			if hwm, ok := vmHWM(pid); ok {
				peak = max(peak, hwm)
			} else {
				delete(pids, pid)
			}
		}
		select {
		case <-m.done:
			m.result <- peak
			return
		case <-tick.C:
		}
	}
}

// findPIDs adds the ids of processes running the binary.
func (m *memorySampler) findPIDs(pids map[string]bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil || pids[e.Name()] {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == m.binary {
			pids[e.Name()] = true
		}
	}
}

// vmHWM reads a process's peak resident set, in bytes.
func vmHWM(pid string) (int64, bool) {
	status, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}
