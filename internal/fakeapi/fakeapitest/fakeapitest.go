// Package fakeapitest serves the fake Mintlify API (internal/fakeapi) to a
// test, the one way every package's tests do it: on a loopback port, with
// every exchange checked against the API's description
// (internal/fakeapi/contract), on a virtual clock that starts at Start.
//
//	env := fakeapitest.New(t, fakeapitest.Fake(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: time.Hour})))
//	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(env.URL), mintlify.WithClock(env.Clock))
//
// Like package contract, it is test support: only tests import it.
package fakeapitest

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
)

// Start is the virtual moment every test's clock begins at,
// 2026-11-21T09:00:00Z, in every package. A test states the times it
// expects relative to it.
var Start = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// TLSHost is the name the fake is given under TLS: the test server's
// certificate covers it, and it is not loopback.
const TLSHost = "example.com"

// Option changes how New serves the fake.
type Option func(*config)

type config struct {
	fakeOptions []fakeapi.Option
	manualClock bool
	unchecked   bool
	checker     *contract.Checker
	wrap        func(*fakeapi.Server) http.Handler
	tls         bool
}

// Fake passes options to fakeapi.New, after the clock (so that a
// fakeapi.WithClock among them wins).
func Fake(opts ...fakeapi.Option) Option {
	return func(c *config) { c.fakeOptions = append(c.fakeOptions, opts...) }
}

// ManualClock makes the clock move only when the test moves it (Advance,
// Set). By default a sleep on the clock advances it instead of blocking,
// so that a 30-minute wait runs in milliseconds.
func ManualClock() Option {
	return func(c *config) { c.manualClock = true }
}

// Unchecked serves the fake without the contract check, for faults that
// break an answer on purpose (a truncated or malformed body, a status the
// API does not document), which the check would rightly report.
func Unchecked() Option {
	return func(c *config) { c.unchecked = true }
}

// Checker serves the fake through checker instead of a check of its own
// that fails the test at cleanup: the test asserts on the checker's
// Violations and Covered itself, and may serve several fakes through it.
func Checker(checker *contract.Checker) Option {
	return func(c *config) { c.checker = checker }
}

// Handler serves wrap(fake) instead of the fake itself: the fake mounted
// under a path prefix, or behind a handler that records or alters what
// passes.
func Handler(wrap func(fake *fakeapi.Server) http.Handler) Option {
	return func(c *config) { c.wrap = wrap }
}

// TLS serves the fake over TLS under a name that is not loopback: URL is
// https://example.com, and HTTPClient dials the fake's loopback address
// whatever the host.
func TLS() Option {
	return func(c *config) { c.tls = true }
}

// New starts a fake API for t, on a virtual clock set to Start, and serves
// it until t ends: Clock is that clock, HTTPClient is set under TLS only. Unless Unchecked or Checker says otherwise, a request or
// an answer that breaks the API's description fails t at cleanup.
func New(t testing.TB, opts ...Option) *fakeapi.Served {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	clk := clock.NewFake(Start, !cfg.manualClock)
	fake := fakeapi.New(append([]fakeapi.Option{fakeapi.WithClock(clk)}, cfg.fakeOptions...)...)
	var h http.Handler = fake
	if cfg.wrap != nil {
		h = cfg.wrap(fake)
	}
	env := &fakeapi.Served{Fake: fake, Clock: clk}
	if cfg.tls {
		srv := cfg.serveTLS(t, h)
		env.URL, env.HTTPClient = "https://"+TLSHost, dialOnly(t, srv)
		return env
	}
	env.URL = cfg.serve(t, h)
	return env
}

func (cfg config) serve(t testing.TB, h http.Handler) string {
	t.Helper()
	switch {
	case cfg.checker != nil:
		return cfg.checker.Serve(t, h)
	case cfg.unchecked:
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	return contract.Serve(t, h)
}

func (cfg config) serveTLS(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	if cfg.checker != nil {
		t.Fatal("fakeapitest: TLS and Checker together are not supported")
	}
	if cfg.unchecked {
		srv := httptest.NewTLSServer(h)
		t.Cleanup(srv.Close)
		return srv
	}
	return contract.ServeTLS(t, h)
}

// dialOnly is srv's client, dialling srv's address whatever the URL's host.
func dialOnly(t testing.TB, srv *httptest.Server) *http.Client {
	t.Helper()
	base, ok := srv.Client().Transport.(*http.Transport)
	if !ok {
		t.Fatalf("the TLS test server's client has a %T", srv.Client().Transport)
	}
	tr := base.Clone()
	addr := srv.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: tr}
}
