package mintlify

import (
	"time"
)

// Observation is what a poll learned about a job.
type Observation struct {
	Now    time.Time
	Status string
	// Progress is the job's completion percentage, when HasProgress.
	Progress    float64
	HasProgress bool
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

// ExponentialPolicy waits Initial, then multiplies the wait by Multiplier up
// to Max.
type ExponentialPolicy struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
}

// DefaultPollPolicy returns the policy used when none is configured.
func DefaultPollPolicy() PollPolicy {
	return ExponentialPolicy{Initial: time.Second, Max: 10 * time.Second, Multiplier: 1.5}
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
