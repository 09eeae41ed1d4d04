package fakeapi

import (
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"
)

// FaultKind names one way the server misbehaves.
type FaultKind string

// The faults the server can inject. Status and Drop happen before the
// handler runs, so a faulted start request never creates a job: the API did
// not take it, although the client cannot know that from a 5xx or a dropped
// connection. Lost, Truncate, Malformed and Slow happen after the handler
// ran, as when a proxy or the network breaks a good answer: a faulted start
// request did create its job.
const (
	// FaultStatus answers Status with the API's error body (and a
	// Retry-After header when RetryAfter is set).
	FaultStatus FaultKind = "status"
	// FaultDrop closes the connection without answering.
	FaultDrop FaultKind = "drop"
	// FaultLost runs the handler, then closes the connection without
	// sending its answer: the request took effect, but its answer is lost.
	FaultLost FaultKind = "lost"
	// FaultTruncate sends the handler's answer with its full Content-Length
	// but only the first half of its body, then closes the connection.
	FaultTruncate FaultKind = "truncate"
	// FaultMalformed sends the first half of the handler's body as if it
	// were the whole answer: a complete response that is not valid JSON.
	FaultMalformed FaultKind = "malformed"
	// FaultSlow waits Delay on the server's clock before sending the
	// handler's answer. On a virtual clock the wait moves time (and so eats
	// into the client's deadlines) without taking any.
	FaultSlow FaultKind = "slow"
	// FaultHang never answers, as a hung API: it moves the server's clock
	// by Delay (which, on a virtual clock, expires the client's deadlines)
	// and holds the request until the client gives up, then drops the
	// connection. Unlike FaultSlow, no answer can race the client's
	// deadline. The handler does not run.
	FaultHang FaultKind = "hang"
)

// hangCap is how long, in real time, a FaultHang holds a request whose
// client never gives up.
const hangCap = 30 * time.Second

// Fault is one misbehaviour. Build it with TooManyRequests, ServerError,
// NotFound, DropConnection, LoseAnswer, TruncatedBody, MalformedBody,
// SlowResponse or Hang.
type Fault struct {
	Kind FaultKind
	// Status is the HTTP status of a FaultStatus.
	Status int
	// RetryAfter, when positive, is sent as the Retry-After header of a
	// FaultStatus: in whole seconds (rounded up), or as an HTTP date on the
	// server's clock when RetryAfterDate is set.
	RetryAfter     time.Duration
	RetryAfterDate bool
	// Delay is how long a FaultSlow waits, or how far a FaultHang moves the
	// server's clock.
	Delay time.Duration
	// Message, when not empty, is the error text of a FaultStatus in place
	// of the usual one (see WithMessage).
	Message string
	// PlainText sends a FaultStatus's body as plain text, not the API's
	// JSON error (see OrganizationLimit).
	PlainText bool
}

// OrganizationLimit is a 429 as Mintlify's shared API-key layer may answer
// an organization-wide limit: plain text, without a Retry-After.
func OrganizationLimit() Fault {
	return Fault{Kind: FaultStatus, Status: http.StatusTooManyRequests, PlainText: true}
}

// TooManyRequests is a 429 answer asking the client to wait retryAfter (none
// when 0).
func TooManyRequests(retryAfter time.Duration) Fault {
	return Fault{Kind: FaultStatus, Status: http.StatusTooManyRequests, RetryAfter: retryAfter}
}

// ServerError is a 5xx answer with the API's error body.
func ServerError(status int) Fault {
	return Fault{Kind: FaultStatus, Status: status}
}

// NotFound is a 404 answer with the API's error body, as when a job is
// looked up with another organisation's key or through a proxy that points
// elsewhere. Unlike ForgetJob it is temporary: the job is still there once
// the rule stops.
func NotFound() Fault { return Fault{Kind: FaultStatus, Status: http.StatusNotFound} }

// DropConnection closes the connection without answering.
func DropConnection() Fault { return Fault{Kind: FaultDrop} }

// LoseAnswer lets the handler act, then closes the connection without its
// answer: a start request so faulted creates a job whose id the client
// never learns.
func LoseAnswer() Fault { return Fault{Kind: FaultLost} }

// TruncatedBody cuts the answer's body in half under a Content-Length that
// promises all of it.
func TruncatedBody() Fault { return Fault{Kind: FaultTruncate} }

// MalformedBody sends half of the answer's JSON as a complete body.
func MalformedBody() Fault { return Fault{Kind: FaultMalformed} }

// SlowResponse answers after d on the server's clock.
func SlowResponse(d time.Duration) Fault { return Fault{Kind: FaultSlow, Delay: d} }

// Hang never answers: the server's clock moves by d, and the request is
// held until the client gives up.
func Hang(d time.Duration) Fault { return Fault{Kind: FaultHang, Delay: d} }

// WithRetryAfterDate returns f with its Retry-After sent as an HTTP date.
func (f Fault) WithRetryAfterDate() Fault {
	f.RetryAfterDate = true
	return f
}

// FaultRule injects faults into some of the requests it matches. Rules are
// tried in order, after the rate limiter; the first rule that injects a
// fault answers the request. Each rule counts only the requests that reach
// it, that is those that no earlier rule or the rate limiter answered.
type FaultRule struct {
	// Match selects the requests the rule counts. Nil matches every API
	// request (IsAPIRequest); bundle downloads are never faulted.
	Match func(*http.Request) bool
	// Skip lets the first Skip matching requests through.
	Skip int
	// Every injects into every Every-th matching request after Skip (the
	// Every-th, the 2·Every-th, ...). 0 or 1 injects into each one.
	Every int
	// Count stops the rule after Count injections: Count 3 with Every 0 is
	// a burst of three. 0 means no limit.
	Count int
	// Faults are injected in turn: the first injection gets Faults[0], the
	// next Faults[1], and so on, cycling.
	Faults []Fault
}

// faultState is the server's rate limiter and fault rules, with what they
// did. Its zero value injects nothing.
type faultState struct {
	mu       sync.Mutex
	limiter  *rateLimiter
	rules    []*ruleState
	injected map[FaultKind]int
	limited  int
}

type ruleState struct {
	FaultRule
	seen, fired int
}

// SetFaults replaces the server's fault rules, from now on, with fresh
// counts. With no rules, no more faults are injected. The rate limiter of
// LimitOptions.PerSecond is not affected.
func (s *Server) SetFaults(rules ...FaultRule) {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.rules = nil
	s.faults.addLocked(rules)
}

func (f *faultState) addLocked(rules []FaultRule) {
	for _, r := range rules {
		if len(r.Faults) == 0 {
			continue
		}
		r.Faults = append([]Fault(nil), r.Faults...)
		f.rules = append(f.rules, &ruleState{FaultRule: r})
	}
}

// FaultsInjected returns how many faults of kind were injected, of every
// kind when kind is "". Rate-limited requests are counted by RateLimited.
func (s *Server) FaultsInjected(kind FaultKind) int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	if kind != "" {
		return s.faults.injected[kind]
	}
	n := 0
	for _, c := range s.faults.injected {
		n += c
	}
	return n
}

// RateLimited returns how many requests the rate limiter refused.
func (s *Server) RateLimited() int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return s.faults.limited
}

// next decides what happens to one API request: a rate-limit refusal (with
// the wait to announce), a fault, or nothing.
func (f *faultState) next(r *http.Request, now time.Time) (limitedFor time.Duration, fault *Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.limiter != nil {
		if wait, ok := f.limiter.take(now); !ok {
			f.limited++
			return wait, nil
		}
	}
	for _, rule := range f.rules {
		if rule.Match != nil && !rule.Match(r) {
			continue // a nil Match takes every API request, the only ones that get here
		}
		rule.seen++
		n := rule.seen - rule.Skip
		every := max(rule.Every, 1)
		if n <= 0 || n%every != 0 || rule.Count > 0 && rule.fired >= rule.Count {
			continue
		}
		flt := rule.Faults[rule.fired%len(rule.Faults)]
		rule.fired++
		if f.injected == nil {
			f.injected = make(map[FaultKind]int)
		}
		f.injected[flt.Kind]++
		return 0, &flt
	}
	return 0, nil
}

// serveAPI serves one request through the rate limiter and the fault
// rules. It reports whether the connection must be dropped, which the
// caller does once the request is recorded.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) (drop bool) {
	if !IsAPIRequest(r) {
		s.mux.Load().ServeHTTP(w, r)
		return false
	}
	limitedFor, fault := s.faults.next(r, s.clock.Now())
	switch {
	case limitedFor > 0:
		s.writeStatusFault(w, TooManyRequests(limitedFor))
	case fault == nil:
		s.mux.Load().ServeHTTP(w, r)
	case fault.Kind == FaultStatus:
		s.writeStatusFault(w, *fault)
	case fault.Kind == FaultDrop:
		return true
	case fault.Kind == FaultLost:
		s.mux.Load().ServeHTTP(httptest.NewRecorder(), r)
		return true
	case fault.Kind == FaultHang:
		s.hang(r, fault.Delay)
		return true
	default:
		s.serveBroken(w, r, *fault)
	}
	return false
}

// statusMessages are the error texts of injected statuses.
var statusMessages = map[int]string{
	http.StatusNotFound:            "Not found",
	http.StatusTooManyRequests:     "Rate limit exceeded",
	http.StatusInternalServerError: "Internal server error",
	http.StatusBadGateway:          "Bad gateway",
	http.StatusServiceUnavailable:  "Service temporarily unavailable",
	http.StatusGatewayTimeout:      "Gateway timeout",
}

func (s *Server) writeStatusFault(w http.ResponseWriter, f Fault) {
	if f.RetryAfter > 0 {
		if f.RetryAfterDate {
			w.Header().Set("Retry-After", s.clock.Now().Add(f.RetryAfter).UTC().Format(http.TimeFormat))
		} else {
			w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(f.RetryAfter.Seconds())), 10))
		}
	}
	msg := statusMessages[f.Status]
	if f.Message != "" {
		msg = f.Message
	}
	if msg == "" {
		msg = http.StatusText(f.Status)
	}
	if f.PlainText {
		if f.Message == "" {
			msg = http.StatusText(f.Status)
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(f.Status)
		_, _ = io.WriteString(w, msg+"\n")
		return
	}
	writeError(w, f.Status, msg)
}

// serveBroken runs the handler, then sends its answer broken by f.
func (s *Server) serveBroken(w http.ResponseWriter, r *http.Request, f Fault) {
	rec := httptest.NewRecorder()
	s.mux.Load().ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	switch f.Kind {
	case FaultTruncate:
		// Promise the whole body, send half: net/http then closes the
		// connection, and the client reads an unexpected EOF.
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		body = body[:len(body)/2]
	case FaultMalformed:
		body = body[:len(body)/2]
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	case FaultSlow:
		if err := s.clock.Sleep(r.Context(), f.Delay); err != nil {
			return // the client gave up
		}
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
}

// hang holds r until its client gives up, after moving the server's clock
// by d; at most hangCap in real time.
func (s *Server) hang(r *http.Request, d time.Duration) {
	if s.clock.Sleep(r.Context(), d) != nil {
		return // the client gave up
	}
	giveUp := time.NewTimer(hangCap)
	defer giveUp.Stop()
	select {
	case <-r.Context().Done():
	case <-giveUp.C:
	}
}

// dropConnection closes the client's connection without an answer: by
// hijacking it, or, behind a writer that cannot be hijacked (such as the
// contract checker's recorder), by aborting the handler, which net/http
// answers by closing the connection.
func dropConnection(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		_ = conn.Close()
		return
	}
	panic(http.ErrAbortHandler)
}

// rateLimiter is a token bucket on the server's clock: perSecond tokens a
// second, up to burst.
type rateLimiter struct {
	perSecond, burst float64
	tokens           float64
	last             time.Time
}

func newRateLimiter(perSecond float64) *rateLimiter {
	burst := max(1, math.Ceil(perSecond))
	return &rateLimiter{perSecond: perSecond, burst: burst, tokens: burst}
}

// take spends a token if one is available at now; otherwise it returns how
// long until one is.
func (l *rateLimiter) take(now time.Time) (time.Duration, bool) {
	if !l.last.IsZero() && now.After(l.last) {
		l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.perSecond)
	}
	if l.last.IsZero() || now.After(l.last) {
		l.last = now
	}
	if l.tokens >= 1 {
		l.tokens--
		return 0, true
	}
	wait := time.Duration((1 - l.tokens) / l.perSecond * float64(time.Second))
	return max(wait, time.Nanosecond), false
}
