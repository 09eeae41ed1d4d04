package poll

import (
	"testing"
	"time"
)

// look is one hand-written status answer: when it arrived (after start),
// the job's status and progress (none when negative), its updatedAt (after
// start, or noUpdate), and the wait the schedule should answer (unchecked
// when negative).
type look struct {
	at       time.Duration
	status   string
	progress float64
	updated  time.Duration
	want     time.Duration
}

// noUpdate is a look without updatedAt.
const noUpdate = -time.Hour

// running is a look at a running job with progress p and no updatedAt.
func running(at time.Duration, p float64, want time.Duration) look {
	return look{at: at, status: statusRunning, progress: p, updated: noUpdate, want: want}
}

// TestAdaptiveSchedule feeds the schedule hand-written answers of a job
// created a second before start, without jitter, and checks each wait it
// answers. The comments give the arithmetic.
func TestAdaptiveSchedule(t *testing.T) {
	t.Parallel()
	s := time.Second
	// A job at 10 %/s that reaches 40.1 % at 5 s; each answer comes
	// 100 ms after the step it shows.
	fastThenSlow := func(updated time.Duration, want time.Duration) []look {
		return []look{
			{at: 0, status: statusRunning, progress: 10, updated: -100 * time.Millisecond, want: s},
			{at: s, status: statusRunning, progress: 20, updated: 900 * time.Millisecond, want: -1},
			{at: 2 * s, status: statusRunning, progress: 30, updated: 1900 * time.Millisecond, want: -1},
			{at: 3 * s, status: statusRunning, progress: 40, updated: 2900 * time.Millisecond, want: -1},
			{at: 20 * s, status: statusRunning, progress: 40.1, updated: updated, want: want},
		}
	}
	cases := []struct {
		name   string
		policy Adaptive
		looks  []look
	}{
		{"no progress: back off from 2 s to 30 s", Adaptive{}, []look{
			{at: 0, status: statusQueued, progress: -1, updated: noUpdate, want: 2 * s},
			{at: 2 * s, status: statusQueued, progress: -1, updated: noUpdate, want: 4 * s},
			{at: 6 * s, status: statusQueued, progress: -1, updated: noUpdate, want: 8 * s},
			{at: 14 * s, status: statusQueued, progress: -1, updated: noUpdate, want: 16 * s},
			{at: 30 * s, status: statusQueued, progress: -1, updated: noUpdate, want: 30 * s},
			{at: 60 * s, status: statusQueued, progress: -1, updated: noUpdate, want: 30 * s},
		}},
		{"a new status starts over: a probe once it runs", Adaptive{}, []look{
			{at: 0, status: statusQueued, progress: -1, updated: noUpdate, want: 2 * s},
			{at: 2 * s, status: statusQueued, progress: -1, updated: noUpdate, want: 4 * s},
			running(6*s, 5, s),
		}},
		{"a linear rise: a probe, then sleeps that grow with the watch", Adaptive{}, []look{
			running(10*s, 10, s), // one point gives no rate
			// 1 %/s; the first estimate grows to twice the 1 s watched,
			// plus MinInterval.
			running(11*s, 11, 3*s),
			// Four times the 4 s watched, plus MinInterval: 17 s, short
			// of the earliest finish (85 % at up to 125 % faster: 37.8 s).
			running(14*s, 14, 17*s),
		}},
		{"flat progress: a probe, then a backoff", Adaptive{}, []look{
			running(10*s, 10, s), running(11*s, 11, 3*s), running(14*s, 14, 17*s),
			// Not a step in 17 s at 1 %/s: it may have stalled. No
			// updatedAt to tell: look again soon, then back off.
			running(31*s, 14, s), running(32*s, 14, 2*s), running(34*s, 14, 4*s),
		}},
		{"progress went back: a probe", Adaptive{}, []look{
			running(10*s, 10, s), running(11*s, 11, 3*s), running(14*s, 14, 17*s), running(31*s, 5, s),
		}},
		{"slowed abruptly, updatedAt says flat since 5 s: wait as long as it has been flat",
			// 20 s less 5 s, less the 100 ms every answer takes.
			Adaptive{}, fastThenSlow(5*s, 14900*time.Millisecond)},
		{"slowed abruptly, updatedAt says it just moved: carry on at 10 %/s",
			// 59.9 % left at up to 20 % over the 10 %/s before the stall,
			// plus MinInterval.
			Adaptive{}, fastThenSlow(19950*time.Millisecond, secs(59.9/12+1))},
		{"slowed abruptly, no updatedAt: a probe", Adaptive{}, []look{
			running(0, 10, s), running(s, 20, -1), running(2*s, 30, -1), running(3*s, 40, -1), running(20*s, 40.1, s),
		}},
		{"MinInterval 2 s: a 2 s probe, then a first estimate of twice 2 s plus 2 s", Adaptive{MinInterval: 2 * s}, []look{
			running(10*s, 10, 2*s), running(12*s, 12, 6*s),
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := c.policy
			p.Rand = func() float64 { return 0 }
			sched := p.Start(start)
			for i, l := range c.looks {
				obs := Observation{Now: start.Add(l.at), Status: l.status, Progress: l.progress, HasProgress: l.progress >= 0,
					CreatedAt: start.Add(-time.Second)}
				if l.updated != noUpdate {
					obs.UpdatedAt = start.Add(l.updated)
				}
				if got := sched.Next(obs); l.want >= 0 && (got-l.want).Abs() > time.Millisecond {
					t.Errorf("look %d at %s (progress %v): wait %s, want %s", i, l.at, l.progress, got, l.want)
				}
			}
		})
	}
}

// scripted feeds a schedule observations of a running job, one per entry,
// each the previous wait later, and returns the waits.
func scripted(s Schedule, progress []float64) []time.Duration {
	now := start
	var waits []time.Duration
	for _, p := range progress {
		d := s.Next(Observation{Now: now, Status: statusRunning, Progress: p, HasProgress: true, CreatedAt: start})
		waits = append(waits, d)
		now = now.Add(d)
	}
	return waits
}

// TestAdaptivePolicyErratic: progress that goes back, or falls abruptly,
// earns a quick second look rather than a long sleep.
func TestAdaptivePolicyErratic(t *testing.T) {
	t.Parallel()
	p := Adaptive{Rand: func() float64 { return 0 }}
	waits := scripted(p.Start(start), []float64{10, 20, 30, 40, 5})
	if last := waits[len(waits)-1]; last != time.Second {
		t.Errorf("after progress went back, waited %s, want a 1s probe (waits %v)", last, waits)
	}
	// A job moving 10 %/s that then gains one step in a long interval.
	s := p.Start(start)
	for _, obs := range []struct {
		at time.Duration
		p  float64
	}{{0, 10}, {time.Second, 20}, {2 * time.Second, 30}, {3 * time.Second, 40}, {20 * time.Second, 40.1}} {
		now := start.Add(obs.at)
		if d := s.Next(Observation{Now: now, Status: statusRunning, Progress: obs.p, HasProgress: true}); obs.at == 20*time.Second && d != time.Second {
			t.Errorf("after an abrupt slowdown, waited %s, want a 1s probe", d)
		}
	}
}

// TestAdaptivePolicyJitterIsSeeded: the same seed gives the same waits.
func TestAdaptivePolicyJitterIsSeeded(t *testing.T) {
	t.Parallel()
	progress := []float64{0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 64, 64, 64, 64, 64}
	a, b := scripted(seeded(42).Start(start), progress), scripted(seeded(42).Start(start), progress)
	c := scripted(seeded(43).Start(start), progress)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different waits: %v and %v", a, b)
		}
	}
	same := true
	for i := range a {
		same = same && a[i] == c[i]
	}
	if same {
		t.Errorf("different seeds, same waits: %v", a)
	}
}
