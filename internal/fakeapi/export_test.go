package fakeapi

import "time"

// What the black-box tests (package fakeapi_test) need to see of the
// fake's insides: the wire types they decode answers into, the constants
// that answers carry, and how far a job had advanced at a given moment.

type (
	JobJSON         = jobJSON
	BundleJSON      = bundleJSON
	AgentJobJSON    = agentJobJSON
	AgentSourceJSON = agentSourceJSON
	ErrorBody       = errorBody
	ProjectJobJSON  = projectJobJSON
	ServiceError    = serviceError
	S3Error         = s3Error
)

const (
	StatusQueued    = statusQueued
	StatusRunning   = statusRunning
	StatusCompleted = statusCompleted
	DisabledMessage = disabledMessage
	MaxBodyBytes    = maxBodyBytes
	TimeLayout      = timeLayout
	StoredBlockHead = storedBlockHead
	StoredBlockMax  = storedBlockMax
)

// FormatTime formats an instant the way the API does.
func FormatTime(t time.Time) string { return formatTime(t) }

// ProgressAt is the progress job id reports at t, and whether the job
// exists.
func (s *Server) ProgressAt(id string, t time.Time) (float64, bool) {
	s.mu.Lock()
	job, ok := s.jobs[id]
	s.mu.Unlock()
	if !ok {
		return 0, false
	}
	return job.stateAt(t).Progress, true
}
