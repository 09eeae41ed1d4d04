// Package benchreport is what the benchmarks behind `make bench`, `make
// bench-e2e` and `make bench-archive` share: how they name durations and how
// they judge their figures against their targets, so that a missed target
// fails the run.
package benchreport

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"
)

// MaxProviderPeakRSS is the most memory (peak resident set, VmHWM) the
// provider process may use in the benchmarks that measure it: the plan of
// 100 bundles (make bench-e2e) and the download of a 1 GiB archive (make
// bench-archive).
const MaxProviderPeakRSS = 64 << 20

// ShortDuration names a job length as the tables do: whole minutes as
// "30m", whole seconds as "90s", anything finer as time.Duration prints it.
func ShortDuration(d time.Duration) string {
	switch {
	case d != 0 && d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// Verdict judges a benchmark's figures against its targets. Each Check
// prints one line at once, "ok   <target>: <figures>" or "FAIL <target>:
// <figures>"; Failed says whether any target was missed, which the
// benchmark then turns into its exit code.
type Verdict struct {
	w      io.Writer
	missed int
}

// NewVerdict returns a verdict that prints to w.
func NewVerdict(w io.Writer) *Verdict { return &Verdict{w: w} }

// Check prints whether one target is met; format and args describe the
// target and the figures.
func (v *Verdict) Check(pass bool, format string, args ...any) {
	mark := "ok  "
	if !pass {
		mark = "FAIL"
		v.missed++
	}
	_, _ = fmt.Fprintf(v.w, "%s %s\n", mark, fmt.Sprintf(format, args...))
}

// Missed returns how many targets were missed.
func (v *Verdict) Missed() int { return v.missed }

// Failed reports whether any target was missed.
func (v *Verdict) Failed() bool { return v.missed > 0 }

// Percentile returns the nearest-rank percentile p (0 to 100) of sorted
// values, which must not be empty.
func Percentile[T any](sorted []T, p int) T {
	rank := (p*len(sorted) + 99) / 100
	return sorted[max(rank, 1)-1]
}

// Median returns the median of ds (the upper one of an even count), which
// must not be empty.
func Median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
