package fakeapi_test

import (
	"math"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

func TestCurvesRiseFromZeroToOne(t *testing.T) {
	curves := map[string]func(float64) float64{
		"Linear":      fakeapi.Linear,
		"FrontLoaded": fakeapi.FrontLoaded,
		"BackLoaded":  fakeapi.BackLoaded,
		"Stall":       fakeapi.Stall(0.3, 0.6),
	}
	for name, c := range curves {
		if c(0) != 0 || math.Abs(c(1)-1) > 1e-12 {
			t.Errorf("%s: from %v to %v, want 0 to 1", name, c(0), c(1))
		}
		prev := 0.0
		for i := 1; i <= 1000; i++ {
			v := c(float64(i) / 1000)
			if v < prev {
				t.Fatalf("%s falls at %v: %v after %v", name, float64(i)/1000, v, prev)
			}
			prev = v
		}
	}
	// The shapes: fast then slow, slow then fast, flat in the middle.
	if fakeapi.FrontLoaded(0.5) <= 0.5 || fakeapi.BackLoaded(0.5) >= 0.5 {
		t.Errorf("FrontLoaded(0.5) = %v, BackLoaded(0.5) = %v", fakeapi.FrontLoaded(0.5), fakeapi.BackLoaded(0.5))
	}
	stall := fakeapi.Stall(0.3, 0.6)
	if stall(0.3) != stall(0.59) || stall(0.3) <= 0 || stall(0.61) <= stall(0.6) {
		t.Errorf("Stall(0.3, 0.6): %v at 0.3, %v at 0.59, %v at 0.61", stall(0.3), stall(0.59), stall(0.61))
	}
	if full := fakeapi.Stall(0, 1); full(0.5) != 0 {
		t.Errorf("a stall over the whole run still rises: %v", full(0.5))
	}
}

// TestJobOnCurve: a job on a curve reports the curve's progress, rounded
// down to 0.1 %, and updatedAt is the earliest instant that shows it.
func TestJobOnCurve(t *testing.T) {
	const runFor = 100 * time.Second
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{QueueFor: time.Second, RunFor: runFor, Pages: 1000, Curve: fakeapi.BackLoaded}
	}}))
	id := h.startJob(t, map[string]any{"domain": "docs.example.com"}).JobID
	for _, at := range []time.Duration{0, 10 * time.Second, 37*time.Second + 300*time.Millisecond, 50 * time.Second, 99 * time.Second} {
		h.clock.Set(testStart.Add(time.Second + at))
		got := h.getJob(t, id)
		want := math.Floor(fakeapi.BackLoaded(at.Seconds()/runFor.Seconds())*1000+1e-9) / 10
		if got.Status != fakeapi.StatusRunning || math.Abs(got.Progress-want) > 1e-9 || got.PageCount != int(math.Round(want*10)) {
			t.Errorf("at +%v: %+v, want running at %v%%", at, got, want)
		}
		// The step was reached within the millisecond updatedAt names (it
		// is truncated to milliseconds), and not before.
		updated, err := time.Parse(fakeapi.TimeLayout, got.UpdatedAt)
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := h.fake.ProgressAt(id, updated.Add(time.Millisecond)); p != got.Progress && at > 0 {
			t.Errorf("at +%v: just after updatedAt %s the progress was %v, want %v", at, got.UpdatedAt, p, got.Progress)
		}
		if p, _ := h.fake.ProgressAt(id, updated.Add(-time.Nanosecond)); p >= got.Progress && got.Progress > 0 {
			t.Errorf("at +%v: just before updatedAt the progress was already %v", at, p)
		}
	}
	h.clock.Set(testStart.Add(time.Second + runFor))
	if got := h.getJob(t, id); got.Status != fakeapi.StatusCompleted || got.Progress != 100 {
		t.Errorf("at the end: %+v", got)
	}
}
