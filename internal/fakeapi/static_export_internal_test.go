package fakeapi

import (
	"reflect"
	"testing"
	"time"
)

func TestProgressStepsLongRuns(t *testing.T) {
	// A 200-day run would overflow a naive elapsed*1000 in int64.
	runFor := 200 * 24 * time.Hour
	steps, at := progressSteps(runFor/2, runFor, 1000)
	if steps != 500 || at != runFor/2 {
		t.Errorf("progressSteps(half) = %d, %v; want 500, %v", steps, at, runFor/2)
	}
}

func TestJobPlanNormalized(t *testing.T) {
	tests := []struct {
		name string
		plan JobPlan
		req  StartRequest
		want JobPlan
	}{
		{"defaults", JobPlan{}, StartRequest{}, JobPlan{Pages: 42, FailAtProgress: 60}},
		{"pages from paths", JobPlan{}, StartRequest{Paths: []string{"a", "b"}}, JobPlan{Pages: 2, FailAtProgress: 60}},
		{"explicit pages win", JobPlan{Pages: 7}, StartRequest{Paths: []string{"a"}}, JobPlan{Pages: 7, FailAtProgress: 60}},
		{"negative durations", JobPlan{QueueFor: -time.Second, RunFor: -time.Second}, StartRequest{}, JobPlan{Pages: 42, FailAtProgress: 60}},
		{"progress capped", JobPlan{FailAtProgress: 150}, StartRequest{}, JobPlan{Pages: 42, FailAtProgress: 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// JobPlan holds a func (Curve), so it is compared with DeepEqual.
			if got := tt.plan.normalized(tt.req); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("normalized = %+v, want %+v", got, tt.want)
			}
		})
	}
}
