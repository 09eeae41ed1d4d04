package poll

import (
	"slices"
	"testing"
	"time"
)

// foretoldRun waits with f for a job created at start that ends after
// took, the wait starting at begin after the job's creation; it returns the
// looks' times from the creation and how late the last one saw the end.
func foretoldRun(t *testing.T, f Foretold, took, begin time.Duration) (looks []time.Duration, late time.Duration) {
	t.Helper()
	now := start.Add(begin)
	s := f.Start(now)
	if d, ok := f.FirstDelay(); ok {
		now = now.Add(d)
	}
	for range 1000 {
		looks = append(looks, now.Sub(start))
		if now.Sub(start) >= took {
			return looks, now.Sub(start) - took
		}
		next := s.Next(Observation{Now: now, Status: statusRunning, CreatedAt: start})
		if next < time.Second {
			t.Fatalf("after %v: next look in %v, under a second", now.Sub(start), next)
		}
		now = now.Add(next)
	}
	t.Fatalf("the wait never saw the end of a %v job", took)
	return nil, 0
}

// TestForetoldLooks: the looks of a wait, by hand, for the deployments of
// the report (23.7 s, 41 s, 91.3 s) and a short one: with the duration of
// an earlier deployment, just before and just after the due end; without,
// the 10-second loop's own looks.
func TestForetoldLooks(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	cases := []struct {
		name      string
		f         Foretold
		took      time.Duration
		wantLooks []time.Duration
	}{
		{"23.7 s, as long as the last", Foretold{Took: 23700 * ms, Fresh: true}, 23700 * ms,
			[]time.Duration{22950 * ms, 23950 * ms}},
		{"41 s, as long as the last", Foretold{Took: 41 * time.Second, Fresh: true}, 41 * time.Second,
			[]time.Duration{39250 * ms, 40250 * ms, 41250 * ms}},
		{"91.3 s, as long as the last", Foretold{Took: 91300 * ms, Fresh: true}, 91300 * ms,
			[]time.Duration{88550 * ms, 89550 * ms, 90550 * ms, 91550 * ms}},
		{"5 s, as long as the last", Foretold{Took: 5 * time.Second, Fresh: true}, 5 * time.Second,
			[]time.Duration{5250 * ms}},
		{"23.7 s, the first", Foretold{Fresh: true}, 23700 * ms,
			[]time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second}},
		{"41 s, 2 s slower than the last", Foretold{Took: 39 * time.Second, Fresh: true}, 41 * time.Second,
			[]time.Duration{38250 * ms, 39250 * ms, 40250 * ms, 41250 * ms}},
		{"twice as long as the last: the loop once the history is proven wrong",
			Foretold{Took: 20 * time.Second, Fresh: true}, 40500 * ms,
			[]time.Duration{20250 * ms, 21250 * ms, 22250 * ms, 23250 * ms, 30 * time.Second, 40 * time.Second,
				50 * time.Second}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			looks, _ := foretoldRun(t, c.f, c.took, 0)
			if !slices.Equal(looks, c.wantLooks) {
				t.Errorf("looks at %v, want %v", looks, c.wantLooks)
			}
		})
	}
}

// TestForetoldTargets: for every length, a wait that knows how long the
// last deployment took notices the end within a second, and one that knows
// nothing within the loop's 10 seconds; neither looks more often than the
// loop, which looks first after 10 s, then every 10 s.
func TestForetoldTargets(t *testing.T) {
	t.Parallel()
	for took := 3 * time.Second; took <= 20*time.Minute; took += 1700 * time.Millisecond {
		loop := LoopLooks(took, defaultLoop)
		for _, history := range []bool{true, false} {
			f := Foretold{Fresh: true}
			limit := defaultLoop
			if history {
				f.Took, limit = took, time.Second
			}
			looks, late := foretoldRun(t, f, took, 0)
			if late > limit || len(looks) > loop {
				t.Errorf("%v, history %v: %d looks (the loop: %d), %v late, want at most %v", took, history,
					len(looks), loop, late, limit)
			}
		}
	}
}

// TestForetoldResumes: a wait that takes over a deployment already running
// (a resume, a hand-over) asks at once, then keeps the deployment's own
// schedule, from its creation.
func TestForetoldResumes(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	looks, late := foretoldRun(t, Foretold{Took: 41 * time.Second}, 41*time.Second, 30*time.Second)
	if want := []time.Duration{30 * time.Second, 39250 * ms, 40250 * ms, 41250 * ms}; !slices.Equal(looks, want) {
		t.Errorf("with history: looks at %v, want %v", looks, want)
	}
	if late > time.Second {
		t.Errorf("with history: %v late", late)
	}
	looks, _ = foretoldRun(t, Foretold{}, 41*time.Second, 25*time.Second)
	if want := []time.Duration{25 * time.Second, 30 * time.Second, 40 * time.Second, 50 * time.Second}; !slices.Equal(looks, want) {
		t.Errorf("without history: looks at %v, want %v", looks, want)
	}
}
