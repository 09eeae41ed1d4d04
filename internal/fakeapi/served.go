package fakeapi

import (
	"net"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// Served is the stand-in served over HTTP, with what it takes to reach it:
// the one type the acceptance tests (fakeapitest.New), the programs users
// run (make demo, make sandbox) and the benchmarks (devprovider.StartAPI)
// hold it by.
type Served struct {
	// Fake is the server itself: seed it, fault it, read what it was sent.
	Fake *Server
	// Clock is the virtual clock Fake reads, to give to the client or the
	// provider under test, so that both share one notion of time; nil when
	// Fake is served in real time.
	Clock *clock.Fake
	// URL is the base URL Fake is served at, without a trailing slash.
	URL string
	// HTTPClient reaches URL. Only TLS needs it (it trusts the test
	// certificate and dials loopback whatever the host); otherwise nil, and
	// any client will do.
	HTTPClient *http.Client

	stop func() error
}

// Serve serves h, fake itself or a handler in front of it, on a free port
// of 127.0.0.1 until Close.
func Serve(fake *Server, h http.Handler) (*Served, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &Served{Fake: fake, URL: "http://" + ln.Addr().String(), stop: srv.Close}, nil
}

// Close stops serving and closes every connection. A stand-in served to a
// test stops when the test ends, and Close does nothing.
func (s *Served) Close() error {
	if s.stop == nil {
		return nil
	}
	return s.stop()
}
