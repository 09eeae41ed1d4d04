// Package fakeapi is an in-memory Mintlify admin API: an http.Handler that
// follows Mintlify's OpenAPI descriptions (static export jobs, bundle links,
// agent jobs, deployments, previews and automations) so the client, the
// provider and the demo can run without the internet. Static export is
// served in today's domain-scoped contract, in the next, project-scoped one
// (StaticExportOptions.Next), or in both at once. Time comes from a clock.Clock, so tests move time instead of
// waiting for it.
package fakeapi

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// DefaultAPIKey is the admin API key a Server accepts unless KeyOptions.APIKey
// says otherwise.
const DefaultAPIKey = "mint_fake_admin_key_0123456789"

// maxBodyBytes bounds the request bodies the server reads and records.
const maxBodyBytes = 1 << 20

// timeLayout is how the API writes timestamps: RFC 3339 in UTC with
// milliseconds, as JavaScript's Date.toISOString does. Formatting truncates,
// so a timestamp is never after the moment it describes.
const timeLayout = "2006-01-02T15:04:05.000Z"

// Server is the fake API. It implements http.Handler and is safe for
// concurrent use.
type Server struct {
	// Settings, fixed after New.
	clock                clock.Clock
	apiKey               string
	staticExportDisabled bool
	bareRefusals         bool // keys.go
	jobPlan              func(StartRequest) JobPlan
	agentPlan            func(AgentJobRequest) AgentJobPlan
	projects             []string // nil: every project exists
	linkTTL              time.Duration
	downloadBase         string
	archiveFor           func(StartRequest) Archive
	signingKey           []byte
	// mux serves every route; Retire swaps it while requests are served.
	mux     atomic.Pointer[http.ServeMux]
	faults  faultState   // rate limit and injected faults (faults.go)
	hostile hostileState // hostile scenarios (hostile.go)
	next    NextExport   // the project-scoped contract (next_options.go)

	mu        sync.Mutex
	jobs      map[string]*exportJob
	jobIDs    []string
	agentJobs map[agentJobKey]*agentJob
	requests  []Request
	bundles   int
	keyLimits KeyLimits // keys.go

	// Jobs of the project-scoped contract (next_export.go).
	projectJobs   map[string]*projectJob
	projectJobIDs []string

	agentJobIDs   []string // created through the API, oldest first
	agentMessages int
	pullRequests  int

	// Deployments, previews and automations (deployments.go,
	// previews_automations.go, automation_webhook.go) and their documented
	// rate limits (limits.go).
	deploymentPlan   func(DeploymentRequest) DeploymentPlan
	previewsDisabled bool
	windows          *slidingWindows
	plainLimits      bool // LimitOptions.PlainText
	deployments      map[string]*deployment
	deploymentIDs    []string
	automations      map[string]Automation
	automationRuns   []AutomationRun
	idCounter        int
}

// New returns a Server with no jobs, configured by opts.
func New(opts ...Option) *Server {
	s := &Server{
		clock:      clock.Real(),
		apiKey:     DefaultAPIKey,
		jobPlan:    DefaultJobPlan,
		agentPlan:  DefaultAgentJobPlan,
		linkTTL:    time.Hour,
		signingKey: make([]byte, 32),
		jobs:       make(map[string]*exportJob),
		agentJobs:  make(map[agentJobKey]*agentJob),

		projectJobs: make(map[string]*projectJob),

		deploymentPlan: DefaultDeploymentPlan,
		windows:        documentedWindows(),
		deployments:    make(map[string]*deployment),
		automations:    make(map[string]Automation),
	}
	_, _ = rand.Read(s.signingKey) // never fails since Go 1.24
	for _, opt := range opts {
		opt(s)
	}
	s.mux.Store(s.routes())
	return s
}

// routes registers every route. Each path also gets a method-less pattern,
// which ServeMux ranks below the method-specific one, so a wrong method gets
// a 405 with an error body instead of ServeMux's plain-text one. The two
// static export contracts cannot share one ServeMux (their paths overlap
// with different methods), so the second one sits in a fallback, which
// serves what the main routes do not (next_routes.go).
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	api := s.apiRoutes(mux)
	fallback := s.staticExportRoutes(mux)
	api(http.MethodPost, "/v2/agent/{projectId}/job", s.limited(groupAgentPrompts, s.handleCreateAgentJob))
	api(http.MethodGet, "/v2/agent/{projectId}/job/{id}", s.handleGetAgentJob)
	api(http.MethodPost, "/v2/agent/{projectId}/job/{id}/message", s.limited(groupAgentPrompts, s.handleSendAgentJobMessage))
	api(http.MethodPost, "/v1/project/update/{projectId}", s.limited(groupTriggers, s.handleTriggerDeployment))
	api(http.MethodGet, "/v1/project/update-status/{statusId}", s.handleGetDeployment)
	api(http.MethodPost, "/v1/project/preview/{projectId}", s.limited(groupPreviews, s.handleTriggerPreview))
	api(http.MethodPost, "/v1/workflow/{projectId}/{workflowSchemaId}/trigger", s.limited(groupTriggers, s.handleTriggerAutomation))
	api(http.MethodPost, "/v2/workflow/{projectId}/{workflowSchemaId}/webhook", s.limited(groupTriggers, s.handleTriggerAutomationWebhook))

	// The presigned downloads stand in for S3: no API key, S3-style errors.
	s3 := func(pattern string, h http.HandlerFunc) {
		mux.HandleFunc("GET "+pattern, h)
		mux.Handle(pattern, methodNotAllowed(http.MethodGet, func(w http.ResponseWriter, status int, msg string) {
			writeS3Error(w, status, "MethodNotAllowed", msg)
		}))
	}
	s3(bundlePathPattern, s.handleDownload)
	s3(exportPathPattern, s.handleExportDownload)

	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if fallback != nil {
			fallback.ServeHTTP(w, r)
			return
		}
		writeNoRoute(w, r)
	})
	return mux
}

// apiRoutes returns the function that registers an API route on mux: the
// API key is required, and a wrong method answers 405.
func (s *Server) apiRoutes(mux *http.ServeMux) func(method, path string, h http.HandlerFunc) {
	return func(method, path string, h http.HandlerFunc) {
		mux.Handle(method+" "+path, s.requireAPIKey(h))
		mux.Handle(path, methodNotAllowed(method, writeError))
	}
}

// writeNoRoute answers a path that no route serves.
func writeNoRoute(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("No route for %s %s", r.Method, r.URL.Path))
}

// ServeHTTP serves one request and records it for Requests. API requests
// pass the rate limiter and the fault rules first (faults.go); a dropped
// connection is recorded with Status 0.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := s.clock.Now()
	if r.Body == nil { // possible for requests built by hand in tests
		r.Body = http.NoBody
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	r.Body = io.NopCloser(bytes.NewReader(body))
	sw := &answerWriter{ResponseWriter: w}
	var tooLarge *http.MaxBytesError
	drop := false
	switch {
	case errors.As(err, &tooLarge):
		writeError(sw, http.StatusRequestEntityTooLarge, fmt.Sprintf("Request body exceeds %d bytes", tooLarge.Limit))
	case err != nil:
		writeError(sw, http.StatusBadRequest, "Could not read the request body")
	default:
		drop = s.serveAPI(sw, r) // the rate limit and injected faults, then the routes
	}
	status, response := sw.status(), sw.json()
	if drop {
		status, response = 0, nil // no answer
	}
	s.record(Request{
		Method:     r.Method,
		Path:       r.URL.Path,
		Authorized: s.authorized(r),
		UserAgent:  r.UserAgent(),
		Body:       body,
		At:         at,
		Status:     status,
		Response:   response,
	})
	if drop {
		dropConnection(w)
	}
}

// authorized reports whether r carries "Authorization: Bearer <the key>".
func (s *Server) authorized(r *http.Request) bool {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(key)), []byte(s.apiKey)) == 1
}

// requireAPIKey answers 401 unless the request carries the server's key,
// and 401 or 403 when the key's limits refuse the request (keys.go). The
// message never repeats what the caller sent.
func (s *Server) requireAPIKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.authorized(r) {
			s.refuse(w, http.StatusUnauthorized, "Invalid or missing API key")
			return
		}
		if status, msg := s.keyRefusal(r); status != 0 {
			s.refuse(w, status, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// methodNotAllowed answers 405 for a path that only serves allowed.
func methodNotAllowed(allowed string, write func(http.ResponseWriter, int, string)) http.Handler {
	if allowed == http.MethodGet {
		allowed += ", " + http.MethodHead // ServeMux serves HEAD with GET
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allowed)
		write(w, http.StatusMethodNotAllowed, fmt.Sprintf("Method %s is not allowed on %s; use %s", r.Method, r.URL.Path, allowed))
	})
}

// writeJSON writes v as the JSON response body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"error":"Internal error encoding the response"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// writeError writes the API's error shape: {"error": "<message>"}.
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, errorBody{Error: message})
}

type errorBody struct {
	Error string `json:"error"`
}

// formatTime renders t the way the API does.
func formatTime(t time.Time) string {
	return t.UTC().Format(timeLayout)
}

// answerWriter passes an answer through and keeps its status code and, when
// it is JSON, a copy of its body (up to maxBodyBytes).
type answerWriter struct {
	http.ResponseWriter
	code int
	body bytes.Buffer
}

func (w *answerWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *answerWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.isJSON() && w.body.Len()+len(b) <= maxBodyBytes {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *answerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *answerWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

func (w *answerWriter) isJSON() bool {
	return strings.HasPrefix(w.Header().Get("Content-Type"), "application/json")
}

// json returns the JSON body written, or nil.
func (w *answerWriter) json() []byte {
	if w.body.Len() == 0 {
		return nil
	}
	return bytes.Clone(w.body.Bytes())
}
