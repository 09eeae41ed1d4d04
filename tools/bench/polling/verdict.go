package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

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
