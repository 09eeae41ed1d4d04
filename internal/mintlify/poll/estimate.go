package poll

import (
	"math"
	"time"
)

// Tuning of the progress estimator. internal/mintlify/poll/DESIGN.md says what each
// one buys; change them with `make bench` in view.
const (
	// riseSteps: the rate is measured over at least this many progress
	// steps, so that rounding costs it at most 1/riseSteps.
	riseSteps = 20
	// baseError is the relative error assumed for any rate, on top of
	// rounding and measured bend.
	baseError = 0.1
	// unknownBend replaces baseError on the fast side until the rise is
	// long enough to measure how it bends.
	unknownBend = 1.0
	// youngError replaces baseError on the fast side of a slowdown seen
	// within a rise's first youngLooks looks.
	youngError = 0.5
	youngLooks = 3
	// abruptSlowdownRatio: a rate that fell by more than this factor
	// between two stretches, beyond what rounding explains, slowed
	// abruptly: the job may have stalled.
	abruptSlowdownRatio = 2.0
	// recentStretches is how many stretches before the last two the
	// fastest recent rate looks back over.
	recentStretches = 1
	// steadyChangeTolerance is how far, relative to it, a rate may differ
	// from the one the stretches before foretold and still count as
	// foretold.
	steadyChangeTolerance = 0.1
	// carryTolerance is how far, relative to it, a rise's rate may differ
	// from the rate before the last stall and still carry on from it.
	carryTolerance = 0.2
)

// finishEstimate brackets the time left until a job finishes.
type finishEstimate struct {
	// ok reports an estimate. Without one, slowedAbruptly reports that the
	// rate fell abruptly; otherwise the rise is too short to tell.
	ok, slowedAbruptly bool
	// carriedOn reports that the rise resumed at the rate it had before
	// the last stall.
	carriedOn bool
	// earliest and latest bracket the finish, from the last point.
	earliest, latest time.Duration
	// stepTime is how long one progress step takes at the current rate.
	stepTime time.Duration
}

// estimateFinish brackets the finish of the rise r, given the rate of the
// rise before its last stall (carriedRate, percent per second; 0 for none).
// It is a pure function of its arguments.
//
// The rate is measured over the last riseSteps steps and compared with the
// stretch before; their ratio is the curve's bend. The bracket widens with
// rounding (a value may be up to one step behind the truth), with the bend,
// and with the chance that a stall hidden in the last stretches ends at
// any moment. A rate that fell more than abruptSlowdownRatio-fold yields
// no estimate but slowedAbruptly.
func estimateFinish(r *rise, carriedRate float64) finishEstimate {
	e, ok := measureRise(r)
	if !ok {
		return finishEstimate{}
	}
	if !e.weighLastLook() {
		return finishEstimate{slowedAbruptly: true}
	}
	carried, ok := e.weighStretchBefore(carriedRate)
	if !ok {
		return finishEstimate{slowedAbruptly: true}
	}
	return e.finish(carried)
}

// estimator is one estimate in the making.
type estimator struct {
	r      *rise
	n, j   int     // the last point, and where the measured stretch starts
	gain   float64 // progress over the measured stretch
	took   float64 // its time, in seconds
	rate   float64 // gain/took, percent per second
	left   float64 // progress left until 100
	linear float64 // seconds until the finish at rate

	// lo and hi are the earliest and latest finish in seconds from the
	// last point, before the rate's relative errors errUp (towards an
	// earlier finish) and errDown are applied.
	lo, hi         float64
	errUp, errDown float64
	// fastest is a rate the job may return to any moment, should a stall
	// hide in the last stretches; 0 for none.
	fastest float64
}

// measureRise measures the rate over the last riseSteps steps of r, or
// since its first point. It is false when progress did not rise.
func measureRise(r *rise) (*estimator, bool) {
	q, n := r.step, len(r.points)-1
	last := r.points[n]
	j, _ := r.reference(n, riseSteps*q)
	dp, dt := last.progress-r.points[j].progress, last.at.Sub(r.points[j].at).Seconds()
	if dp <= 0 || dt <= 0 {
		return nil, false
	}
	e := &estimator{r: r, n: n, j: j, gain: dp, took: dt, rate: dp / dt, left: 100 - last.progress}
	e.linear = e.left / e.rate
	e.lo, e.hi = e.linear, e.linear
	// Until the bend is measured, the rate may be rising by any
	// reasonable amount.
	e.errUp, e.errDown = unknownBend+q/dp, baseError+q/dp
	return e, true
}

// weighLastLook compares the last interval alone with the measured rate:
// false when it rose abruptly slower; a faster one is a rate that may last.
func (e *estimator) weighLastLook() bool {
	if e.n == 0 {
		return true
	}
	q, before, last := e.r.step, e.r.points[e.n-1], e.r.points[e.n]
	gain, gap := last.progress-before.progress, last.at.Sub(before.at).Seconds()
	if gap <= 0 {
		return true
	}
	if (gain+q)/gap < (e.gain-q)/e.took/abruptSlowdownRatio {
		return false
	}
	if lower := max(gain-q, 0) / gap; lower > e.rate {
		e.fastest = lower // it just picked up
	}
	return true
}

// priorStretch is the stretch before the measured one: from the point k
// when it is long (riseSteps steps or more), else from the rise's origin,
// which gives only a lower bound of its rate.
type priorStretch struct {
	from       point
	k          int
	long       bool
	gain, rate float64
}

// weighStretchBefore compares the measured rate with the stretch before
// it, and with carriedRate. It reports whether the rise carried on at
// carriedRate, and false for ok when the rate fell abruptly.
func (e *estimator) weighStretchBefore(carriedRate float64) (carried, ok bool) {
	r, q := e.r, e.r.step
	p := priorStretch{from: r.origin}
	measured := r.points[e.j].progress > r.origin.progress && r.points[e.j].at.After(r.origin.at)
	p.k, p.long = r.reference(e.j, riseSteps*q)
	if p.long {
		p.from, measured = r.points[p.k], true
	}
	// Resumed after a stall at the rate it had before: the bend is no
	// more unknown than it was then.
	carried = !p.long && carriedRate > 0 && math.Abs(e.rate/carriedRate-1) <= carryTolerance+q/e.gain
	if carried {
		e.errUp = baseError + q/e.gain + max(carriedRate/e.rate-1, 0)
	}
	if !measured {
		return carried, true
	}
	dtBefore := r.points[e.j].at.Sub(p.from.at).Seconds()
	p.gain = r.points[e.j].progress - p.from.progress
	p.rate = p.gain / dtBefore
	if (e.gain+q)/e.took < (p.gain-q)/dtBefore/abruptSlowdownRatio {
		return carried, false
	}
	if !e.bend(p, carried) {
		// A stall hidden in the last stretches looks like a slowdown and
		// may end any moment: the fastest recent rate bounds the earliest
		// finish.
		e.fastest = max(e.fastest, p.rate)
		if p.long {
			e.fastest = max(e.fastest, r.fastestRate(p.k, riseSteps*q, recentStretches, true))
		}
	}
	return carried, true
}

// bend narrows or widens the bracket by how the rate changed since the
// stretch before, through the parabola that the two rates define. It
// reports whether the change was foretold (a steady slowdown): the
// parabola is then the estimate.
func (e *estimator) bend(p priorStretch, carried bool) (foreseen bool) {
	q := e.r.step
	// Acceleration between the midpoints of the two stretches, the rate it
	// gives now, and the time the parabola takes to cover what is left.
	accel := (e.rate - p.rate) / (e.r.points[e.n].at.Sub(p.from.at).Seconds() / 2)
	quad, quadOK := quadraticTime(e.left, e.rate+accel*e.took/2, accel)
	ratio, noise := e.rate/p.rate, q/p.gain
	switch {
	case ratio >= 1 && !p.long:
		// Faster than since the origin, a lower bound: the bend stays
		// unknown (unless it carried on), but the parabola still bounds
		// the earliest finish.
		if quadOK && !carried {
			e.lo = min(e.lo, quad*(1+unknownBend))
		}
	case ratio >= 1:
		// Speeding up: the parabola is the earliest finish.
		if quadOK && quad < e.linear {
			e.lo = quad
		}
		e.errUp = baseError + q/e.gain + noise
	case p.long && quadOK && e.r.steadyChange(p.k, e.j, e.n):
		// Slowing down as the stretches before foretold.
		e.lo, e.hi = quad, quad
		e.errUp, e.errDown = baseError+q/e.gain+noise, baseError+q/e.gain+noise
		return true
	default:
		// Slowing down: the parabola is the latest finish.
		e.errUp = baseError + q/e.gain
		if e.n < youngLooks {
			// Few looks: a stretch may straddle a stall's start or end,
			// so the rate to come may be faster than any one seen.
			e.errUp = youngError + q/e.gain
		}
		e.errDown += 1 - ratio + noise
		if quadOK {
			e.hi = max(e.hi, quad)
		}
	}
	return false
}

// finish applies the fastest rate, rounding and the rate's errors.
func (e *estimator) finish(carried bool) finishEstimate {
	q := e.r.step
	if e.fastest > 0 {
		e.lo = min(e.lo, e.left/e.fastest)
	}
	// The reported progress is rounded down: the job may be up to one step
	// further along than it says.
	if e.left > 0 {
		e.lo *= max(e.left-q, 0) / e.left
	}
	return finishEstimate{
		ok:        true,
		carriedOn: carried,
		earliest:  seconds(e.lo / (1 + e.errUp)),
		latest:    seconds(e.hi / (1 - min(e.errDown, 0.9))),
		stepTime:  seconds(q / e.rate),
	}
}

// quadraticTime solves left = rate·t + accel·t²/2 for the first t > 0. A
// slowing rise that never covers left (the parabola peaks below it) is
// taken to finish at its peak.
func quadraticTime(left, rate, accel float64) (float64, bool) {
	if rate <= 0 {
		return 0, false
	}
	if math.Abs(accel) < 1e-12 {
		return left / rate, true
	}
	disc := rate*rate + 2*accel*left
	if disc < 0 {
		return -rate / accel, true
	}
	return (math.Sqrt(disc) - rate) / accel, true
}

// seconds converts a float number of seconds to a Duration, saturating.
func seconds(s float64) time.Duration {
	if s >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64
	}
	return time.Duration(s * float64(time.Second))
}
