package poll

import "time"

// Foretold spaces the status requests of a job that reports no progress (a
// deployment), by how long an earlier job of the same kind took.
//
// With an earlier duration (Took), it sleeps until shortly before the job
// is due to end, as measured from the job's creation, then looks every
// MinInterval: a job that takes as long as the earlier one is noticed
// within a second, with fewer requests than a fixed loop of Loop. The looks
// before the due end are at most half the loop's requests for that
// duration (and at most maxEarlyLooks), so that a job as long as the
// earlier one never costs more requests than the loop. Past the due end it
// goes on looking every MinInterval for as many looks again (at most
// maxEarlyLooks); a job still running then proves the history wrong, and
// the wait falls back to the loop's grid.
//
// Without one, it is the fixed loop itself, on a grid of Loop from the
// job's creation: never later than the loop, never more requests.
type Foretold struct {
	// Took is how long an earlier job took, from creation to end; zero
	// when none is known.
	Took time.Duration
	// Fresh says that the wait starts as the job is created (right after
	// the call that started it): the first request then waits for the
	// schedule instead of going out at once (FirstDelay).
	Fresh bool
	// MinInterval is the shortest gap between two requests (1 s when
	// zero); Loop is the fixed loop's interval (10 s when zero).
	MinInterval, Loop time.Duration
}

const (
	// defaultLoop is Mintlify's own polling loop.
	defaultLoop = 10 * time.Second
	// defaultMinInterval is the shortest gap between two looks, as
	// Adaptive's.
	defaultMinInterval = time.Second
	// maxEarlyLooks bounds the looks before the due end, and after it:
	// an earlier duration that misses by more than a few seconds is no
	// guide.
	maxEarlyLooks = 3
	// dueMargin is how far past the due end the last look before it is:
	// a job exactly as long as the earlier one is seen ended by it.
	dueMargin = 250 * time.Millisecond
)

// Start implements Policy.
func (f Foretold) Start(now time.Time) Schedule {
	f.MinInterval = orDefault(f.MinInterval, defaultMinInterval)
	f.Loop = orDefault(f.Loop, defaultLoop)
	s := &foretoldSchedule{policy: f}
	if f.Fresh {
		s.origin = now
	}
	return s
}

// FirstDelay is how long a wait that starts at the job's creation sleeps
// before its first request (see Fresh); ok is false for a wait that does
// not know when the job was created, which asks at once.
func (f Foretold) FirstDelay() (d time.Duration, ok bool) {
	if !f.Fresh {
		return 0, false
	}
	f.MinInterval = orDefault(f.MinInterval, defaultMinInterval)
	f.Loop = orDefault(f.Loop, defaultLoop)
	if f.Took <= 0 {
		return f.Loop, true
	}
	return max(f.Took+dueMargin-time.Duration(EarlyLooks(f.Took, f.Loop))*f.MinInterval, 0), true
}

// LoopLooks is how many requests the fixed loop of interval loop sends for
// a job that ends after took: its first request at loop, then one every
// loop until one sees the end.
func LoopLooks(took, loop time.Duration) int {
	if took <= 0 {
		return 1
	}
	return int((took + loop - 1) / loop)
}

// EarlyLooks is how many looks Foretold spends before the due end of a job
// that took as long as took, beside the one just past it.
func EarlyLooks(took, loop time.Duration) int {
	return min((LoopLooks(took, loop)-1)/2, maxEarlyLooks)
}

type foretoldSchedule struct {
	policy Foretold
	// origin is when the job was created, on the client's clock; zero
	// until known.
	origin time.Time
}

// Next implements Schedule.
func (s *foretoldSchedule) Next(obs Observation) time.Duration {
	if s.origin.IsZero() {
		s.origin = obs.Now
		// A job seen first by a wait that did not start it: its
		// creation, on the API's clock, which cannot be later than now
		// (a clock ahead of ours would make every look late).
		if !obs.CreatedAt.IsZero() && obs.CreatedAt.Before(obs.Now) {
			s.origin = obs.CreatedAt
		}
	}
	return s.after(obs.Now).Sub(obs.Now)
}

// after is when to ask next after now.
func (s *foretoldSchedule) after(now time.Time) time.Time {
	p := s.policy
	earliest := now.Add(p.MinInterval)
	if p.Took > 0 {
		due := s.origin.Add(p.Took + dueMargin)
		first := due.Add(-time.Duration(EarlyLooks(p.Took, p.Loop)) * p.MinInterval)
		switch {
		case earliest.Before(first):
			return first
		case !earliest.After(due.Add(maxEarlyLooks * p.MinInterval)):
			return earliest
		}
	}
	// The loop's grid: the next multiple of Loop from the origin.
	ran := max(earliest.Sub(s.origin), 0)
	steps := max(int64((ran+p.Loop-1)/p.Loop), 1)
	return s.origin.Add(time.Duration(steps) * p.Loop)
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
