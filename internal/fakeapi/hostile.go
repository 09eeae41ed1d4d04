package fakeapi

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Hostile scenarios: a server that answers within HTTP but against the
// client's interests, as a compromised or broken API or storage host could.
// Each is a field of HostileOptions, chosen per test. Together with the faults of faults.go
// (such as TooManyRequests(24 * time.Hour), a Retry-After of a day) and
// StaticExportOptions.DownloadHost (links to another host, such as a plain-http one), they
// cover what the client must never trust.
//
// Some of them break the contract on purpose (HostileOptions.UndocumentedStatus): serve
// those without the contract checker.

// hostileState is the server's hostile scenarios; its zero value has none.
type hostileState struct {
	// status replaces the final status of every job when not empty.
	status string
	// redirectTo is where downloads reaching another host are redirected.
	redirectTo *url.URL
	// storageError answers every download when not nil.
	storageError *s3Error
	storageCode  int
	// jobIDs, when not nil, names every new export and agent job,
	// deployment and automation run.
	jobIDs func() string
	// unannounced hides every archive's size: sizeBytes 0, no
	// Content-Length.
	unannounced bool
}

// WithMessage returns f with message as the text of its error body, in
// place of the usual one: a status fault whose message is ten kilobytes
// long, holds control characters or quotes a presigned link.
func (f Fault) WithMessage(message string) Fault {
	f.Message = message
	return f
}

// settledStatus is the status a job that would settle in final reports.
func (h *hostileState) settledStatus(final string) string {
	if h.status != "" {
		return h.status
	}
	return final
}

// hostileDownload answers a bundle download the way the chosen scenarios
// say, and reports whether it did.
func (s *Server) hostileDownload(w http.ResponseWriter, r *http.Request) bool {
	h := &s.hostile
	switch {
	case h.redirectTo != nil && !strings.EqualFold(r.Host, h.redirectTo.Host):
		to := *h.redirectTo
		to.Path = strings.TrimSuffix(to.Path, "/") + r.URL.Path
		to.RawPath = ""
		to.RawQuery = r.URL.RawQuery
		http.Redirect(w, r, to.String(), http.StatusTemporaryRedirect)
		return true
	case h.storageError != nil:
		writeS3Error(w, h.storageCode, h.storageError.Code, h.storageError.Message)
		return true
	}
	return false
}

// HeaderRecorder is an http.Handler that records the headers of every
// request before passing it to the next handler: the second host of a
// cross-host redirect, which must receive nothing that belongs to the
// first (an Authorization header, a Referer holding a link's signature).
type HeaderRecorder struct {
	next http.Handler

	mu       sync.Mutex
	requests []RecordedRequest
}

// RecordedRequest is one request a HeaderRecorder saw.
type RecordedRequest struct {
	Method string
	// Host is the Host header; URI the request target (path and query).
	Host, URI string
	// Header holds every other header, as received.
	Header http.Header
}

// NewHeaderRecorder records the requests it passes to next.
func NewHeaderRecorder(next http.Handler) *HeaderRecorder {
	return &HeaderRecorder{next: next}
}

func (h *HeaderRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests = append(h.requests, RecordedRequest{Method: r.Method, Host: r.Host, URI: r.RequestURI, Header: r.Header.Clone()})
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}

// Requests returns every request recorded so far, oldest first.
func (h *HeaderRecorder) Requests() []RecordedRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := slices.Clone(h.requests)
	for i := range out {
		out[i].Header = out[i].Header.Clone()
	}
	return out
}
