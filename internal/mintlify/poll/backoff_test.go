package poll

import (
	"slices"
	"testing"
	"time"
)

// TestBackoff: the waits a backoff hands out, step by step: next grows by
// factor up to limit, hold sets the step, reset starts again, and jitter
// lengthens each wait by its fraction of the random number.
func TestBackoff(t *testing.T) {
	t.Parallel()
	s := time.Second
	half := func() float64 { return 0.5 }
	cases := []struct {
		name  string
		b     backoff
		steps string // n: next, h: b.hold(hold), r: reset
		hold  time.Duration
		want  []time.Duration
	}{
		{"doubling, capped", backoff{first: 2 * s, limit: 30 * s, factor: 2}, "nnnnnn", 0,
			[]time.Duration{2 * s, 4 * s, 8 * s, 16 * s, 30 * s, 30 * s}},
		{"jitter lengthens each wait", backoff{first: 2 * s, limit: 30 * s, factor: 2, jitter: 0.2, rand: half}, "nnnnn", 0,
			[]time.Duration{2200 * time.Millisecond, 4400 * time.Millisecond, 8800 * time.Millisecond, 17600 * time.Millisecond, 33 * s}},
		{"reset starts again from first", backoff{first: 2 * s, limit: 30 * s, factor: 2}, "nnnrn", 0,
			[]time.Duration{2 * s, 4 * s, 8 * s, 2 * s}},
		{"hold sets the step the next ones grow from", backoff{first: 2 * s, limit: 30 * s, factor: 2}, "nhnn", 5 * s,
			[]time.Duration{2 * s, 5 * s, 10 * s, 20 * s}},
		{"hold is capped by limit", backoff{first: 2 * s, limit: 30 * s, factor: 2}, "hn", time.Minute,
			[]time.Duration{30 * s, 30 * s}},
		{"a hold shorter than first waits first", backoff{first: 2 * s, limit: 30 * s, factor: 2}, "hn", s,
			[]time.Duration{2 * s, 2 * s}},
		{"a first wait above limit is capped", backoff{first: 40 * s, limit: 30 * s, factor: 2}, "nn", 0,
			[]time.Duration{30 * s, 30 * s}},
		{"factor 1 is a fixed interval", backoff{first: 10 * s, limit: 10 * s, factor: 1}, "nnn", 0,
			[]time.Duration{10 * s, 10 * s, 10 * s}},
		{"factor 1.5", backoff{first: s, limit: 5 * s, factor: 1.5}, "nnnnn", 0,
			[]time.Duration{s, 1500 * time.Millisecond, 2250 * time.Millisecond, 3375 * time.Millisecond, 5 * s}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := c.b
			var got []time.Duration
			for _, step := range c.steps {
				switch step {
				case 'n':
					got = append(got, b.next())
				case 'h':
					got = append(got, b.hold(c.hold))
				case 'r':
					b.reset()
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("waits %v, want %v", got, c.want)
			}
		})
	}
}

// TestExponentialPolicy: Initial, then times Multiplier up to Max, whatever
// it observes.
func TestExponentialPolicy(t *testing.T) {
	t.Parallel()
	s := Exponential{Initial: time.Second, Max: 4 * time.Second, Multiplier: 2}.Start(start)
	var got []time.Duration
	for range 5 {
		got = append(got, s.Next(Observation{Status: statusRunning, Progress: 50, HasProgress: true}))
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
	if !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
}
