package fakeapi

import (
	"fmt"
	"net/http"
)

// staticExportRoutes registers the static export contracts that the server
// serves (StaticExportOptions.Next). The contracts' paths overlap with other
// methods (POST /v1/static-export/{projectId}/jobs and
// GET /v1/static-export/jobs/{jobId} both match /v1/static-export/jobs/jobs),
// which one ServeMux refuses, so the second contract of ServeBoth, and the
// retired answers of ServeNext, are served by s.fallback: what the main
// routes leave unrouted. A path that fits both shapes goes to today's
// contract, as no project is named "jobs".
func (s *Server) staticExportRoutes(mux *http.ServeMux) {
	switch s.next.Contracts {
	case ServeBoth:
		s.todayRoutes(mux)
		s.fallback = s.fallbackMux(s.nextRoutes)
	case ServeNext:
		s.nextRoutes(mux)
		if s.next.RetiredStatus == http.StatusGone {
			s.fallback = s.fallbackMux(s.retiredRoutes)
		}
	default:
		s.todayRoutes(mux)
	}
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
