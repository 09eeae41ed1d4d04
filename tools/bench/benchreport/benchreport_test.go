package benchreport

import (
	"bytes"
	"testing"
	"time"
)

func TestShortDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		0:                         "0s",
		5 * time.Second:           "5s",
		20 * time.Second:          "20s",
		time.Minute:               "1m",
		90 * time.Second:          "90s",
		30 * time.Minute:          "30m",
		1500 * time.Millisecond:   "1.5s",
		2*time.Hour + time.Second: "7201s",
	} {
		if got := ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestVerdict(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	v := NewVerdict(&out)
	v.Check(true, "at most %d requests: worst %d", 25, 15)
	if v.Failed() {
		t.Error("failed after a met target")
	}
	v.Check(false, "within %.1f s: worst %.2f s", 1.0, 1.62)
	if !v.Failed() || v.Missed() != 1 {
		t.Errorf("Failed, Missed = %v, %d after one missed target", v.Failed(), v.Missed())
	}
	want := "ok   at most 25 requests: worst 15\nFAIL within 1.0 s: worst 1.62 s\n"
	if out.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", out.String(), want)
	}
}

func TestPercentileAndMedian(t *testing.T) {
	t.Parallel()
	sorted := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if p50, p90, p100 := Percentile(sorted, 50), Percentile(sorted, 90), Percentile(sorted, 100); p50 != 5 || p90 != 9 || p100 != 10 {
		t.Errorf("p50, p90, p100 = %d, %d, %d; want 5, 9, 10", p50, p90, p100)
	}
	if m := Median([]time.Duration{3, 1, 2}); m != 2 {
		t.Errorf("Median = %d, want 2", m)
	}
}
