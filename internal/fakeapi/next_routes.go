package fakeapi

import (
	"fmt"
	"net/http"
)

// staticExportRoutes registers the static export contracts that the server
// serves (StaticExportOptions.Next, Retire) and returns the fallback: what
// serves the paths the main routes leave unrouted, nil for none. The
// contracts' paths overlap with other methods
// (POST /v1/static-export/{projectId}/jobs and
// GET /v1/static-export/jobs/{jobId} both match /v1/static-export/jobs/jobs),
// which one ServeMux refuses, so the second contract of ServeBoth, and the
// retired answers of ServeNext, are served by the fallback. A path that fits
// both shapes goes to today's contract, as no project is named "jobs".
func (s *Server) staticExportRoutes(mux *http.ServeMux) http.Handler {
	switch s.next.Contracts {
	case ServeBoth:
		s.todayRoutes(mux)
		return s.fallbackMux(s.nextRoutes)
	case ServeNext:
		s.nextRoutes(mux)
		if s.next.RetiredStatus == http.StatusGone {
			return s.fallbackMux(s.retiredRoutes)
		}
	default:
		s.todayRoutes(mux)
	}
	return nil
}

// Retire serves the project-scoped contract only from now on, as the API
// will once Mintlify retires the domain-scoped one: its calls answer status,
// http.StatusGone or http.StatusNotFound (any other value), as a path
// without a route. The jobs of both contracts, and everything else the
// server knows, are kept, so that one server can be the API before and
// after that day; Retire again to change the status.
func (s *Server) Retire(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if status != http.StatusGone {
		status = http.StatusNotFound
	}
	// Only these two fields change, and only routes reads them: the
	// handlers read the others without the lock.
	s.next.Contracts, s.next.RetiredStatus = ServeNext, status
	s.mux.Store(s.routes())
}

// fallbackMux is a ServeMux with the routes register adds, answering 404
// for anything else.
func (s *Server) fallbackMux(register func(*http.ServeMux)) http.Handler {
	mux := http.NewServeMux()
	register(mux)
	mux.HandleFunc("/", writeNoRoute)
	return mux
}

// todayRoutes are today's domain-scoped calls.
func (s *Server) todayRoutes(mux *http.ServeMux) {
	api := s.apiRoutes(mux)
	api(http.MethodPost, "/v1/static-export/jobs", s.staticExport(s.handleStartJob))
	api(http.MethodGet, "/v1/static-export/jobs/{jobId}", s.staticExport(s.handleGetJob))
	api(http.MethodPost, "/v1/static-export/jobs/{jobId}/bundle", s.staticExport(s.handleGenerateBundle))
}

// nextRoutes are the project-scoped calls.
func (s *Server) nextRoutes(mux *http.ServeMux) {
	api := s.apiRoutes(mux)
	api(http.MethodPost, "/v1/static-export/{projectId}/jobs", s.nextExport(s.handleStartProjectJob))
	api(http.MethodGet, "/v1/static-export/{projectId}/jobs/{jobId}", s.nextExport(s.handleGetProjectJob))
}

// retiredRoutes answer today's calls with 410 Gone, after the key check, as
// an API that retires a contract on purpose may. (By default, the retired
// calls answer 404 like any path without a route.)
func (s *Server) retiredRoutes(mux *http.ServeMux) {
	gone := s.requireAPIKey(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusGone, fmt.Sprintf("%s %s has been retired: static export jobs are started with "+
			"POST /v1/static-export/{projectId}/jobs and read with GET /v1/static-export/{projectId}/jobs/{jobId}",
			r.Method, r.URL.Path))
	}))
	for _, pattern := range []string{"POST /v1/static-export/jobs", "GET /v1/static-export/jobs/{jobId}",
		"POST /v1/static-export/jobs/{jobId}/bundle"} {
		mux.Handle(pattern, gone)
	}
}
