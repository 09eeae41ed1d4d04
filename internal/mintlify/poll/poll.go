// Package poll decides when a client asks again about a job it waits for:
// the policies that space the status requests of one wait (Adaptive, which
// sleeps towards the finish the job's progress predicts, and Exponential),
// and the Pacer that spaces the requests of all of a client's waits
// together. It is plain Go: it makes no request and holds no clock, so each
// part is tested on hand-written inputs. internal/mintlify/poll/DESIGN.md explains
// the parts and their tuning.
package poll

import "time"

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

// Policy spaces the status requests of a wait.
type Policy interface {
	// Start begins one wait. The schedule is used by one goroutine.
	Start(now time.Time) Schedule
}

// Schedule answers how long to sleep before the next status request.
type Schedule interface {
	// Next is called with each status of the job, in order, and returns
	// how long to wait from obs.Now before the next request.
	Next(obs Observation) time.Duration
}
