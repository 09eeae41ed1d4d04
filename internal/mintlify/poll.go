package mintlify

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// Observation is what one status request learned about a job.
type Observation struct {
	// Now is when the answer arrived, on the client's clock.
	Now time.Time
	// Status is the job's status.
	Status string
	// Progress is the job's completion percentage, from 0 to 100, when
	// HasProgress.
	Progress    float64
	HasProgress bool
	// CreatedAt is when the job was created, on the API's clock; zero when
	// unknown. It bounds how long a job seen running at once has run.
	CreatedAt time.Time
	// UpdatedAt is when the job last changed, on the API's clock; zero
	// when unknown. It tells whether progress is moving at the moment of
	// the answer or has been flat for a while.
	UpdatedAt time.Time
}

// PollPolicy spaces the status requests of a wait.
type PollPolicy interface {
	// Start begins one wait. The schedule is used by one goroutine.
	Start(now time.Time) PollSchedule
}

// PollSchedule answers how long to sleep before the next status request.
type PollSchedule interface {
	Next(obs Observation) time.Duration
}

// DefaultPollPolicy returns the policy used when none is configured: an
// AdaptivePolicy with its defaults whose waits pace their status requests
// together (see AdaptivePolicy). A client calls it once, so all the waits
// of one client share the pacing.
func DefaultPollPolicy() PollPolicy {
	return AdaptivePolicy{pace: &pacer{}}
}

// AdaptivePolicy spaces status requests by what the job's progress says.
//
// While progress rises, it estimates when the job will finish from the
// progress seen so far and the time it took, and brackets that moment with
// its uncertainty: the reported progress is rounded down to its step (0.1 %
// or 1 %), the recent rate can differ from the rate to come, the curve can
// bend (a quadratic extrapolation follows a measured bend), and a stall
// hidden between two looks may end any moment (so the fastest recent rate
// also bounds the earliest finish). It then sleeps until one MinInterval
// past the earliest finish the bracket allows, or just past its latest,
// whichever comes first. Far from the finish the bracket is wide, so it
// sleeps through most of what is left and looks again; each look narrows
// the bracket, and once the job is inside it a request goes out at least
// every MinInterval, so completion is noticed within about MinInterval.
// Sleeps never grow beyond four times the time the current rise has been
// watched (twice, for its first estimate), plus MinInterval, so an early,
// poor estimate cannot overshoot a job by much. A slowdown that the two
// stretches before the last one foretold (the rate falling steadily,
// measured precisely enough to tell) is the curve bending: the parabola is
// the estimate. Any other slowdown keeps the margin for a hidden stall.
//
// A rate that falls abruptly is treated as a possible stall. The job's
// UpdatedAt, the instant of its last change, tells at once whether it is
// stalled (back off for about as long as it has been flat) or moving again
// (carry on at the rate before the stall, if that rise was watched long
// enough to know it). Without a usable UpdatedAt: a quick second look, then
// backoff while progress stays flat; if that quick look finds progress
// moving again, it starts the new rise at once. A rise that resumes at the
// rate it had before the stall carries on from that rise's estimate rather
// than starting over. UpdatedAt that does not move exactly when progress
// does (a heartbeat, a frozen value) is not used for the rest of the wait.
// A slowdown within a rise's first few looks keeps a wider margin on the
// fast side: its stretches may straddle a stall's start or end, so the
// rate to come may be faster than any seen.
//
// When progress says nothing (a queued job, a job without progress, flat
// progress, progress that went backwards) it backs off exponentially from
// twice MinInterval to MaxBackoff, with jitter, and starts estimating again
// once progress moves.
//
// The waits of the policy DefaultPollPolicy returns also pace their status
// requests together, so that many exports in one apply yield to an API that
// pushes back. An answer that took a second or more (the request had to
// wait out a 429 and its Retry-After, or worse) or a request still refused
// with 429 halves their combined request rate, measured over the last 10 s
// (at most once every 2 s, never below one request a second); 5 s after the
// last cut it grows again by half a request a second, every second, and is
// no longer limited past 20. Calls that are not status polls, such as
// starting an export, get the room.
type AdaptivePolicy struct {
	// MinInterval is the shortest time between two status requests of one
	// job. Defaults to one second.
	MinInterval time.Duration
	// MaxBackoff caps the backoff while progress says nothing. Defaults to
	// 30 seconds, so a stalled job costs at most one request per 30 s.
	MaxBackoff time.Duration
	// Rand returns a uniform number in [0, 1) for jitter. Nil uses
	// math/rand/v2; tests inject a seeded source to be deterministic. A
	// schedule calls it from one goroutine at a time, but schedules of
	// concurrent waits share it.
	Rand func() float64

	// pace, when set, spaces the status requests of every wait started
	// from this policy value together; DefaultPollPolicy sets one.
	pace *pacer
}

// Tuning of AdaptivePolicy. The simulation in internal/cmd/pollbench shows
// what they buy; change them with its table in view.
const (
	// growthFactor bounds a sleep to this multiple of the time the current
	// rise has been watched, plus MinInterval: the estimate earns longer
	// sleeps as it is proven. The first estimate of a rise, from two looks,
	// grows by firstGrowth only.
	growthFactor = 4.0
	firstGrowth  = 2.0
	// baseError is the relative error assumed for any rate estimate, on top
	// of rounding and measured acceleration; unknownBend replaces it on the
	// fast side until the rise is long enough to measure its acceleration.
	baseError   = 0.1
	unknownBend = 1.0
	// erraticRatio: a rate that fell by more than this factor between two
	// stretches of a rise is erratic (a sleep crossed a stall, say): no
	// estimate until the job shows whether it stalled or slowed down.
	erraticRatio = 2.0
	// riseSteps is how many progress steps a rate is measured over, at
	// least, so rounding costs it at most 1/riseSteps.
	riseSteps = 20
	// arrivalMargin is how long after the latest possible finish a request
	// is aimed, so that it does not arrive a hair early.
	arrivalMargin = 50 * time.Millisecond
	// stallSteps: flat progress for this many expected steps (plus two
	// MinIntervals) means the job stalled.
	stallSteps = 3
	// backoffJitter lengthens each backoff sleep by up to this fraction;
	// farJitter shortens long estimated sleeps by up to this fraction. Both
	// spread the requests of jobs started together.
	backoffJitter = 0.2
	farJitter     = 0.1
	// youngError replaces baseError on the fast side of a slowdown seen
	// within a rise's first youngLooks looks.
	youngError = 0.5
	youngLooks = 3
	// recentStretches is how many stretches before the last two the
	// fastest recent rate looks back over.
	recentStretches = 1
	// foreseenError is how far, relative to it, a rate may differ from the
	// one the stretches before foretold and still count as foretold.
	foreseenError = 0.1
	// carryError is how far a rise's rate may differ from the one before
	// the last stall and still carry on from it.
	carryError = 0.2
	// maxRisePoints bounds the observations a schedule keeps.
	maxRisePoints = 256
)

// Start implements PollPolicy.
func (p AdaptivePolicy) Start(now time.Time) PollSchedule {
	if p.MinInterval <= 0 {
		p.MinInterval = time.Second
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = 30 * time.Second
	}
	p.MaxBackoff = max(p.MaxBackoff, p.MinInterval)
	if p.Rand == nil {
		p.Rand = rand.Float64
	}
	return &adaptiveSchedule{policy: p, last: now, quantum: 1, tick: time.Second}
}

// point is one observation of a rising job.
type point struct {
	at       time.Time
	progress float64
}

type adaptiveSchedule struct {
	policy AdaptivePolicy

	started bool
	last    time.Time // the previous observation
	status  string
	backoff time.Duration // the last backoff step; 0 restarts it

	// The current rise: progress observed since it last started moving
	// (at the start of running, after a stall, or after it went back).
	origin  point // the rise began after this moment, from this progress
	rise    []point
	changed time.Time // when the current progress value was first seen
	stalled bool
	step    time.Duration // how long a progress step took, by the last estimate
	quantum float64       // the coarsest step every progress value is a multiple of

	// The rise before the last stall: its fastest recent rate (percent per
	// second; 0 for none) and how long it was watched. A rise that resumes
	// at that rate carries on from it rather than starting over.
	before        float64
	beforeWatched time.Duration

	// The API's clock, from UpdatedAt: offset is the least difference
	// between an answer's arrival and its UpdatedAt (the client's clock
	// ahead of the API's, plus the time since the last change when that
	// was least), and tick the coarsest resolution UpdatedAt is given in.
	offset   time.Duration
	offsetOK bool
	tick     time.Duration
	// The last UpdatedAt seen, with its progress; untrusted once UpdatedAt
	// moved without progress or progress without UpdatedAt: it means
	// something else then, and the schedule goes on without it.
	updated   point
	untrusted bool
}

// Next implements PollSchedule.
func (s *adaptiveSchedule) Next(obs Observation) time.Duration {
	now, prev := obs.Now, s.last
	s.last = now
	if !s.started || obs.Status != s.status {
		origin := prev
		if !s.started {
			// Seen running at once: it has run at most since it was created.
			origin = now
			if !obs.CreatedAt.IsZero() && obs.CreatedAt.Before(now) {
				origin = obs.CreatedAt
			}
		}
		s.started, s.status, s.step = true, obs.Status, 0
		s.restart(point{at: origin}) // a new status starts from 0 %
	}
	if !obs.HasProgress || math.IsNaN(obs.Progress) {
		return s.backoffStep()
	}
	p := min(max(obs.Progress, 0), 100)
	s.noteQuantum(p)
	s.noteUpdate(obs, p)

	if len(s.rise) == 0 {
		s.rise, s.changed = append(s.rise, point{now, p}), now
		return s.probe() // one point gives no rate
	}
	lastP := s.rise[len(s.rise)-1].progress
	switch {
	case p < lastP, p > lastP && s.stalled:
		// Progress went back, or moved again after a stall: what came
		// before says nothing about the rate now. Start a new rise that
		// began after the previous look.
		resumed := p > lastP && now.Sub(prev) <= 2*s.policy.MinInterval
		if p > lastP {
			s.resume(prev, lastP)
		} else {
			s.restart(point{prev, lastP})
		}
		if !resumed {
			s.rise, s.changed = append(s.rise, point{now, p}), now
			if s.movingNow(obs) {
				return s.carriedSleep(p)
			}
			return s.probe()
		}
		// Moved again right after a quick look at the stall: that look
		// already anchors the new rise, so it needs no probe of its own.
		s.addPoint(point{prev, lastP})
		s.changed = now
	case p > lastP:
		s.changed, s.backoff = now, 0
	case s.stalled:
		return s.backoffStep()
	}
	s.addPoint(point{now, p})

	est := s.estimate()
	if est.ok {
		s.step = est.step
	}
	if est.erratic {
		// Slowed down so abruptly that it may have stalled. If UpdatedAt
		// tells, it is flat now (back off for about as long as it has been
		// flat) or moving again (carry on at the rate before the stall).
		// Otherwise look again soon; while progress stays flat, back off;
		// once it moves, start a new rise.
		if flat, ok := s.flatFor(obs); ok && flat > s.stallAfter() {
			s.stalled, s.backoff = true, min(flat, s.policy.MaxBackoff)
			return s.jitterUp(max(s.backoff, 2*s.policy.MinInterval))
		}
		if s.movingNow(obs) {
			s.resume(prev, lastP)
			s.rise, s.changed = append(s.rise, point{now, p}), now
			return s.carriedSleep(p)
		}
		s.stalled = true
		return s.probe()
	}
	if p == lastP && s.flatTooLong(now) {
		s.stalled = true
		return s.backoffStep()
	}
	if !est.ok {
		// No rate yet: look again soon, then less often.
		return s.backoffStep()
	}

	// Poll one MinInterval past the earliest finish, or just past the
	// latest, whichever comes first.
	d := min(est.lo+s.policy.MinInterval, est.hi+arrivalMargin)
	growth, watched := growthFactor, now.Sub(s.rise[0].at)
	switch {
	case est.carried:
		// Resumed at the rate it had before the stall: that rise's watch
		// counts too.
		watched += s.beforeWatched
	case len(s.rise) == 2:
		growth = firstGrowth
	}
	return s.aimed(min(d, time.Duration(growth*float64(watched))+s.policy.MinInterval))
}

// aimed is an estimated sleep d as slept: a long one shortened by up to
// farJitter, none shorter than MinInterval.
func (s *adaptiveSchedule) aimed(d time.Duration) time.Duration {
	if d > 10*s.policy.MinInterval {
		d = time.Duration(float64(d) * (1 - farJitter*s.policy.Rand()))
	}
	return max(d, s.policy.MinInterval)
}

// resume starts a new rise after the previous look, from lastP. If the
// current rise was watched for youngLooks stretches or more, it keeps its
// fastest measured rate and how long it was watched: the job may carry on
// at that rate. (The stretch from a rise's origin gives only a lower bound,
// and in a younger rise every stretch may straddle the stall's start.)
func (s *adaptiveSchedule) resume(prev time.Time, lastP float64) {
	var before float64
	var watched time.Duration
	if n := len(s.rise) - 1; n >= youngLooks {
		before = s.fastestRate(n, riseSteps*s.quantum, maxRisePoints, false)
		watched = s.rise[n].at.Sub(s.rise[0].at)
	}
	s.restart(point{prev, lastP})
	s.before, s.beforeWatched = before, watched
}

// carriedSleep is the wait after the first look at a rise that resumed
// after a stall and is moving: it assumes the rate before the stall, up to
// carryError faster, and grows no more than that rise had earned. Without
// such a rate it probes.
func (s *adaptiveSchedule) carriedSleep(p float64) time.Duration {
	if s.before <= 0 {
		return s.probe()
	}
	lo := seconds((100 - p) / (s.before * (1 + carryError)))
	return s.aimed(min(lo+s.policy.MinInterval, time.Duration(growthFactor*float64(s.beforeWatched))+s.policy.MinInterval))
}

// noteUpdate learns the API's clock from a running job's UpdatedAt, at
// progress p: the least gap between an answer's arrival and its UpdatedAt,
// and the resolution UpdatedAt is given in. An UpdatedAt that does not move
// exactly when progress does is not the instant of the last step, and is
// no longer used.
func (s *adaptiveSchedule) noteUpdate(obs Observation, p float64) {
	if obs.UpdatedAt.IsZero() || s.untrusted {
		return
	}
	if !s.updated.at.IsZero() {
		moved, stepped := obs.UpdatedAt.Compare(s.updated.at), p != s.updated.progress
		if moved < 0 || (moved > 0) != stepped {
			s.untrusted, s.offsetOK = true, false
			return
		}
	}
	s.updated = point{obs.UpdatedAt, p}
	for s.tick > time.Millisecond && obs.UpdatedAt.Truncate(s.tick) != obs.UpdatedAt {
		s.tick /= 10
	}
	if gap := obs.Now.Sub(obs.UpdatedAt); !s.offsetOK || gap < s.offset {
		s.offset, s.offsetOK = gap, true
	}
}

// flatFor estimates how long progress had been flat when obs was
// answered, from its UpdatedAt: the gap between the answer's arrival and
// UpdatedAt, less the least such gap seen. It is false without UpdatedAt.
func (s *adaptiveSchedule) flatFor(obs Observation) (time.Duration, bool) {
	if obs.UpdatedAt.IsZero() || !s.offsetOK {
		return 0, false
	}
	return max(obs.Now.Sub(obs.UpdatedAt)-s.offset, 0), true
}

// movingNow reports whether UpdatedAt shows progress moving when obs was
// answered: its last step came within a few steps at the fastest rate the
// rise has shown, give or take UpdatedAt's resolution.
func (s *adaptiveSchedule) movingNow(obs Observation) bool {
	flat, ok := s.flatFor(obs)
	return ok && flat <= s.fastSteps(stallSteps)+s.tick+arrivalMargin
}

// stallAfter is how long progress must have been flat, by UpdatedAt, to
// count as stalled: several steps at the fastest rate the rise has shown,
// two MinIntervals and UpdatedAt's resolution.
func (s *adaptiveSchedule) stallAfter() time.Duration {
	return s.fastSteps(stallSteps) + 2*s.policy.MinInterval + s.tick
}

// fastSteps is how long n progress steps take at the fastest rate the
// current rise has shown (or the one before the last stall).
func (s *adaptiveSchedule) fastSteps(n float64) time.Duration {
	rate := s.before
	if len(s.rise) > 1 {
		rate = max(rate, s.fastestRate(len(s.rise)-1, riseSteps*s.quantum, maxRisePoints, true))
	}
	if rate <= 0 {
		return 0
	}
	return seconds(n * s.quantum / rate)
}

// flatTooLong reports whether progress has been flat for longer than the
// rate seen so far explains: several steps' worth and two MinIntervals or,
// with no rate yet, longer than the rise had been going before.
func (s *adaptiveSchedule) flatTooLong(now time.Time) bool {
	flat := now.Sub(s.changed)
	if s.step > 0 {
		return flat > stallSteps*s.step+2*s.policy.MinInterval
	}
	return flat > max(2*s.policy.MinInterval, s.changed.Sub(s.origin.at))
}

// restart forgets the current rise, and any rate carried from before a
// stall; the next one begins after origin.
func (s *adaptiveSchedule) restart(origin point) {
	s.origin, s.rise, s.stalled, s.backoff = origin, s.rise[:0], false, 0
	s.before, s.beforeWatched = 0, 0
}

// backoffStep doubles the backoff from twice MinInterval up to MaxBackoff
// and lengthens it by a random fraction.
func (s *adaptiveSchedule) backoffStep() time.Duration {
	s.backoff = min(max(2*s.backoff, 2*s.policy.MinInterval), s.policy.MaxBackoff)
	return s.jitterUp(s.backoff)
}

// probe is the short wait after the first moving observation of a rise: a
// second one a MinInterval later gives the rate.
func (s *adaptiveSchedule) probe() time.Duration {
	return s.jitterUp(s.policy.MinInterval)
}

// jitterUp lengthens d by a random fraction of up to backoffJitter.
func (s *adaptiveSchedule) jitterUp(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (1 + backoffJitter*s.policy.Rand()))
}

func (s *adaptiveSchedule) addPoint(pt point) {
	if len(s.rise) == maxRisePoints {
		// Keep the first point, which anchors the long-run rate.
		s.rise = append(s.rise[:1], s.rise[2:]...)
	}
	s.rise = append(s.rise, pt)
}

// noteQuantum narrows the progress step to one that p is a multiple of:
// whole percents, tenths, hundredths or thousandths.
func (s *adaptiveSchedule) noteQuantum(p float64) {
	for s.quantum > 0.001 {
		steps := p / s.quantum
		if math.Abs(steps-math.Round(steps)) < 1e-6 {
			return
		}
		s.quantum /= 10
	}
}

// finishEstimate brackets the time left until the job finishes.
type finishEstimate struct {
	// ok reports an estimate; without one, erratic reports that the rate
	// fell abruptly, beyond what rounding explains. carried reports that
	// the rise resumed at the rate it had before a stall.
	ok, erratic, carried bool
	lo, hi               time.Duration // earliest and latest plausible finish, from now
	step                 time.Duration // how long one progress step takes at the current rate
}

// estimate brackets the finish from the current rise.
//
// It measures the rate over the last riseSteps steps of progress, so that
// rounding costs it at most 1/riseSteps, and the rate over the stretch
// before that (or, early on, since the rise's origin, a lower bound). Their
// ratio is the curve's bend: speeding up, a quadratic extrapolation gives
// the earliest finish; slowing down, the latest. The error bounds widen with
// rounding and with the bend. A stall hidden in the last stretches may end
// at any moment, so the fastest recent rate also bounds the earliest finish.
// A rate that fell abruptly, beyond what rounding explains, is erratic.
func (s *adaptiveSchedule) estimate() finishEstimate {
	q := s.quantum
	n := len(s.rise) - 1
	last := s.rise[n]
	j, _ := s.reference(n, riseSteps*q) // else the whole rise
	dp, dt := last.progress-s.rise[j].progress, last.at.Sub(s.rise[j].at).Seconds()
	if dp <= 0 || dt <= 0 {
		return finishEstimate{}
	}
	rate := dp / dt // percent per second
	left := 100 - last.progress
	linear := left / rate
	lo, hi := linear, linear
	// Relative error of the rate, upwards and downwards. Until the bend is
	// measured, the rate may be rising by any reasonable amount.
	errUp, errDown := unknownBend+q/dp, baseError+q/dp
	fastest := 0.0

	// The last interval alone.
	if n > 0 {
		before := s.rise[n-1]
		rise, gap := last.progress-before.progress, last.at.Sub(before.at).Seconds()
		if gap > 0 {
			if (rise+q)/gap < (dp-q)/dt/erraticRatio {
				return finishEstimate{erratic: true}
			}
			if lower := max(rise-q, 0) / gap; lower > rate {
				fastest = lower // it just picked up
			}
		}
	}

	// The stretch before the last one.
	prior, ok := s.origin, s.rise[j].progress > s.origin.progress && s.rise[j].at.After(s.origin.at)
	k, long := s.reference(j, riseSteps*q)
	if long {
		prior, ok = s.rise[k], true
	}
	foreseen := false
	// Resumed after a stall at the rate it had before: the bend is no
	// more unknown than it was then.
	carried := !long && s.resumedAsBefore(rate, q/dp)
	if carried {
		errUp = baseError + q/dp + max(s.before/rate-1, 0)
	}
	if ok {
		dpBefore, dtBefore := s.rise[j].progress-prior.progress, s.rise[j].at.Sub(prior.at).Seconds()
		rateBefore := dpBefore / dtBefore
		if (dp+q)/dt < (dpBefore-q)/dtBefore/erraticRatio {
			return finishEstimate{erratic: true}
		}
		// Acceleration between the midpoints of the two stretches, the rate
		// it gives now, and the time the parabola takes to cover what is left.
		accel := (rate - rateBefore) / (last.at.Sub(prior.at).Seconds() / 2)
		quad, quadOK := quadraticTime(left, rate+accel*dt/2, accel)
		ratio, noise := rate/rateBefore, q/dpBefore
		switch {
		case ratio >= 1 && !long:
			// Faster than since the origin: that rate is only a lower bound,
			// so the bend stays unknown (unless it resumed as before the
			// stall), but the parabola through it (too steep, if anything)
			// still bounds the earliest finish.
			if quadOK && !carried {
				lo = min(lo, quad*(1+unknownBend))
			}
		case ratio >= 1:
			// Speeding up: the parabola is the earliest finish.
			if quadOK && quad < linear {
				lo = quad
			}
			errUp = baseError + q/dp + noise
		case long && quadOK && s.foreseen(k, j, n):
			// Slowing down as the stretches before foretold: a smooth
			// slowdown, not a stall hidden in the last stretch. The
			// parabola is the estimate.
			lo, hi = quad, quad
			errUp, errDown = baseError+q/dp+noise, baseError+q/dp+noise
			foreseen = true
		default:
			// Slowing down: the parabola is the latest finish.
			errUp = baseError + q/dp
			if n < youngLooks {
				// Few looks: a stretch may straddle a stall's start or end,
				// so the rate to come may be faster than any one seen.
				errUp = youngError + q/dp
			}
			errDown += 1 - ratio + noise
			if quadOK {
				hi = max(hi, quad)
			}
		}
		// A stall hidden in the last stretches looks like a slowdown and
		// may end any moment: the fastest recent rate bounds the earliest
		// finish.
		if !foreseen {
			fastest = max(fastest, rateBefore)
			if long {
				fastest = max(fastest, s.fastestRate(k, riseSteps*q, recentStretches, true))
			}
		}
	}
	if fastest > 0 {
		lo = min(lo, left/fastest)
	}

	// The reported progress is rounded down: the job may be up to one step
	// further along than it says.
	if left > 0 {
		lo *= max(left-q, 0) / left
	}
	return finishEstimate{
		ok:      true,
		carried: carried,
		lo:      seconds(lo / (1 + errUp)),
		hi:      seconds(hi / (1 - min(errDown, 0.9))),
		step:    seconds(q / rate),
	}
}

// resumedAsBefore reports whether a rise measured at rate, with relative
// error noise, goes as fast as the rise before the last stall did.
func (s *adaptiveSchedule) resumedAsBefore(rate, noise float64) bool {
	return s.before > 0 && math.Abs(rate/s.before-1) <= carryError+noise
}

// foreseen reports whether the rate of the last stretch, from index j to
// n, is the one the two stretches before it (from k back) foretold, the
// rate changing steadily over time, and they were measured precisely
// enough to tell. A slowdown they foretold is the curve bending, not a
// stall hidden in the last stretch.
func (s *adaptiveSchedule) foreseen(k, j, n int) bool {
	q := s.quantum
	i, long := s.reference(k, riseSteps*q)
	if !long {
		return false
	}
	type stretch struct{ mid, rate, err float64 }
	measure := func(a, b point) stretch {
		dp, dt := b.progress-a.progress, b.at.Sub(a.at).Seconds()
		mid := (a.at.Sub(s.rise[i].at) + b.at.Sub(s.rise[i].at)).Seconds() / 2
		return stretch{mid, dp / dt, q / dt} // a rate off by up to one step
	}
	first, second, last := measure(s.rise[i], s.rise[k]), measure(s.rise[k], s.rise[j]), measure(s.rise[j], s.rise[n])
	lever := (last.mid - second.mid) / (second.mid - first.mid)
	predicted := second.rate + (second.rate-first.rate)*lever
	predErr := second.err*(1+lever) + first.err*lever
	if predErr > foreseenError*last.rate {
		return false // too imprecise to tell
	}
	return math.Abs(last.rate-predicted) <= foreseenError*last.rate+predErr+last.err
}

// fastestRate returns the highest rate over at most stretches stretches of
// at least rise that end at or before index i, counting the stretch from
// the rise's origin (a lower bound) when it is reached if withOrigin.
func (s *adaptiveSchedule) fastestRate(i int, rise float64, stretches int, withOrigin bool) float64 {
	fastest := 0.0
	for range stretches {
		k, long := s.reference(i, rise)
		if !long && !withOrigin {
			break
		}
		prior := s.origin
		if long {
			prior = s.rise[k]
		}
		dp, dt := s.rise[i].progress-prior.progress, s.rise[i].at.Sub(prior.at).Seconds()
		if dp > 0 && dt > 0 {
			fastest = max(fastest, dp/dt)
		}
		if !long {
			break
		}
		i = k
	}
	return fastest
}

// reference returns the latest index before i whose progress is at least
// rise below that of i, or 0 and false if there is none.
func (s *adaptiveSchedule) reference(i int, rise float64) (int, bool) {
	for k := i - 1; k >= 0; k-- {
		if s.rise[i].progress-s.rise[k].progress >= rise {
			return k, true
		}
	}
	return 0, false
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

// ExponentialPolicy waits Initial, then multiplies the wait by Multiplier up
// to Max. With Initial = Max it is a fixed-interval loop, such as the
// vendor's documented 10-second one.
type ExponentialPolicy struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
}

// Start implements PollPolicy.
func (p ExponentialPolicy) Start(time.Time) PollSchedule {
	return &exponentialSchedule{policy: p}
}

type exponentialSchedule struct {
	policy ExponentialPolicy
	next   time.Duration
}

func (s *exponentialSchedule) Next(Observation) time.Duration {
	if s.next == 0 {
		s.next = s.policy.Initial
	} else {
		s.next = time.Duration(float64(s.next) * s.policy.Multiplier)
	}
	if s.next > s.policy.Max {
		s.next = s.policy.Max
	}
	return s.next
}

// pollFunc makes one status request. done ends the wait with err; an error
// without done is a failed request.
type pollFunc func(ctx context.Context) (obs Observation, done bool, err error)

// rateLimitPause is how long a wait pauses after a status request that was
// still rate limited once its retries ran out, when the API named no
// Retry-After.
const rateLimitPause = 10 * time.Second

// wait runs poll until it is done, spacing the requests with the client's
// PollPolicy (and its pacer, if it has one) and never sleeping past ctx's
// deadline. first, when not nil, is a status the caller has just received
// (the answer to starting the job): the schedule starts from it, and the
// first request waits as long as the schedule says; otherwise it goes out
// at once. A status request that is still rate limited (429) after the
// request's own retries pauses for the API's Retry-After and goes on; any
// other failure ends the wait. It returns ctx.Err() once ctx ends.
func (c *Client) wait(ctx context.Context, first *Observation, poll pollFunc) error {
	schedule := c.pollPolicy.Start(c.clock.Now())
	pace := pacerOf(c.pollPolicy)
	due := c.clock.Now()
	if first != nil {
		obs := *first
		obs.Now = due
		due = due.Add(schedule.Next(obs))
	}
	for {
		at := due
		if pace != nil {
			at = pace.slot(c.clock.Now(), due)
		}
		if d := at.Sub(c.clock.Now()); d > 0 {
			if err := c.sleepWithin(ctx, d); err != nil {
				return err
			}
		}
		sent := c.clock.Now()
		obs, done, err := poll(ctx)
		if done {
			return err
		}
		now := c.clock.Now()
		var d time.Duration
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			pause, limited := rateLimited(err)
			if !limited {
				return err
			}
			pace.pushback(now)
			d = pause
		} else {
			if now.Sub(sent) >= slowAnswer {
				pace.pushback(now)
			}
			obs.Now = now
			d = schedule.Next(obs)
		}
		due = now.Add(d)
	}
}

// rateLimited reports whether err is a 429 whose retries ran out (not one
// stopped by the caller's deadline or cancellation), and how long to pause.
func rateLimited(err error) (time.Duration, bool) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	var retryErr *RetryError
	if errors.As(err, &retryErr) && retryErr.Stop != nil {
		return 0, false
	}
	if apiErr.RetryAfter > 0 {
		return max(apiErr.RetryAfter, time.Second), true
	}
	return rateLimitPause, true
}

// sleepWithin sleeps for d, or until ctx's deadline on the client's clock if
// that comes first: a sleep never outlasts the deadline, so the caller's
// timeout fires on time rather than up to a poll interval late.
func (c *Client) sleepWithin(ctx context.Context, d time.Duration) error {
	if deadline, ok := clock.Deadline(ctx); ok {
		if left := deadline.Sub(c.clock.Now()); left > 0 && left < d {
			d = left
		}
	}
	return c.clock.Sleep(ctx, d)
}

// Pacing of the waits that share a pacer: additive increase, multiplicative
// decrease of their combined request rate, as TCP does with its window.
const (
	// slowAnswer: a status answer this slow waited out a 429 and its
	// Retry-After inside the request's retries (or the API is struggling):
	// the API pushed back.
	slowAnswer = time.Second
	// paceWindow is how far back the combined request rate is measured.
	paceWindow = 10 * time.Second
	// A pushback halves the rate measured over paceWindow; pushbacks within
	// paceHold of the last cut are the same congestion and do not count.
	paceHold = 2 * time.Second
	// paceCalm after the last cut, the rate grows by paceStep requests a
	// second, every second; past maxPaceRate it is no longer limited.
	paceCalm    = 5 * time.Second
	paceStep    = 0.5
	minPaceRate = 1.0
	maxPaceRate = 20.0
)

// pacer spaces the status requests of the waits that share it, so that
// together they yield to an API that pushes back and leave room for the
// calls that matter more, such as starting an export. It hands out request
// times; once the API pushed back, they are at least 1/rate apart. A nil
// *pacer paces nothing.
type pacer struct {
	mu   sync.Mutex
	rate float64   // requests a second at the last cut; 0 for no limit
	cut  time.Time // when the rate was last cut
	// times handed out, sorted: the recent ones measure the combined rate,
	// the upcoming ones are kept clear of.
	times []time.Time
}

// pacerOf returns the pacer a policy shares among its waits, or nil.
func pacerOf(p PollPolicy) *pacer {
	if a, ok := p.(AdaptivePolicy); ok {
		return a.pace
	}
	return nil
}

// rateAt is the allowed rate at now, 0 for no limit: the last cut's, grown
// by paceStep a second after a calm spell.
func (p *pacer) rateAt(now time.Time) float64 {
	if p.rate == 0 {
		return 0
	}
	rate := p.rate
	if calm := now.Sub(p.cut) - paceCalm; calm > 0 {
		rate += paceStep * calm.Seconds()
	}
	if rate > maxPaceRate {
		return 0
	}
	return rate
}

// pushback halves the combined rate of the last paceWindow.
func (p *pacer) pushback(now time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rate != 0 && now.Sub(p.cut) < paceHold {
		return
	}
	recent := 0
	for _, t := range p.times {
		if !t.Before(now.Add(-paceWindow)) && !t.After(now) {
			recent++
		}
	}
	measured := float64(recent) / paceWindow.Seconds()
	if allowed := p.rateAt(now); allowed != 0 {
		measured = min(measured, allowed)
	}
	p.rate, p.cut = max(measured/2, minPaceRate), now
}

// slot returns the earliest moment at or after want that is at least
// 1/rate away from every request time already handed out, and books it.
func (p *pacer) slot(now, want time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	stale := 0
	for stale < len(p.times) && p.times[stale].Before(now.Add(-paceWindow)) {
		stale++
	}
	p.times = p.times[stale:]
	at, i := want, 0
	if rate := p.rateAt(now); rate != 0 {
		gap := time.Duration(float64(time.Second) / rate)
		for ; i < len(p.times); i++ {
			t := p.times[i]
			if !at.Add(gap).After(t) {
				break // at is a gap before t, and so before every later time
			}
			if at.Before(t.Add(gap)) {
				at = t.Add(gap)
			}
		}
	} else {
		i, _ = slices.BinarySearchFunc(p.times, at, time.Time.Compare)
	}
	p.times = slices.Insert(p.times, i, at)
	return at
}
