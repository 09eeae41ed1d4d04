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
	// Status is the response status code; 0 when the connection was
	// dropped (DropConnection, LoseAnswer).
	Status int
	// At is the server clock's time when the request was answered.
	At time.Time
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
		r.Body = slices.Clone(r.Body)
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

// BundlesGenerated returns how many generate-bundle calls succeeded
// (answered 200).
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

// Reset forgets the recorded requests. Jobs, agent jobs and the
// ExportJobsStarted and BundlesGenerated counts are kept.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// JobStatusAt returns the status static export job jobID had at t, and
// false when the server has no such job (never started, or forgotten).
func (s *Server) JobStatusAt(jobID string, t time.Time) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	job, ok := s.jobs[jobID]
	if !ok {
		return "", false
	}
	return job.stateAt(t).Status, true
}

// ForgetJob deletes a static export job, as if the platform had purged it:
// from now on its status and bundle calls answer 404. It still counts in
// ExportJobsStarted and JobIDs.
func (s *Server) ForgetJob(jobID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.jobs, jobID)
}
