package poll

import (
	"math"
	"testing"
	"time"
)

// curveRise is a rise that began at start from 0 %, seen every `every`
// seconds from second `from` to second `to`, with progress curve(t) rounded
// down to 0.1 % (1 % when whole is set).
func curveRise(from, to, every int, whole bool, curve func(t float64) float64) *rise {
	r := newRise()
	r.restart(point{at: start})
	for t := from; t <= to; t += every {
		p := math.Floor(curve(float64(t))*10) / 10
		if whole {
			p = math.Floor(curve(float64(t)))
		}
		r.noteStep(p)
		r.add(point{start.Add(time.Duration(t) * time.Second), p})
	}
	return &r
}

func linear(t float64) float64 { return t }

// secs is a float number of seconds as a Duration.
func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// TestEstimateFinish brackets hand-written rises. Where the expected
// figures are written as arithmetic, the comment says where each number
// comes from; elsewhere the test checks that the bracket holds the true
// finish and how wide it is.
func TestEstimateFinish(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		r       *rise
		carried float64
		// want, when ok: exact figures (to a millisecond).
		want finishEstimate
		// truth, when not zero: the true time left, which the bracket must
		// hold, at most width wide.
		truth, width time.Duration
	}{
		{name: "one point gives no rate", r: curveRise(10, 10, 1, true, linear)},
		{name: "a short linear rise: the bend is unknown, the bracket wide",
			// 1 %/s, measured over the last 20 steps (20 % to 40 %); 60 % left.
			// Earliest: 59 % (one step may be done already) at up to
			// 1 + 1/20 + 100 % faster (the bend is unknown); latest: 60 %
			// at up to 10 % + 1/20 slower.
			r:    curveRise(10, 40, 1, true, linear),
			want: finishEstimate{ok: true, earliest: secs(59 / 2.05), latest: secs(60 / 0.85), stepTime: time.Second}},
		{name: "a long linear rise: the bend is measured, the bracket narrows",
			// 40 % left at 1 %/s; the stretch before (20 % to 40 %) went as
			// fast, so the rate is known within 10 % + 1/20 + 1/20.
			r:    curveRise(1, 60, 1, true, linear),
			want: finishEstimate{ok: true, earliest: secs(39 / 1.2), latest: secs(40 / 0.85), stepTime: time.Second}},
		{name: "one step in 20 s after 1 %/s: slowed abruptly",
			r:    withPoint(curveRise(1, 40, 1, true, linear), 60, 41),
			want: finishEstimate{slowedAbruptly: true}},
		{name: "resumed at the rate before the stall: the bend is as known as it was",
			// From 40 % at 100 s, 1 %/s again, as before the stall: 57 %
			// left at up to 10 % + 100 % (one step over one) faster.
			r: &rise{origin: point{start.Add(100 * time.Second), 40}, step: 1, points: []point{
				{start.Add(101 * time.Second), 41}, {start.Add(102 * time.Second), 42},
			}},
			carried: 1,
			want:    finishEstimate{ok: true, carriedOn: true, earliest: secs(57 / 2.1), latest: secs(58 / 0.1), stepTime: time.Second}},
		{name: "the same rise with nothing carried: a wider bracket",
			// As above, but the bend is unknown: up to 200 % faster.
			r: &rise{origin: point{start.Add(100 * time.Second), 40}, step: 1, points: []point{
				{start.Add(101 * time.Second), 41}, {start.Add(102 * time.Second), 42},
			}},
			want: finishEstimate{ok: true, earliest: secs(57 / 3.0), latest: secs(58 / 0.1), stepTime: time.Second}},
		{name: "speeding up (t²/100): the bracket holds the finish",
			r:     curveRise(1, 60, 1, false, func(t float64) float64 { return t * t / 100 }),
			truth: 40 * time.Second, width: 31 * time.Second},
		{name: "slowing down, seen in 1 s stretches (2t - t²/200): too imprecise to call, a wide bracket",
			r:     curveRise(1, 40, 1, false, func(t float64) float64 { return 2*t - t*t/200 }),
			truth: secs(200 - math.Sqrt(20000) - 40), width: 7 * time.Second},
		{name: "slowing down as foretold, seen in 5 s stretches: the parabola, within 10 % and the steps",
			r:     curveRise(5, 40, 5, false, func(t float64) float64 { return 2*t - t*t/200 }),
			truth: secs(200 - math.Sqrt(20000) - 40), width: 5 * time.Second},
		{name: "a front-loaded curve: the bracket holds the finish",
			r:     curveRise(1, 30, 1, false, func(t float64) float64 { return 100 * (1.5*t/60 - 0.5*(t/60)*(t/60)) }),
			truth: 30 * time.Second, width: 20 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := estimateFinish(c.r, c.carried)
			if c.truth != 0 {
				if !got.ok || got.earliest > c.truth || got.latest < c.truth || got.latest-got.earliest > c.width {
					t.Errorf("estimate %+v, want a bracket at most %s wide around %s", got, c.width, c.truth)
				}
				return
			}
			near := func(a, b time.Duration) bool { return (a - b).Abs() < time.Millisecond }
			if got.ok != c.want.ok || got.slowedAbruptly != c.want.slowedAbruptly || got.carriedOn != c.want.carriedOn ||
				!near(got.earliest, c.want.earliest) || !near(got.latest, c.want.latest) || !near(got.stepTime, c.want.stepTime) {
				t.Errorf("estimate %+v, want %+v", got, c.want)
			}
		})
	}
}

// withPoint adds progress p at second at to r.
func withPoint(r *rise, at int, p float64) *rise {
	r.add(point{start.Add(time.Duration(at) * time.Second), p})
	return r
}

// TestEstimateFinishIsPure: the estimator neither changes the rise nor
// depends on anything but its arguments.
func TestEstimateFinishIsPure(t *testing.T) {
	t.Parallel()
	r := curveRise(1, 60, 1, false, func(t float64) float64 { return t * t / 100 })
	before := append([]point(nil), r.points...)
	a, b := estimateFinish(r, 0.5), estimateFinish(r, 0.5)
	if a != b {
		t.Errorf("two estimates of the same rise differ: %+v, %+v", a, b)
	}
	for i := range before {
		if r.points[i] != before[i] {
			t.Fatalf("the estimate changed the rise at %d", i)
		}
	}
}

// TestRise: the step is the coarsest that every value is a multiple of,
// and a full rise keeps its first point.
func TestRise(t *testing.T) {
	t.Parallel()
	steps := []struct {
		values []float64
		want   float64
	}{
		{[]float64{0, 10, 55}, 1},
		{[]float64{10, 10.5}, 0.1},
		{[]float64{10, 10.25, 11}, 0.01},
		{[]float64{33.333}, 0.001},
		{[]float64{33.33333}, 0.001},
	}
	for _, s := range steps {
		r := newRise()
		for _, v := range s.values {
			r.noteStep(v)
		}
		if r.step != s.want {
			t.Errorf("values %v: step %v, want %v", s.values, r.step, s.want)
		}
	}
	r := newRise()
	for i := range maxRisePoints + 10 {
		r.add(point{start.Add(time.Duration(i) * time.Second), float64(i) / 10})
	}
	if len(r.points) != maxRisePoints || r.points[0].progress != 0 || r.last().progress != float64(maxRisePoints+9)/10 {
		t.Errorf("full rise: %d points from %v to %v", len(r.points), r.points[0], r.last())
	}
}
