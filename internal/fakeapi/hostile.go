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
// Each is an Option, chosen per test. Together with the faults of faults.go
// (such as TooManyRequests(24 * time.Hour), a Retry-After of a day) and
// WithDownloadHost (links to another host, such as a plain-http one), they
// cover what the client must never trust.
//
// Some of them break the contract on purpose (WithUndocumentedStatus): serve
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

// WithUnannouncedSize makes every bundle announce no size (a sizeBytes of
// 0) and every download go without a Content-Length, as a storage host
// streaming an archive of unknown length would. The archive itself is
// served whole. A sizeBytes of 0 is within the API's contract (an
// integer).
func WithUnannouncedSize() Option {
	return func(s *Server) { s.hostile.unannounced = true }
}

// WithJobIDs makes every new export job, agent job and deployment (its
// status id), and every automation run (its instanceId), take the id next
// returns instead of the usual one, as an API that hands out hostile ids
// would: one with a terminal escape, ten kilobytes long, or a path. The API
// documents an id as a string, so this stays within its contract. The test
// keeps the ids unique.
func WithJobIDs(next func() string) Option {
	return func(s *Server) { s.hostile.jobIDs = next }
}

// WithUndocumentedStatus makes every export job and agent job settle in
// status, a value the API does not document (such as "cancelled"), at the
// moment it would have completed, failed or been archived. An export job in
// it has no bundle (generating one answers 409). It breaks the contract's
// status enum: serve the server without the contract checker.
func WithUndocumentedStatus(status string) Option {
	return func(s *Server) { s.hostile.status = status }
}

// WithDownloadRedirect makes every bundle download that reaches the server
// under a host other than target's answer 307 Temporary Redirect to the same
// path and query under target, as a storage host that moved would. Serve
// the same server at target, for instance behind a HeaderRecorder on a
// second loopback port, so that the download completes there.
func WithDownloadRedirect(target string) Option {
	return func(s *Server) {
		u, err := url.Parse(strings.TrimSuffix(target, "/"))
		if err != nil || u.Host == "" {
			panic("fakeapi: WithDownloadRedirect needs an absolute URL, got " + target)
		}
		s.hostile.redirectTo = u
	}
}

// WithStorageError makes the storage host answer every bundle download with
// status and an S3 error document holding code and message, which may be
// as long and as strange as a test needs (control characters, a link with
// its signature).
func WithStorageError(status int, code, message string) Option {
	return func(s *Server) {
		s.hostile.storageCode = status
		s.hostile.storageError = &s3Error{Code: code, Message: message}
	}
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
