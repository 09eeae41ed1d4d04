package poll

import (
	"math"
	"time"
)

// point is one observation of a job's progress.
type point struct {
	at       time.Time
	progress float64
}

// maxRisePoints bounds the observations a rise keeps.
const maxRisePoints = 256

// rise is a job's progress since it last started moving: since it began
// running, since a stall, or since its progress went back. It holds no
// clock and makes no request; the estimator reads it.
type rise struct {
	// origin is where the rise began: after this moment, from this
	// progress.
	origin point
	// points are the observations since, oldest first; never more than
	// maxRisePoints, the first kept.
	points []point
	// step is the coarsest progress step every value seen so far is a
	// multiple of: 1, 0.1, 0.01 or 0.001 (percent). It outlives restart.
	step float64
}

func newRise() rise { return rise{step: 1} }

// restart forgets the points; the next rise begins after origin.
func (r *rise) restart(origin point) {
	r.origin, r.points = origin, r.points[:0]
}

// add appends pt, dropping the second point when the rise is full: the
// first one anchors the long-run rate.
func (r *rise) add(pt point) {
	if len(r.points) == maxRisePoints {
		r.points = append(r.points[:1], r.points[2:]...)
	}
	r.points = append(r.points, pt)
}

// last returns the latest point; the rise must not be empty.
func (r *rise) last() point { return r.points[len(r.points)-1] }

// noteStep narrows step to one that progress p is a multiple of.
func (r *rise) noteStep(p float64) {
	for r.step > 0.001 {
		steps := p / r.step
		if math.Abs(steps-math.Round(steps)) < 1e-6 {
			return
		}
		r.step /= 10
	}
}

// reference returns the latest index before i whose progress is at least
// gain below that of i, or 0 and false if there is none.
func (r *rise) reference(i int, gain float64) (int, bool) {
	for k := i - 1; k >= 0; k-- {
		if r.points[i].progress-r.points[k].progress >= gain {
			return k, true
		}
	}
	return 0, false
}

// fastestRate returns the highest rate, in percent per second, over at most
// stretches consecutive stretches of at least gain that end at or before
// index i. With withOrigin it counts the stretch from the origin, a lower
// bound, when it reaches it. It returns 0 when no stretch rose.
func (r *rise) fastestRate(i int, gain float64, stretches int, withOrigin bool) float64 {
	fastest := 0.0
	for range stretches {
		k, long := r.reference(i, gain)
		if !long && !withOrigin {
			break
		}
		prior := r.origin
		if long {
			prior = r.points[k]
		}
		if rate, ok := rateBetween(prior, r.points[i]); ok {
			fastest = max(fastest, rate)
		}
		if !long {
			break
		}
		i = k
	}
	return fastest
}

// rateBetween is the rate from a to b in percent per second, when progress
// rose over a positive time.
func rateBetween(a, b point) (float64, bool) {
	gain, took := b.progress-a.progress, b.at.Sub(a.at).Seconds()
	if gain <= 0 || took <= 0 {
		return 0, false
	}
	return gain / took, true
}

// steadyChange reports whether the rate of the stretch from index j to n is
// the one the two stretches before it (from k back) foretold, the rate
// changing steadily over time, and whether those were measured precisely
// enough to tell: a slowdown they foretold is the curve bending, not a
// stall hidden in the last stretch.
func (r *rise) steadyChange(k, j, n int) bool {
	i, long := r.reference(k, riseSteps*r.step)
	if !long {
		return false
	}
	first, second, last := r.stretch(i, i, k), r.stretch(i, k, j), r.stretch(i, j, n)
	lever := (last.mid - second.mid) / (second.mid - first.mid)
	predicted := second.rate + (second.rate-first.rate)*lever
	predictionError := second.rateError*(1+lever) + first.rateError*lever
	if predictionError > steadyChangeTolerance*last.rate {
		return false // too imprecise to tell
	}
	return math.Abs(last.rate-predicted) <= steadyChangeTolerance*last.rate+predictionError+last.rateError
}

// stretch is the rise between two of its points.
type stretch struct {
	mid       float64 // its midpoint, in seconds after a reference point
	rate      float64 // percent per second
	rateError float64 // how far off rate may be: one progress step over its time
}

// stretch measures the rise from index a to b, its midpoint counted from
// index ref.
func (r *rise) stretch(ref, a, b int) stretch {
	from, to, at := r.points[a], r.points[b], r.points[ref].at
	gain, took := to.progress-from.progress, to.at.Sub(from.at).Seconds()
	mid := (from.at.Sub(at) + to.at.Sub(at)).Seconds() / 2
	return stretch{mid: mid, rate: gain / took, rateError: r.step / took}
}
