package fakeapi

import (
	"testing"
	"time"
)

func TestCurveStepsMatchLinear(t *testing.T) {
	// A linear curve through the curve path gives what the exact linear
	// path gives.
	runFor := 73 * time.Second
	for _, elapsed := range []time.Duration{0, time.Millisecond, 7 * time.Second, 36500 * time.Millisecond, 72 * time.Second, runFor} {
		s1, at1 := progressSteps(elapsed, runFor, 1000)
		s2, at2 := curveSteps(elapsed, runFor, 1000, Linear)
		if s1 != s2 || (at1-at2).Abs() > time.Microsecond {
			t.Errorf("elapsed %v: linear %d at %v, curve %d at %v", elapsed, s1, at1, s2, at2)
		}
	}
}
