package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

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
