package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// simulator serves one fake API per job behind one HTTP handler: requests
// for /j/<n>/... go to job n's fake.
type simulator struct {
	mu     sync.RWMutex
	fakes  map[string]http.Handler
	next   int
	url    string
	client *http.Client
	srv    *httptest.Server
}

func newSimulator(transport string) (*simulator, error) {
	s := &simulator{fakes: map[string]http.Handler{}}
	switch transport {
	case "loopback":
		s.srv = httptest.NewServer(s)
		s.url = s.srv.URL
		tr, ok := http.DefaultTransport.(*http.Transport)
		if !ok {
			return nil, fmt.Errorf("http.DefaultTransport is a %T", http.DefaultTransport)
		}
		tr = tr.Clone()
		tr.MaxIdleConnsPerHost = 4 * runtime.GOMAXPROCS(0)
		s.client = &http.Client{Transport: tr}
	case "memory":
		// Never dialled: the transport serves every request in memory. The
		// client accepts plain http only for a loopback host.
		s.url = "http://localhost"
		s.client = &http.Client{Transport: memoryTransport{s}}
	default:
		return nil, fmt.Errorf("unknown -transport %q: want loopback or memory", transport)
	}
	return s, nil
}

func (s *simulator) close() {
	if s.srv != nil {
		s.srv.Close()
	}
}

func (s *simulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/j/")
	id, _, _ := strings.Cut(rest, "/")
	s.mu.RLock()
	h := s.fakes[id]
	s.mu.RUnlock()
	if !ok || h == nil {
		http.NotFound(w, r)
		return
	}
	http.StripPrefix("/j/"+id, h).ServeHTTP(w, r)
}

// mount serves h under a new prefix and returns its base URL and a function
// that removes it.
func (s *simulator) mount(h http.Handler) (string, func()) {
	s.mu.Lock()
	s.next++
	id := strconv.Itoa(s.next)
	s.fakes[id] = h
	s.mu.Unlock()
	return s.url + "/j/" + id, func() {
		s.mu.Lock()
		delete(s.fakes, id)
		s.mu.Unlock()
	}
}

// memoryTransport serves requests with the simulator's handler, in memory.
type memoryTransport struct{ h http.Handler }

func (t memoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(strings.NewReader(string(body)))
	}
	t.h.ServeHTTP(rec, req)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// watched is one job's own fake API, virtual clock and client.
type watched struct {
	clk     *clock.Fake
	fake    *fakeapi.Server
	client  *mintlify.Client
	unmount func()
}

// watch serves a fake API whose jobs follow plan, on a virtual clock that
// moves as the client sleeps, and returns a client for it with policy.
func (s *simulator) watch(plan fakeapi.JobPlan, policy poll.Policy) (*watched, error) {
	w := &watched{clk: clock.NewFake(start, true)}
	w.fake = fakeapi.New(fakeapi.WithClock(w.clk), fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return plan }}))
	base, unmount := s.mount(w.fake)
	w.unmount = unmount
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(base), mintlify.WithHTTPClient(s.client),
		mintlify.WithClock(w.clk), mintlify.WithPollPolicy(policy))
	if err != nil {
		unmount()
		return nil, err
	}
	w.client = c
	return w, nil
}

// pollTimes returns when the status requests so far arrived, on the job's
// virtual clock.
func (w *watched) pollTimes() []time.Time {
	var times []time.Time
	for _, r := range w.fake.Requests() {
		if r.Method == http.MethodGet {
			times = append(times, r.At)
		}
	}
	return times
}
