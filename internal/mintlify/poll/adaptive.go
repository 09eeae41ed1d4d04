package poll

import (
	"math"
	"math/rand/v2"
	"time"
)

// Adaptive is the policy that spaces status requests by what the job's
// progress says.
//
// While progress rises, it estimates when the job will finish and sleeps
// until just past the earliest finish the estimate allows, then looks at
// least every MinInterval: completion is noticed within about MinInterval.
// No sleep is longer than a few times how long the current rise has been
// watched, so a poor early estimate cannot overshoot by much. When progress
// says nothing (no progress, a queued job, progress flat for longer than its
// rate explains, or gone back) it backs off from twice MinInterval to
// MaxBackoff, with jitter. A job's UpdatedAt, while it moves exactly when
// progress does, tells a stall from a resumed job at one look. It never
// asks sooner than MinInterval after the previous answer.
//
// internal/mintlify/poll/DESIGN.md explains the estimate and its tuning.
type Adaptive struct {
	// MinInterval is the shortest time between two status requests of one
	// job. Defaults to one second.
	MinInterval time.Duration
	// MaxBackoff caps the backoff while progress says nothing. Defaults to
	// 30 seconds, so a stalled job costs at most one request per 30 s
	// (plus jitter).
	MaxBackoff time.Duration
	// Rand returns a uniform number in [0, 1) for jitter. Nil uses
	// math/rand/v2; tests inject a seeded source to be deterministic. A
	// schedule calls it from one goroutine at a time, but schedules of
	// concurrent waits share it.
	Rand func() float64
}

// Tuning of the Adaptive policy; the estimator's is in estimate.go.
const (
	// growthFactor bounds a sleep to this multiple of the time the current
	// rise has been watched, plus MinInterval. The first estimate of a
	// rise, from two looks, grows by firstGrowth only.
	growthFactor = 4.0
	firstGrowth  = 2.0
	// arrivalMargin is how long after the latest possible finish a request
	// is aimed, so that it does not arrive a hair early.
	arrivalMargin = 50 * time.Millisecond
	// stallSteps: flat progress for this many expected steps (plus two
	// MinIntervals) means the job stalled.
	stallSteps = 3
	// backoffJitter lengthens each backoff wait and probe by up to this
	// fraction; farJitter shortens estimated sleeps longer than ten
	// MinIntervals by up to this fraction. Both spread the requests of
	// jobs started together.
	backoffJitter = 0.2
	farJitter     = 0.1
)

// Start implements Policy.
func (p Adaptive) Start(now time.Time) Schedule {
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
	return &adaptiveSchedule{
		policy:  p,
		last:    now,
		rise:    newRise(),
		updates: newUpdatedAtTracker(),
		backoff: backoff{first: 2 * p.MinInterval, limit: p.MaxBackoff, factor: 2, jitter: backoffJitter, rand: p.Rand},
	}
}

// adaptiveSchedule is one wait of an Adaptive policy: it keeps the current
// rise for the estimator, the updatedAt tracker, and the backoff for when
// progress says nothing, and picks between them.
type adaptiveSchedule struct {
	policy  Adaptive // with its defaults
	backoff backoff
	updates updatedAtTracker

	started bool
	last    time.Time // when the previous status arrived
	status  string

	rise     rise
	changed  time.Time     // when the current progress value was first seen
	stalled  bool          // flat for longer than the rate explains
	stepTime time.Duration // how long a progress step took, by the last estimate

	// The rise before the last stall: its fastest recent rate (percent per
	// second; 0 for none) and how long it was watched. A rise that resumes
	// at that rate carries on from it rather than starting over.
	carriedRate    float64
	carriedWatched time.Duration
}

// Next implements Schedule.
func (s *adaptiveSchedule) Next(obs Observation) time.Duration {
	prev := s.last
	s.last = obs.Now
	s.noteStatus(obs, prev)
	if !obs.HasProgress || math.IsNaN(obs.Progress) {
		return s.backoff.next()
	}
	p := min(max(obs.Progress, 0), 100)
	s.rise.noteStep(p)
	s.updates.observe(obs.Now, obs.UpdatedAt, p)
	if len(s.rise.points) == 0 {
		s.begin(obs.Now, p)
		return s.probe() // one point gives no rate
	}
	lastP := s.rise.last().progress
	if d, decided := s.follow(obs, prev, lastP, p); decided {
		return d
	}
	return s.sleep(obs, prev, lastP, p)
}

// noteStatus starts a new rise from 0 % when the status changes. A job
// seen running at its first look has run at most since it was created.
func (s *adaptiveSchedule) noteStatus(obs Observation, prev time.Time) {
	if s.started && obs.Status == s.status {
		return
	}
	origin := prev
	if !s.started {
		origin = obs.Now
		if !obs.CreatedAt.IsZero() && obs.CreatedAt.Before(obs.Now) {
			origin = obs.CreatedAt
		}
	}
	s.started, s.status, s.stepTime = true, obs.Status, 0
	s.restart(point{at: origin})
}

// follow moves the rise on to progress p, seen after lastP at the previous
// look (prev). It returns the wait when the look decides it without an
// estimate.
func (s *adaptiveSchedule) follow(obs Observation, prev time.Time, lastP, p float64) (time.Duration, bool) {
	switch {
	case p < lastP, p > lastP && s.stalled:
		return s.startOver(obs, prev, lastP, p)
	case p > lastP:
		s.changed = obs.Now
		s.backoff.reset()
	case s.stalled:
		return s.backoff.next(), true
	}
	s.rise.add(point{obs.Now, p})
	return 0, false
}

// startOver begins a new rise after the previous look, because progress
// went back or moved again after a stall: what came before says nothing
// about the rate now.
func (s *adaptiveSchedule) startOver(obs Observation, prev time.Time, lastP, p float64) (time.Duration, bool) {
	resumed := p > lastP && obs.Now.Sub(prev) <= 2*s.policy.MinInterval
	if p > lastP {
		s.resume(prev, lastP)
	} else {
		s.restart(point{prev, lastP})
	}
	if !resumed {
		s.begin(obs.Now, p)
		if s.movingNow(obs) {
			return s.carriedSleep(p), true
		}
		return s.probe(), true
	}
	// Moved again right after a quick look at the stall: that look already
	// anchors the new rise, so it needs no probe of its own.
	s.rise.add(point{prev, lastP})
	s.changed = obs.Now
	s.rise.add(point{obs.Now, p})
	return 0, false
}

// sleep is the wait after a look that extended the rise: towards the
// estimated finish, or a backoff when there is none.
func (s *adaptiveSchedule) sleep(obs Observation, prev time.Time, lastP, p float64) time.Duration {
	est := estimateFinish(&s.rise, s.carriedRate)
	if est.ok {
		s.stepTime = est.stepTime
	}
	switch {
	case est.slowedAbruptly:
		return s.afterAbruptSlowdown(obs, prev, lastP, p)
	case p == lastP && s.flatTooLong(obs.Now):
		s.stalled = true
		return s.backoff.next()
	case !est.ok:
		// No rate yet: look again soon, then less often.
		return s.backoff.next()
	}
	return s.towardsFinish(est, obs.Now)
}

// afterAbruptSlowdown decides what a job that may have stalled is doing.
// If UpdatedAt tells, it is flat now (back off for about as long as it has
// been flat) or moving again (carry on at the rate before the stall).
// Otherwise look again soon; while progress stays flat, back off; once it
// moves, start a new rise.
func (s *adaptiveSchedule) afterAbruptSlowdown(obs Observation, prev time.Time, lastP, p float64) time.Duration {
	if flat, ok := s.updates.flatFor(obs.Now, obs.UpdatedAt); ok && flat > s.stallAfter() {
		s.stalled = true
		return s.backoff.hold(flat)
	}
	if s.movingNow(obs) {
		s.resume(prev, lastP)
		s.begin(obs.Now, p)
		return s.carriedSleep(p)
	}
	s.stalled = true
	return s.probe()
}

// towardsFinish sleeps until one MinInterval past the earliest finish, or
// just past the latest, whichever comes first, but no longer than the
// rise's watch has earned.
func (s *adaptiveSchedule) towardsFinish(est finishEstimate, now time.Time) time.Duration {
	d := min(est.earliest+s.policy.MinInterval, est.latest+arrivalMargin)
	growth, watched := growthFactor, now.Sub(s.rise.points[0].at)
	switch {
	case est.carriedOn:
		// Resumed at the rate it had before the stall: that rise's watch
		// counts too.
		watched += s.carriedWatched
	case len(s.rise.points) == 2:
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

// begin starts the rise at its first moving point.
func (s *adaptiveSchedule) begin(now time.Time, p float64) {
	s.rise.add(point{now, p})
	s.changed = now
}

// restart forgets the current rise, and any rate carried from before a
// stall; the next one begins after origin.
func (s *adaptiveSchedule) restart(origin point) {
	s.rise.restart(origin)
	s.stalled = false
	s.backoff.reset()
	s.carriedRate, s.carriedWatched = 0, 0
}

// resume starts a new rise after the previous look, from lastP. If the
// current rise was watched for youngLooks stretches or more, it keeps its
// fastest measured rate and how long it was watched: the job may carry on
// at that rate. (The stretch from a rise's origin gives only a lower bound,
// and in a younger rise every stretch may straddle the stall's start.)
func (s *adaptiveSchedule) resume(prev time.Time, lastP float64) {
	var rate float64
	var watched time.Duration
	if n := len(s.rise.points) - 1; n >= youngLooks {
		rate = s.rise.fastestRate(n, riseSteps*s.rise.step, maxRisePoints, false)
		watched = s.rise.points[n].at.Sub(s.rise.points[0].at)
	}
	s.restart(point{prev, lastP})
	s.carriedRate, s.carriedWatched = rate, watched
}

// carriedSleep is the wait after the first look at a rise that resumed
// after a stall and is moving: it assumes the rate before the stall, up to
// carryTolerance faster, and grows no more than that rise had earned.
// Without such a rate it probes.
func (s *adaptiveSchedule) carriedSleep(p float64) time.Duration {
	if s.carriedRate <= 0 {
		return s.probe()
	}
	earliest := seconds((100 - p) / (s.carriedRate * (1 + carryTolerance)))
	return s.aimed(min(earliest+s.policy.MinInterval, time.Duration(growthFactor*float64(s.carriedWatched))+s.policy.MinInterval))
}

// movingNow reports whether UpdatedAt shows progress moving when obs was
// answered: its last step came within a few steps at the fastest rate the
// rise has shown, give or take UpdatedAt's resolution.
func (s *adaptiveSchedule) movingNow(obs Observation) bool {
	flat, ok := s.updates.flatFor(obs.Now, obs.UpdatedAt)
	return ok && flat <= s.fastSteps(stallSteps)+s.updates.resolution+arrivalMargin
}

// stallAfter is how long progress must have been flat, by UpdatedAt, to
// count as stalled: several steps at the fastest rate the rise has shown,
// two MinIntervals and UpdatedAt's resolution.
func (s *adaptiveSchedule) stallAfter() time.Duration {
	return s.fastSteps(stallSteps) + 2*s.policy.MinInterval + s.updates.resolution
}

// fastSteps is how long n progress steps take at the fastest rate the
// current rise has shown (or the one before the last stall).
func (s *adaptiveSchedule) fastSteps(n float64) time.Duration {
	rate := s.carriedRate
	if len(s.rise.points) > 1 {
		rate = max(rate, s.rise.fastestRate(len(s.rise.points)-1, riseSteps*s.rise.step, maxRisePoints, true))
	}
	if rate <= 0 {
		return 0
	}
	return seconds(n * s.rise.step / rate)
}

// flatTooLong reports whether progress has been flat for longer than the
// rate seen so far explains: several steps' worth and two MinIntervals or,
// with no rate yet, longer than the rise had been going before.
func (s *adaptiveSchedule) flatTooLong(now time.Time) bool {
	flat := now.Sub(s.changed)
	if s.stepTime > 0 {
		return flat > stallSteps*s.stepTime+2*s.policy.MinInterval
	}
	return flat > max(2*s.policy.MinInterval, s.changed.Sub(s.rise.origin.at))
}

// probe is the short wait after the first moving look at a rise: a second
// one a MinInterval later gives the rate.
func (s *adaptiveSchedule) probe() time.Duration {
	return s.backoff.lengthen(s.policy.MinInterval)
}
