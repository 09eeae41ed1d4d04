// Command polling is the simulation behind `make bench`: it runs thousands
// of synthetic static export jobs through the real poller
// (mintlify.Client.WaitForStaticExport) against the in-repo fake API, in
// virtual time, and prints how soon each policy noticed completion and how
// many status requests it spent: the default policy (poll.Adaptive) beside a fixed
// 10-second loop, the automation Mintlify documents.
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
	"flag"
	"fmt"
	"os"
	"time"
)

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
