package poll

import "time"

// backoff is a growing, capped, jittered sequence of waits: first, then
// each wait factor times the one before, never more than limit, each one
// lengthened by a random fraction of up to jitter. The adaptive policy
// doubles from twice its MinInterval with 20 % jitter; Exponential is
// a backoff without jitter.
type backoff struct {
	first, limit time.Duration
	factor       float64
	// jitter is the largest fraction a wait is lengthened by; rand returns
	// a uniform number in [0, 1) and is not called when jitter is 0.
	jitter float64
	rand   func() float64
	// step is the last wait before jitter; 0 starts again from first.
	step time.Duration
}

// next returns the next wait.
func (b *backoff) next() time.Duration {
	if b.step == 0 {
		b.step = b.first
	} else {
		b.step = time.Duration(float64(b.step) * b.factor)
	}
	b.step = min(b.step, b.limit)
	return b.lengthen(b.step)
}

// hold makes d (at most limit) the current step and returns the wait for
// it, never shorter than first: the sequence goes on growing from d.
func (b *backoff) hold(d time.Duration) time.Duration {
	b.step = min(d, b.limit)
	return b.lengthen(max(b.step, b.first))
}

// reset starts the sequence again from first.
func (b *backoff) reset() { b.step = 0 }

// lengthen adds a random fraction of up to jitter to d.
func (b *backoff) lengthen(d time.Duration) time.Duration {
	if b.jitter == 0 {
		return d
	}
	return time.Duration(float64(d) * (1 + b.jitter*b.rand()))
}

// Exponential waits Initial, then multiplies the wait by Multiplier up
// to Max. With Initial = Max it is a fixed-interval loop, such as the
// 10-second one that Mintlify documents.
type Exponential struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
}

// Start implements Policy.
func (p Exponential) Start(time.Time) Schedule {
	return &exponentialSchedule{backoff{first: p.Initial, limit: p.Max, factor: p.Multiplier}}
}

type exponentialSchedule struct{ backoff backoff }

// Next implements Schedule.
func (s *exponentialSchedule) Next(Observation) time.Duration { return s.backoff.next() }
