package fakeapi

import (
	"math"
	"math/bits"
	"time"
)

// Static export job statuses, as the API spells them.
const (
	statusQueued    = "queued"
	statusRunning   = "running"
	statusCompleted = "completed"
	statusFailed    = "failed"
)

// Defaults applied to a JobPlan's zero fields.
const (
	defaultPages          = 42
	defaultFailAtProgress = 60
	neverProgress         = 10
)

// JobPlan decides how one export job behaves over time. Its timeline starts
// when the job is created: QueueFor in `queued`, then RunFor in `running`,
// then `completed` or `failed`.
type JobPlan struct {
	// QueueFor is the time spent in `queued`, at progress 0.
	QueueFor time.Duration
	// RunFor is the time spent in `running`. Progress rises over it along
	// Curve, and pageCount with it.
	RunFor time.Duration
	// Curve shapes the rise of progress: it maps the fraction of RunFor
	// elapsed (0 to 1) to the fraction of the final progress reached (0 to
	// 1). It must be non-decreasing; its results are clamped to [0, 1]. Nil
	// means Linear. FrontLoaded, BackLoaded and Stall build the others.
	Curve func(fraction float64) float64
	// Pages is the job's total page count. Zero means len(Paths) when the
	// request listed paths, otherwise 42.
	Pages int
	// FailWith, when not empty, makes the job end `failed` with this error
	// text at the moment it would have completed. Its progress then rises
	// only to FailAtProgress and stays there.
	FailWith string
	// FailAtProgress is the progress, in percent, at which a failing job
	// stops. Zero means 60.
	FailAtProgress float64
	// Never keeps the job `running` forever once queued, with progress
	// rising over RunFor to 10 and stuck there.
	Never bool
}

// DefaultJobPlan is the plan of every job on a server without StaticExportOptions.Plan:
// two seconds queued, twenty seconds running, then completed.
var DefaultJobPlan = func(StartRequest) JobPlan {
	return JobPlan{QueueFor: 2 * time.Second, RunFor: 20 * time.Second}
}

// normalized fills the plan's defaults for req and clamps it to sane values.
func (p JobPlan) normalized(req StartRequest) JobPlan {
	p.QueueFor = max(p.QueueFor, 0)
	p.RunFor = max(p.RunFor, 0)
	if p.Pages <= 0 {
		p.Pages = defaultPages
		if len(req.Paths) > 0 {
			p.Pages = len(req.Paths)
		}
	}
	if p.FailAtProgress <= 0 || math.IsNaN(p.FailAtProgress) {
		p.FailAtProgress = defaultFailAtProgress
	}
	p.FailAtProgress = min(p.FailAtProgress, 100)
	return p
}

// exportJob is one static export job. Its state is never stored: it is
// computed from the plan and the clock at every request.
type exportJob struct {
	id        string
	req       StartRequest
	plan      JobPlan
	createdAt time.Time
	archive   *archiveLayout // described on the first successful bundle request
	// settlesIn, when not empty, is the undocumented status the job
	// reports in place of completed or failed (HostileOptions.UndocumentedStatus).
	settlesIn string
}

// jobState is a job as seen at one instant.
type jobState struct {
	Status    string
	Progress  float64
	PageCount int
	UpdatedAt time.Time
	Error     string
}

// finishedAt is the moment the job completes or fails (never reached by a
// Never plan).
func (j *exportJob) finishedAt() time.Time {
	return j.createdAt.Add(j.plan.QueueFor + j.plan.RunFor)
}

// targetTenths is the progress, in tenths of a percent, at which the job's
// progress stops rising.
func (j *exportJob) targetTenths() uint64 {
	switch {
	case j.plan.Never:
		return neverProgress * 10
	case j.plan.FailWith != "":
		return uint64(math.Round(j.plan.FailAtProgress * 10))
	default:
		return 1000
	}
}

// stateAt computes the job's state at now. Progress moves in steps of 0.1%,
// and UpdatedAt is the instant of the last step or status change, so it is
// never after now.
func (j *exportJob) stateAt(now time.Time) jobState {
	runStart := j.createdAt.Add(j.plan.QueueFor)
	if now.Before(runStart) {
		return jobState{Status: statusQueued, UpdatedAt: j.createdAt}
	}
	target := j.targetTenths()
	if !j.plan.Never && !now.Before(j.finishedAt()) {
		st := j.progressState(target, j.finishedAt())
		st.Status = statusCompleted
		if j.plan.FailWith != "" {
			st.Status, st.Error = statusFailed, j.plan.FailWith
		}
		if j.settlesIn != "" {
			st.Status, st.Error = j.settlesIn, ""
		}
		return st
	}
	steps, at := progressSteps(now.Sub(runStart), j.plan.RunFor, target)
	if j.plan.Curve != nil {
		steps, at = curveSteps(now.Sub(runStart), j.plan.RunFor, target, j.plan.Curve)
	}
	st := j.progressState(steps, runStart.Add(at))
	st.Status = statusRunning
	return st
}

// progressState fills progress, page count and update time for a job that
// has reached tenths/10 percent.
func (j *exportJob) progressState(tenths uint64, at time.Time) jobState {
	return jobState{
		Progress:  float64(tenths) / 10,
		PageCount: int(mulDiv(uint64(j.plan.Pages), tenths, 1000, false)),
		UpdatedAt: at,
	}
}

// progressSteps returns how many of target steps a linear rise over runFor
// has completed after elapsed, and the offset at which the last one was
// reached.
func progressSteps(elapsed, runFor time.Duration, target uint64) (uint64, time.Duration) {
	if target == 0 {
		return 0, 0
	}
	if elapsed >= runFor {
		return target, runFor
	}
	steps := mulDiv(uint64(elapsed), target, uint64(runFor), false)
	return steps, time.Duration(mulDiv(steps, uint64(runFor), target, true))
}

// curveSteps is progressSteps for a rise along curve.
func curveSteps(elapsed, runFor time.Duration, target uint64, curve func(float64) float64) (uint64, time.Duration) {
	if target == 0 {
		return 0, 0
	}
	if elapsed >= runFor {
		return target, runFor
	}
	stepsAt := func(d time.Duration) uint64 {
		c := curve(float64(d) / float64(runFor))
		if math.IsNaN(c) || c <= 0 {
			return 0
		}
		return min(uint64(c*float64(target)), target)
	}
	steps := stepsAt(elapsed)
	if steps == 0 {
		return 0, 0
	}
	// The earliest instant that shows this many steps: the curve is
	// non-decreasing, so bisect on [0, elapsed].
	lo, hi := time.Duration(0), elapsed
	for lo < hi {
		mid := lo + (hi-lo)/2
		if stepsAt(mid) >= steps {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return steps, lo
}

// Linear is the default progress curve: progress rises evenly over RunFor.
func Linear(x float64) float64 { return x }

// FrontLoaded is a progress curve that starts fast and slows down, as when
// the first pages are the cheap ones: the rate falls evenly from 1.5 times
// the average to half of it.
func FrontLoaded(x float64) float64 { return x + x*(1-x)/2 }

// BackLoaded is a progress curve that starts slowly and speeds up, as when
// discovering the pages precedes exporting them: the rate rises evenly from
// half the average to 1.5 times it.
func BackLoaded(x float64) float64 { return x - x*(1-x)/2 }

// Stall returns a progress curve that rises evenly but stays flat between
// the fractions from and to of RunFor, as when a job waits on a slow page.
func Stall(from, to float64) func(float64) float64 {
	from, to = max(from, 0), min(to, 1)
	stalled := max(to-from, 0)
	if stalled >= 1 {
		return func(float64) float64 { return 0 }
	}
	return func(x float64) float64 {
		active := x
		switch {
		case x >= to:
			active = x - stalled
		case x >= from:
			active = from
		}
		return active / (1 - stalled)
	}
}

// mulDiv returns a*b/c without intermediate overflow, rounded down or up.
// It requires a*b/c to fit in 64 bits.
func mulDiv(a, b, c uint64, roundUp bool) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, r := bits.Div64(hi, lo, c)
	if roundUp && r != 0 {
		q++
	}
	return q
}
