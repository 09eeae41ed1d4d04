package poll

import (
	"math/rand/v2"
	"time"
)

// start is when the hand-written waits begin.
var start = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// The statuses of the hand-written answers: a policy only tells one status
// from another.
const (
	statusQueued  = "queued"
	statusRunning = "running"
)

// seeded returns an Adaptive policy whose jitter is repeatable.
func seeded(seed uint64) Adaptive {
	return Adaptive{Rand: rand.New(rand.NewPCG(seed, 1)).Float64}
}
