// Command deployments is the benchmark behind `make bench-deployments`: it
// waits for deployments of several lengths through the real client
// (mintlify.Client.WaitForDeployment) against the in-repo fake API, over
// loopback HTTP, in virtual time, and prints how late each wait noticed the
// end and how many status requests it sent:
//
//   - the provider with history: the wait of a resource whose last
//     deployment took as long (the fake ran it first; its duration is the
//     API's createdAt to endedAt), as a create that triggers one waits;
//   - the provider without history: a resource's first deployment;
//   - Mintlify's own loop: a request every 10 seconds after the trigger;
//   - before: the adaptive policy the deployment waits had, which backs off
//     to 30 s on a job without progress.
//
// It also prints, for information, a wait whose history is 3 s off either
// way. It ends with a verdict on the targets and exits with status 1 when
// one is missed: with history, the end noticed within a second; without,
// within the loop's 10 seconds; never more requests than the loop.
package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// The targets.
const (
	// withHistoryLate bounds how late a wait that knows the last
	// deployment's duration notices the end.
	withHistoryLate = time.Second
	// loopInterval is Mintlify's own loop, which bounds how late a first
	// deployment is noticed, and whose requests bound every wait's.
	loopInterval = 10 * time.Second
)

// lengths are the deployments' lengths, from the trigger to the end: those
// of the report (23.7 s, 41 s, 91.3 s) and more.
var lengths = []time.Duration{5 * time.Second, 23700 * time.Millisecond, 41 * time.Second,
	91300 * time.Millisecond, 3 * time.Minute, 10 * time.Minute}

// start is when every virtual clock begins.
var start = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// waiter is one way of waiting, as a column of the table.
type waiter struct {
	name string
	// policy is the client's policy (nil for the client's default) and
	// opts the wait's options, given the last deployment's duration.
	policy poll.Policy
	opts   func(last time.Duration) []mintlify.WaitOption[mintlify.Deployment]
}

func foretell(took time.Duration) []mintlify.WaitOption[mintlify.Deployment] {
	return []mintlify.WaitOption[mintlify.Deployment]{mintlify.Foretell(took, true)}
}

var (
	withHistory = waiter{name: "with history", opts: foretell}
	noHistory   = waiter{name: "first deployment",
		opts: func(time.Duration) []mintlify.WaitOption[mintlify.Deployment] { return foretell(0) }}
	loop   = waiter{name: "10 s loop", policy: tenSecondLoop{}}
	before = waiter{name: "before (adaptive)", policy: poll.Adaptive{}}
)

// result is how one wait went.
type result struct {
	late     time.Duration
	requests int
}

func main() {
	began := time.Now()
	srv := newServer()
	defer srv.close()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "length\twith history late\treq\tfirst deployment late\treq\t10 s loop late\treq\t"+
		"before late\treq\thistory 3 s short late\treq\thistory 3 s long late\treq\t")
	v := benchreport.NewVerdict(os.Stdout)
	var checks []func()
	for _, length := range lengths {
		row := map[string]result{}
		for _, c := range []struct {
			key string
			w   waiter
			off time.Duration
		}{{"history", withHistory, 0}, {"first", noHistory, 0}, {"loop", loop, 0}, {"before", before, 0},
			{"short", withHistory, -3 * time.Second}, {"long", withHistory, 3 * time.Second}} {
			r, err := srv.run(length, c.off, c.w)
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench-deployments:", err)
				os.Exit(1)
			}
			row[c.key] = r
		}
		fmt.Fprintf(tw, "%s\t", benchreport.ShortDuration(length))
		for _, k := range []string{"history", "first", "loop", "before", "short", "long"} {
			fmt.Fprintf(tw, "%.2f s\t%d\t", row[k].late.Seconds(), row[k].requests)
		}
		fmt.Fprintln(tw)
		checks = append(checks, func() {
			h, f, l := row["history"], row["first"], row["loop"]
			v.Check(h.late <= withHistoryLate && h.requests <= l.requests,
				"%s with history: noticed within %v with no more requests than the loop: %.2f s late, %d requests "+
					"(the loop: %d)", benchreport.ShortDuration(length), withHistoryLate, h.late.Seconds(), h.requests, l.requests)
			v.Check(f.late <= loopInterval && f.requests <= l.requests,
				"%s first deployment: noticed within %v with no more requests than the loop: %.2f s late, %d "+
					"requests (the loop: %d)", benchreport.ShortDuration(length), loopInterval, f.late.Seconds(), f.requests, l.requests)
		})
	}
	_ = tw.Flush()
	fmt.Printf("\nLate: from the deployment's end to the wait's return, in virtual time; req: status requests. "+
		"%d waits in %s.\n\n", 6*len(lengths), time.Since(began).Round(time.Millisecond))
	for _, check := range checks {
		check()
	}
	if v.Failed() {
		fmt.Fprintf(os.Stderr, "bench-deployments: %d of the targets missed\n", v.Missed())
		os.Exit(1)
	}
}

// server serves one fake API per wait behind one loopback HTTP server.
type server struct {
	mux   *mountedFakes
	srv   *httptest.Server
	fakes int
}

func newServer() *server {
	m := &mountedFakes{byPrefix: map[string]http.Handler{}}
	return &server{mux: m, srv: httptest.NewServer(m)}
}

func (s *server) close() { s.srv.Close() }

// run triggers a deployment that lasts length on a fresh fake, after
// another that lasted length+off (the history), and waits for it with w.
func (s *server) run(length, off time.Duration, w waiter) (result, error) {
	clk := clock.NewFake(start, true)
	runs := 0
	fake := fakeapi.New(fakeapi.WithClock(clk), fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		runs++
		total := length
		if runs == 1 {
			total += off
		}
		queued := total / 8 // a builder picks it up, then it builds, writing its log as it goes
		logs := make([]string, 20)
		for i := range logs {
			logs[i] = fmt.Sprintf("step %d of %d", i+1, len(logs))
		}
		return fakeapi.DeploymentPlan{QueuedFor: queued, RunFor: total - queued, Logs: logs}
	}}))
	s.fakes++
	prefix := fmt.Sprintf("/f%d", s.fakes)
	s.mux.mount(prefix, fake)
	defer s.mux.unmount(prefix)
	opts := []mintlify.Option{mintlify.WithBaseURL(s.srv.URL + prefix), mintlify.WithClock(clk)}
	if w.policy != nil {
		opts = append(opts, mintlify.WithPollPolicy(w.policy))
	}
	client, err := mintlify.New(fakeapi.DefaultAPIKey, opts...)
	if err != nil {
		return result{}, err
	}
	ctx := context.Background()
	last, err := client.TriggerDeployment(ctx, "proj")
	if err != nil {
		return result{}, err
	}
	// The resource's last deployment, as a wait that saw it end did.
	previous, err := client.WaitForDeployment(ctx, last, mintlify.Foretell(length+off, true))
	if err != nil {
		return result{}, err
	}
	id, err := client.TriggerDeployment(ctx, "proj")
	if err != nil {
		return result{}, err
	}
	before := fake.Count(http.MethodGet, "/v1/project/update-status/")
	var opt []mintlify.WaitOption[mintlify.Deployment]
	if w.opts != nil {
		opt = w.opts(previous.Took())
	}
	d, err := client.WaitForDeployment(ctx, id, opt...)
	if err != nil {
		return result{}, err
	}
	created, err := time.Parse(time.RFC3339Nano, d.CreatedAt)
	if err != nil {
		return result{}, err
	}
	return result{late: clk.Now().Sub(created.Add(length)),
		requests: fake.Count(http.MethodGet, "/v1/project/update-status/") - before}, nil
}

// mountedFakes routes each request to the fake mounted at its first path
// segment.
type mountedFakes struct {
	byPrefix map[string]http.Handler
}

func (m *mountedFakes) mount(prefix string, h http.Handler) { m.byPrefix[prefix] = h }
func (m *mountedFakes) unmount(prefix string)               { delete(m.byPrefix, prefix) }

func (m *mountedFakes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	h := m.byPrefix["/"+first]
	if h == nil {
		http.NotFound(w, r)
		return
	}
	http.StripPrefix("/"+first, h).ServeHTTP(w, r)
}

// tenSecondLoop is Mintlify's own polling loop: a request 10 seconds after
// the trigger, then one every 10 seconds.
type tenSecondLoop struct{}

func (tenSecondLoop) Start(time.Time) poll.Schedule { return tenSecondLoop{} }

func (tenSecondLoop) Next(poll.Observation) time.Duration { return loopInterval }

// FirstDelay makes the first request wait too, as the loop's does.
func (tenSecondLoop) FirstDelay() (time.Duration, bool) { return loopInterval, true }
