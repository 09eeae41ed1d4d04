package fakeapi

import (
	"slices"
	"strings"
	"time"
)

// Request is one request the server answered, recorded for assertions.
type Request struct {
	// Method is the HTTP method.
	Method string
	// Path is the unescaped URL path as the server saw it (after any
	// http.StripPrefix).
	Path string
	// Authorized reports whether the request carried the server's API key.
	Authorized bool
	// UserAgent is the User-Agent header.
	UserAgent string
	// Body is the request body (up to 1 MiB).
	Body []byte
	// At is when the server received the request, on its clock.
	At time.Time
	// Status is the response status code; 0 for a dropped connection.
	Status int
	// Response is the answer's body when it is JSON, as every API answer
	// is (up to 1 MiB); nil for presigned downloads and dropped
	// connections.
	Response []byte
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
}

// Requests returns a copy of every recorded request, oldest first,
// including presigned downloads.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		r.Body, r.Response = slices.Clone(r.Body), slices.Clone(r.Response)
		out[i] = r
	}
	return out
}

// Count returns how many recorded requests used method (any method when
// empty) on a URL path starting with pathPrefix.
func (s *Server) Count(method, pathPrefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if (method == "" || r.Method == method) && strings.HasPrefix(r.Path, pathPrefix) {
			n++
		}
	}
	return n
}

// ExportJobsStarted returns how many static export jobs were started: the
// start requests the handler answered 202, including those whose answer a
// LoseAnswer fault kept from the client.
func (s *Server) ExportJobsStarted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.jobIDs)
}

// BundlesGenerated returns how many bundle links were handed out: the
// generate-bundle calls that succeeded (answered 200), and the completed
// statuses of the next contract, each of which carries a fresh link.
func (s *Server) BundlesGenerated() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bundles
}

// JobIDs returns the ids of the started static export jobs, oldest first.
func (s *Server) JobIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.jobIDs)
}

// ProjectJobIDs returns the ids of the jobs started through the next
// contract (StaticExportOptions.Next), oldest first.
func (s *Server) ProjectJobIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.projectJobIDs)
}

// AgentJobsCreated returns how many agent jobs were created through the API
// (answered 201); seeded jobs do not count.
func (s *Server) AgentJobsCreated() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.agentJobIDs)
}

// AgentJobIDs returns the ids of the agent jobs created through the API,
// oldest first.
func (s *Server) AgentJobIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.agentJobIDs)
}

// AgentMessagesSent returns how many follow-up messages were taken
// (answered 200).
func (s *Server) AgentMessagesSent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agentMessages
}

// Reset forgets the recorded requests. Jobs, agent jobs and the counts
// (ExportJobsStarted, BundlesGenerated, AgentJobsCreated,
// AgentMessagesSent) are kept.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// JobStatusAt returns the status static export job jobID (of either
// contract) had at t, and
// false when the server has no such job (never started, or forgotten).
func (s *Server) JobStatusAt(jobID string, t time.Time) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if job, ok := s.jobs[jobID]; ok {
		return job.stateAt(t).Status, true
	}
	if job, ok := s.projectJobs[jobID]; ok {
		return job.stateAt(t).Status, true
	}
	return "", false
}

// ForgetJob deletes a static export job of either contract, as if the
// platform had purged it: from now on its status and bundle calls answer
// 404. It still counts in ExportJobsStarted and JobIDs (ProjectJobIDs).
func (s *Server) ForgetJob(jobID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.jobs, jobID)
	delete(s.projectJobs, jobID)
}
