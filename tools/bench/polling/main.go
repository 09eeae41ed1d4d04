// Command polling is the simulation behind `make bench`: it runs thousands
// of synthetic static export jobs through the real poller
// (mintlify.Client.WaitForStaticExport) against the in-repo fake API, in
// virtual time, and prints how soon each policy noticed completion and how
// many status requests it spent: the default AdaptivePolicy beside a fixed
// 10-second loop, the vendor's documented automation.
//
// Every job gets its own fake API, virtual clock and client, so the jobs run
// in parallel while each one's time stays its own: a 30-minute export takes
// milliseconds, with every timestamp consistent. The requests go over real
// loopback HTTP by default; -transport=memory serves them through an
// in-memory http.RoundTripper instead, which profiles the policy without the
// network stack and prints the same table.
//
// It ends with a verdict on the polling targets and exits with status 1 when
// one is missed, so that a change that breaks a target fails `make bench`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// start is the virtual moment every job is created at.
var start = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// curve is one family of synthetic jobs.
type curve struct {
	name string
	// advancing curves are held to the request budget.
	advancing bool
	// plan returns the job plan for a nominal run length, drawing from rng.
	plan func(length time.Duration, rng *rand.Rand) fakeapi.JobPlan
}

// Stall fractions of the stalled curve: flat from 30 % to 60 % of the run.
const stallFrom, stallTo = 0.3, 0.6

// curves are the progress shapes the policy is measured on. Every job queues
// for 0.5 to 3 s and runs for its nominal length ±10 %, except the
// long-queued ones, which first wait half to all of their run length.
var curves = []curve{
	{"linear", true, planWith(nil)},
	{"front-loaded", true, planWith(fakeapi.FrontLoaded)},
	{"back-loaded", true, planWith(fakeapi.BackLoaded)},
	{"stalled", false, planWith(fakeapi.Stall(stallFrom, stallTo))},
	{"long-queued", false, func(length time.Duration, rng *rand.Rand) fakeapi.JobPlan {
		p := planWith(nil)(length, rng)
		p.QueueFor = time.Duration(float64(p.RunFor) * (0.5 + 0.5*rng.Float64()))
		return p
	}},
}

func planWith(c func(float64) float64) func(time.Duration, *rand.Rand) fakeapi.JobPlan {
	return func(length time.Duration, rng *rand.Rand) fakeapi.JobPlan {
		return fakeapi.JobPlan{
			QueueFor: time.Duration((0.5 + 2.5*rng.Float64()) * float64(time.Second)),
			RunFor:   time.Duration(float64(length) * (0.9 + 0.2*rng.Float64())),
			Curve:    c,
		}
	}
}

var lengths = []time.Duration{5 * time.Second, 20 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute}

// policy is one way of spacing status requests.
type policy struct {
	name string
	// make returns the policy for one job; seed makes its jitter repeatable.
	make func(seed uint64) poll.Policy
	// wait waits for the job start returned, as this side does it.
	wait func(ctx context.Context, c *mintlify.Client, started *mintlify.StaticExportJob) (*mintlify.StaticExportJob, error)
}

var policies = []policy{
	// The provider: its resource takes the start's answer as the first
	// status (queued), so its first request waits for the policy.
	{"adaptive", func(seed uint64) poll.Policy {
		return poll.Adaptive{Rand: rand.New(rand.NewPCG(seed, 0x5eed)).Float64}
	}, func(ctx context.Context, c *mintlify.Client, started *mintlify.StaticExportJob) (*mintlify.StaticExportJob, error) {
		return c.WaitForStaticExport(ctx, started.JobID, mintlify.Started(started))
	}},
	// The vendor's loop: a status request right after the start, then one
	// every 10 s, as a generic waiter (the SDK's StateChangeConf with its
	// default Delay of 0) does.
	{"fixed 10s", func(uint64) poll.Policy {
		return poll.Exponential{Initial: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1}
	}, func(ctx context.Context, c *mintlify.Client, started *mintlify.StaticExportJob) (*mintlify.StaticExportJob, error) {
		return c.WaitForStaticExport(ctx, started.JobID)
	}},
}

// result is what one simulated job measured.
type result struct {
	latency  time.Duration // from completion to the request that saw it
	requests int           // status requests
	minGap   time.Duration // shortest time between two status requests
}

func main() {
	jobs := flag.Int("jobs", 100, "jobs per curve, length and policy")
	seed := flag.Uint64("seed", 1, "seed of the job plans and the jitter")
	markdown := flag.Bool("markdown", false, "print Markdown tables (for docs/)")
	transport := flag.String("transport", "loopback", "loopback (real HTTP) or memory (in-memory RoundTripper)")
	flag.Parse()

	sim, err := newSimulator(*transport)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	defer sim.close()

	began := time.Now()
	table, err := sim.run(*jobs, *seed)
	if err == nil {
		table.stuck, err = sim.runStuck(*jobs/5+1, *seed)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	table.print(os.Stdout, *markdown)
	fmt.Printf("\n%d simulated jobs (%d per curve, length and policy) over %s in %s.\n",
		*jobs*len(curves)*len(lengths)*len(policies), *jobs, *transport, time.Since(began).Round(100*time.Millisecond))
	if v := table.verdict(os.Stdout); v.Failed() {
		fmt.Fprintf(os.Stderr, "bench: %d of the polling targets missed\n", v.Missed())
		os.Exit(1)
	}
}

// simulator serves one fake API per job behind one HTTP handler: requests
// for /j/<n>/... go to job n's fake.
type simulator struct {
	mu     sync.RWMutex
	fakes  map[string]http.Handler
	next   int
	url    string
	client *http.Client
	srv    *httptest.Server
}

func newSimulator(transport string) (*simulator, error) {
	s := &simulator{fakes: map[string]http.Handler{}}
	switch transport {
	case "loopback":
		s.srv = httptest.NewServer(s)
		s.url = s.srv.URL
		tr, ok := http.DefaultTransport.(*http.Transport)
		if !ok {
			return nil, fmt.Errorf("http.DefaultTransport is a %T", http.DefaultTransport)
		}
		tr = tr.Clone()
		tr.MaxIdleConnsPerHost = 4 * runtime.GOMAXPROCS(0)
		s.client = &http.Client{Transport: tr}
	case "memory":
		// Never dialled: the transport serves every request in memory. The
		// client accepts plain http only for a loopback host.
		s.url = "http://localhost"
		s.client = &http.Client{Transport: memoryTransport{s}}
	default:
		return nil, fmt.Errorf("unknown -transport %q: want loopback or memory", transport)
	}
	return s, nil
}

func (s *simulator) close() {
	if s.srv != nil {
		s.srv.Close()
	}
}

func (s *simulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/j/")
	id, _, _ := strings.Cut(rest, "/")
	s.mu.RLock()
	h := s.fakes[id]
	s.mu.RUnlock()
	if !ok || h == nil {
		http.NotFound(w, r)
		return
	}
	http.StripPrefix("/j/"+id, h).ServeHTTP(w, r)
}

// mount serves h under a new prefix and returns its base URL and a function
// that removes it.
func (s *simulator) mount(h http.Handler) (string, func()) {
	s.mu.Lock()
	s.next++
	id := strconv.Itoa(s.next)
	s.fakes[id] = h
	s.mu.Unlock()
	return s.url + "/j/" + id, func() {
		s.mu.Lock()
		delete(s.fakes, id)
		s.mu.Unlock()
	}
}

// memoryTransport serves requests with the simulator's handler, in memory.
type memoryTransport struct{ h http.Handler }

func (t memoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(strings.NewReader(string(body)))
	}
	t.h.ServeHTTP(rec, req)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// job is one simulated export.
type job struct {
	curve  int
	length int
	policy int
	plan   fakeapi.JobPlan
	seed   uint64
}

// watched is one job's own fake API, virtual clock and client.
type watched struct {
	clk     *clock.Fake
	fake    *fakeapi.Server
	client  *mintlify.Client
	unmount func()
}

// watch serves a fake API whose jobs follow plan, on a virtual clock that
// moves as the client sleeps, and returns a client for it with policy.
func (s *simulator) watch(plan fakeapi.JobPlan, policy poll.Policy) (*watched, error) {
	w := &watched{clk: clock.NewFake(start, true)}
	w.fake = fakeapi.New(fakeapi.WithClock(w.clk), fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }))
	base, unmount := s.mount(w.fake)
	w.unmount = unmount
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(base), mintlify.WithHTTPClient(s.client),
		mintlify.WithClock(w.clk), mintlify.WithPollPolicy(policy))
	if err != nil {
		unmount()
		return nil, err
	}
	w.client = c
	return w, nil
}

// pollTimes returns when the status requests so far arrived, on the job's
// virtual clock.
func (w *watched) pollTimes() []time.Time {
	var times []time.Time
	for _, r := range w.fake.Requests() {
		if r.Method == http.MethodGet {
			times = append(times, r.At)
		}
	}
	return times
}

// runJob starts one export on its own fake and virtual clock and waits for
// it with the given policy.
func (s *simulator) runJob(j job) (result, error) {
	w, err := s.watch(j.plan, policies[j.policy].make(j.seed))
	if err != nil {
		return result{}, err
	}
	defer w.unmount()
	clk, c := w.clk, w.client
	ctx, cancel := clk.WithTimeout(context.Background(), 6*time.Hour)
	defer cancel()
	started, err := c.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		return result{}, err
	}
	done, err := policies[j.policy].wait(ctx, c, started)
	if err != nil {
		return result{}, err
	}
	if done.Status != mintlify.StatusCompleted {
		return result{}, fmt.Errorf("job ended %s", done.Status)
	}
	finished := started.CreatedAt.Add(j.plan.QueueFor + j.plan.RunFor)

	polls := w.pollTimes()
	r := result{latency: clk.Now().Sub(finished), requests: len(polls), minGap: math.MaxInt64}
	for i := 1; i < len(polls); i++ {
		r.minGap = min(r.minGap, polls[i].Sub(polls[i-1]))
	}
	return r, nil
}

// run simulates every job and gathers the results by curve, length and
// policy.
func (s *simulator) run(perCell int, seed uint64) (*table, error) {
	rng := rand.New(rand.NewPCG(seed, 0x6a6f6273))
	var all []job
	for ci, c := range curves {
		for li, length := range lengths {
			for range perCell {
				// Both policies wait for the very same job.
				plan, jobSeed := c.plan(length, rng), rng.Uint64()
				for pi := range policies {
					all = append(all, job{curve: ci, length: li, policy: pi, plan: plan, seed: jobSeed})
				}
			}
		}
	}

	t := newTable()
	work := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range work {
				r, err := s.runJob(j)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s job of %s, %s policy: %w", curves[j.curve].name, lengths[j.length], policies[j.policy].name, err)
				}
				t.add(j, r)
				mu.Unlock()
			}
		})
	}
	for _, j := range all {
		work <- j
	}
	close(work)
	wg.Wait()
	return t, firstErr
}

// The polling targets, each checked once, in verdict.
const (
	// maxLatency is how late completion may be noticed, at the median and
	// the 90th percentile, at every curve and length.
	maxLatency = time.Second
	// maxShortExtra is how many status requests more than the fixed loop
	// a job shorter than a minute may cost (every longer job must cost
	// fewer than the loop).
	maxShortExtra = 5.0
	// maxAdvancingRequests is the most status requests one export whose
	// progress advances may cost.
	maxAdvancingRequests = 25
	// minRequestGap is the shortest time between two status requests of
	// one job.
	minRequestGap = time.Second
	// minStuckGap is the shortest time between two status requests of a
	// job a minute after it is seen stuck.
	minStuckGap = 30 * time.Second
)

// stuckWait is how long the stuck-job scenario waits for a job that rises
// to 10 % over its first minute and never moves again.
const stuckWait = 15 * time.Minute

// stuckResult is what the stuck-job scenario measured.
type stuckResult struct {
	jobs     int
	requests float64       // status requests per job, mean
	minGap   time.Duration // shortest gap a minute after it was seen flat
	late     time.Duration // how long after its deadline a wait ended, at worst
}

// runStuck waits, with the adaptive policy, on jobs that get stuck, until a
// deadline: the backoff it reaches and how exactly the wait honours the
// deadline.
func (s *simulator) runStuck(jobs int, seed uint64) (stuckResult, error) {
	res := stuckResult{jobs: jobs, minGap: math.MaxInt64}
	total := 0
	for i := range jobs {
		plan := fakeapi.JobPlan{QueueFor: 2 * time.Second, RunFor: time.Minute, Never: true}
		w, err := s.watch(plan, policies[0].make(seed+uint64(i)))
		if err != nil {
			return res, err
		}
		clk, c := w.clk, w.client
		ctx, cancel := clk.WithTimeout(context.Background(), stuckWait)
		started, err := c.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
		if err == nil {
			_, err = policies[0].wait(ctx, c, started)
		}
		cancel()
		w.unmount()
		if !errors.Is(err, context.DeadlineExceeded) {
			return res, fmt.Errorf("stuck job: the wait ended with %v, want the deadline", err)
		}
		res.late = max(res.late, clk.Now().Sub(start.Add(stuckWait)))
		// Measured from the poller's second look at the stuck job, the
		// first that can show it flat, plus the minute its backoff takes to
		// reach the cap.
		stuck := start.Add(plan.QueueFor + plan.RunFor)
		polls := w.pollTimes()
		total += len(polls)
		var seen time.Time
		for k := 1; k < len(polls); k++ {
			if seen.IsZero() && !polls[k-1].Before(stuck) {
				seen = polls[k]
				continue
			}
			if !seen.IsZero() && !polls[k-1].Before(seen.Add(time.Minute)) {
				res.minGap = min(res.minGap, polls[k].Sub(polls[k-1]))
			}
		}
	}
	res.requests = float64(total) / float64(jobs)
	return res, nil
}

// cell gathers the results of one curve, length and policy.
type cell struct {
	latencies []time.Duration
	requests  []int
	minGap    time.Duration
}

type table struct {
	cells map[[3]int]*cell
	stuck stuckResult
}

func newTable() *table { return &table{cells: map[[3]int]*cell{}} }

func (t *table) add(j job, r result) {
	key := [3]int{j.curve, j.length, j.policy}
	c := t.cells[key]
	if c == nil {
		c = &cell{minGap: math.MaxInt64}
		t.cells[key] = c
	}
	c.latencies = append(c.latencies, r.latency)
	c.requests = append(c.requests, r.requests)
	c.minGap = min(c.minGap, r.minGap)
}

// summary is one cell in numbers.
type summary struct {
	p50, p90, max  time.Duration
	reqMean        float64
	reqP90, reqMax int
	minGap         time.Duration
}

func (c *cell) summary() summary {
	lat := slices.Clone(c.latencies)
	slices.Sort(lat)
	req := slices.Clone(c.requests)
	slices.Sort(req)
	total := 0
	for _, r := range req {
		total += r
	}
	return summary{
		p50: benchreport.Percentile(lat, 50), p90: benchreport.Percentile(lat, 90), max: lat[len(lat)-1],
		reqMean: float64(total) / float64(len(req)), reqP90: benchreport.Percentile(req, 90), reqMax: req[len(req)-1],
		minGap: c.minGap,
	}
}

func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) }

// tableHead names the table's columns: the curve and the length, then
// five of the adaptive policy's figures and four of the loop's.
var tableHead = []string{"curve", "length",
	"adaptive p50 s", "p90 s", "max s", "requests mean", "max",
	"fixed 10s p50 s", "p90 s", "max s", "requests mean"}

// print prints the table, aligned for a terminal or as Markdown.
func (t *table) print(w io.Writer, markdown bool) {
	rows := t.rows()
	if markdown {
		printMarkdown(w, tableHead, rows)
		return
	}
	printAligned(w, tableHead, rows)
}

// rows are the table's rows: one per curve and length, curve by curve.
func (t *table) rows() [][]string {
	var rows [][]string
	for ci, c := range curves {
		for li, length := range lengths {
			a, f := t.cells[[3]int{ci, li, 0}].summary(), t.cells[[3]int{ci, li, 1}].summary()
			rows = append(rows, []string{c.name, benchreport.ShortDuration(length),
				secs(a.p50), secs(a.p90), secs(a.max), strconv.FormatFloat(a.reqMean, 'f', 1, 64), strconv.Itoa(a.reqMax),
				secs(f.p50), secs(f.p90), secs(f.max), strconv.FormatFloat(f.reqMean, 'f', 1, 64)})
		}
	}
	return rows
}

func printMarkdown(w io.Writer, head []string, rows [][]string) {
	fmt.Fprintln(w, "| "+strings.Join(head, " | ")+" |")
	fmt.Fprintln(w, "|"+strings.Repeat("---|", 2)+strings.Repeat("--:|", len(head)-2))
	for _, r := range rows {
		fmt.Fprintln(w, "| "+strings.Join(r, " | ")+" |")
	}
}

// printAligned prints the columns padded to their widest value, text to
// the left and figures to the right, a bar after the length and after the
// adaptive policy's figures, and a blank line between curves.
func printAligned(w io.Writer, head []string, rows [][]string) {
	widths := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, v := range r {
			widths[i] = max(widths[i], len(v))
		}
	}
	line := func(r []string) {
		var b strings.Builder
		for i, v := range r {
			if i < 2 {
				fmt.Fprintf(&b, "%-*s  ", widths[i], v)
			} else {
				fmt.Fprintf(&b, "%*s  ", widths[i], v)
			}
			if i == 1 || i == 6 {
				b.WriteString("| ")
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(head)
	for i, r := range rows {
		if i > 0 && i%len(lengths) == 0 {
			fmt.Fprintln(w)
		}
		line(r)
	}
}

// findings are the table's figures that the targets are about.
type findings struct {
	worstP50, worstP90 time.Duration
	late               []string // rows with p50 or p90 over a second
	beatsLatency       bool     // p50 and p90 under the loop's everywhere
	moreRequests       []string // rows of a minute or longer that cost the loop's requests or more
	shortExtra         float64  // most extra requests over the loop below a minute
	shortRows          []string // rows below a minute that cost more than 5 extra
	budget             int      // most requests of one advancing export
	minGap             time.Duration
}

// findings gathers the figures of every row.
func (t *table) findings() findings {
	f := findings{beatsLatency: true, minGap: math.MaxInt64}
	for ci, c := range curves {
		for li, length := range lengths {
			a, loop := t.cells[[3]int{ci, li, 0}].summary(), t.cells[[3]int{ci, li, 1}].summary()
			f.add(c, length, a, loop)
		}
	}
	return f
}

// add takes in one row: the adaptive policy's summary a and the loop's.
func (f *findings) add(c curve, length time.Duration, a, loop summary) {
	row := c.name + " " + benchreport.ShortDuration(length)
	f.worstP50, f.worstP90 = max(f.worstP50, a.p50), max(f.worstP90, a.p90)
	if a.p50 > maxLatency || a.p90 > maxLatency {
		f.late = append(f.late, fmt.Sprintf("%s (p50 %s s, p90 %s s)", row, secs(a.p50), secs(a.p90)))
	}
	f.beatsLatency = f.beatsLatency && a.p50 < loop.p50 && a.p90 < loop.p90
	if length >= time.Minute {
		if a.reqMean >= loop.reqMean {
			f.moreRequests = append(f.moreRequests, fmt.Sprintf("%s (%.1f vs %.1f)", row, a.reqMean, loop.reqMean))
		}
	} else {
		extra := a.reqMean - loop.reqMean
		f.shortExtra = max(f.shortExtra, extra)
		if extra > maxShortExtra {
			f.shortRows = append(f.shortRows, fmt.Sprintf("%s (%.1f vs %.1f)", row, a.reqMean, loop.reqMean))
		}
	}
	if c.advancing {
		f.budget = max(f.budget, a.reqMax)
	}
	f.minGap = min(f.minGap, a.minGap)
}

// misses lists the rows that missed a target, if any.
func misses(rows []string) string {
	if len(rows) == 0 {
		return ""
	}
	return "; misses: " + strings.Join(rows, ", ")
}

// verdict prints the targets against the numbers, each ok or FAIL.
func (t *table) verdict(w io.Writer) *benchreport.Verdict {
	fmt.Fprintln(w)
	f, v := t.findings(), benchreport.NewVerdict(w)
	v.Check(len(f.late) == 0,
		"completion noticed within %.1f s (p50 and p90) at every curve and length: worst p50 %s s, worst p90 %s s%s",
		maxLatency.Seconds(), secs(f.worstP50), secs(f.worstP90), misses(f.late))
	v.Check(f.beatsLatency, "adaptive beats the fixed 10 s loop on p50 and p90 latency at every curve and length")
	v.Check(len(f.moreRequests) == 0, "adaptive spends fewer requests than the fixed 10 s loop on every job of a minute or longer%s",
		misses(f.moreRequests))
	v.Check(f.shortExtra <= maxShortExtra, "on shorter jobs it spends at most a handful (%.0f) of requests more than the loop: at most %.1f more%s",
		maxShortExtra, f.shortExtra, misses(f.shortRows))
	v.Check(f.budget <= maxAdvancingRequests, "at most %d status requests per advancing export (linear, front- and back-loaded): worst %d",
		maxAdvancingRequests, f.budget)
	v.Check(f.minGap >= minRequestGap, "never two requests of one job less than %s s apart: shortest gap %s s", secs(minRequestGap), secs(f.minGap))
	v.Check(t.stuck.minGap >= minStuckGap,
		"a stuck job backs off to at most one request per %.0f s: a minute after it is seen flat, shortest gap %s s (%d jobs, %.1f requests each in %s)",
		minStuckGap.Seconds(), secs(t.stuck.minGap), t.stuck.jobs, t.stuck.requests, benchreport.ShortDuration(stuckWait))
	v.Check(t.stuck.late == 0, "every wait on a stuck job ended at its deadline, never a sleep later: latest by %s s", secs(t.stuck.late))
	return v
}
