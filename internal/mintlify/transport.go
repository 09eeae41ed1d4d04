package mintlify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// CheckBaseURL reports what is wrong with raw as the API root, or nil. It
// must be an absolute http or https URL without credentials, query or
// fragment; plain http only to a loopback host (localhost, 127.0.0.0/8,
// ::1), because every request carries the admin API key.
func CheckBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("it is not a valid URL")
	}
	shown := u.Redacted()
	switch {
	case u.Scheme == "" || u.Opaque != "":
		return fmt.Errorf("%q is not an absolute URL: give the scheme and host, such as %q", shown, DefaultBaseURL)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q uses the scheme %q: use https", shown, u.Scheme)
	case u.Hostname() == "":
		return fmt.Errorf("%q has no host: give one, such as %q", shown, DefaultBaseURL)
	case u.User != nil:
		return fmt.Errorf("%q holds a user name or password: remove it, the admin API key is the only credential", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return fmt.Errorf("%q has a query or fragment: remove it", shown)
	case u.Scheme == "http" && !isLoopback(u.Hostname()):
		return fmt.Errorf("%q would send the admin API key unencrypted: use https (plain http is accepted "+
			"only for a loopback host: localhost, 127.0.0.0/8 or ::1)", shown)
	}
	if version := apiVersionSuffix(u.Path); version != "" {
		root := *u
		root.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), version)
		root.RawPath = ""
		return fmt.Errorf("%q ends with the API version %q, which the provider adds itself (static export calls "+
			"go to /v1/, agent job calls to /v2/): remove it, such as %q", shown, version, root.Redacted())
	}
	return nil
}

// apiVersionSuffix returns "/v1" or "/v2" when p ends with it (a trailing
// slash aside), the usual mistake of a base URL copied from the API's
// reference, or "".
func apiVersionSuffix(p string) string {
	p = strings.TrimRight(p, "/")
	for _, v := range []string{"/v1", "/v2"} {
		if strings.HasSuffix(p, v) {
			return v
		}
	}
	return ""
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// buildHTTPClient copies the configured HTTP client and adds the
// per-request timeout and the redirect policy.
func (c *Client) buildHTTPClient() *http.Client {
	hc := c.timedHTTPClient(false)
	userCheck := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := c.checkRedirect(req, via); err != nil {
			return err
		}
		if userCheck != nil {
			return userCheck(req, via)
		}
		return nil
	}
	return hc
}

// downloadHTTPClient is the client's HTTP client with a stall timeout in
// place of the per-attempt timeout, and the same redirect policy (no
// Referer, no API key to another host).
func (c *Client) downloadHTTPClient() *http.Client {
	hc := c.timedHTTPClient(true)
	hc.CheckRedirect = c.httpClient.CheckRedirect
	return hc
}

// timedHTTPClient copies the configured HTTP client and bounds each of its
// attempts by the request timeout (see timeoutTransport): as a whole, or
// with stall, while no data arrives.
func (c *Client) timedHTTPClient(stall bool) *http.Client {
	hc := *c.baseHTTPClient
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	if c.requestTimeout > 0 {
		hc.Transport = &timeoutTransport{next: next, timeout: c.requestTimeout, stall: stall, after: c.timers}
	}
	return &hc
}

// checkRedirect follows at most 10 redirects, never from https to plain
// http, never sends a Referer, and sends the Authorization header only to
// the scheme and host of the original request: net/http itself forwards it
// to subdomains and over an https-to-http downgrade, and puts the previous
// URL, query included, in Referer, which would hand a bundle link's
// signature to the next host.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	// The first downgrade ends the chain, so the hop before this one is the
	// only https hop that can precede a plain-http one.
	if prev := via[len(via)-1].URL; strings.EqualFold(prev.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
		return &DowngradeError{From: ShowHost(prev.Host), To: ShowHost(req.URL.Host), Scheme: strings.ToLower(req.URL.Scheme)}
	}
	req.Header.Del("Referer")
	from := via[0].URL
	if !strings.EqualFold(req.URL.Scheme, from.Scheme) || !strings.EqualFold(canonicalHost(req.URL), canonicalHost(from)) {
		if req.Header.Get("Authorization") != "" {
			req.Header.Del("Authorization")
			c.logger.Warn(req.Context(), "Mintlify API redirected to another host; the API key is not sent there",
				map[string]any{"from_host": ShowHost(from.Host), "to_host": ShowHost(req.URL.Host)})
		}
	}
	return nil
}

// DowngradeError is a redirect from https to plain http, which the client
// refuses for API calls and downloads alike: following it would send the
// request (and a bundle link's signature, or the request's body)
// unencrypted, walking around the refusal of plain-http base URLs and
// links. It names the hosts of the hop, never a path or query.
type DowngradeError struct {
	// From is the host that redirected, To the host it pointed at, each
	// escaped for printing (ShowHost).
	From, To string
	// Scheme is the scheme of the redirect's target, "http".
	Scheme string
}

func (e *DowngradeError) Error() string {
	return fmt.Sprintf("refused a redirect from https://%s to %s://%s: following it would send the request "+
		"unencrypted (with any credential its link carries); the server, or a proxy in front of it, must redirect "+
		"to https", e.From, e.Scheme, e.To)
}

// canonicalHost is host:port with the scheme's default port filled in.
func canonicalHost(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// StallError is a download attempt during which no data arrived for the
// client's request timeout (WithRequestTimeout). A download is not bounded
// as a whole, since a large archive takes as long as it takes, but it must
// keep moving.
type StallError struct {
	Timeout time.Duration
}

func (e *StallError) Error() string { return fmt.Sprintf("no data arrived for %s", e.Timeout) }

// errTimedOut is the cause of an attempt that timeoutTransport cancelled.
var errTimedOut = errors.New("timed out")

// timeoutTransport fails an attempt that runs out of time. Without stall,
// timeout bounds the whole attempt, from sending the request until its body
// is closed: an API call, whose answer is small. With stall, it bounds how
// long no data arrives (before the answer's headers, or between two reads
// of its body): a download, which takes as long as it takes. The timeout
// becomes a *RequestTimeoutError or a *StallError, not
// context.DeadlineExceeded, which callers read as their own deadline.
//
// It runs in real time, not on the client's clock: a hung connection is a
// wall-clock matter, and on a virtual clock other goroutines' sleeps would
// move time under a request that is in flight (and a pending timeout would
// look like a parked sleeper to a test waiting for one).
type timeoutTransport struct {
	next    http.RoundTripper
	timeout time.Duration
	stall   bool
	after   afterFunc
}

// attemptTimer is the timer of one attempt: a *time.Timer, or a test's.
type attemptTimer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// afterFunc starts an attemptTimer that calls f once d has passed, as
// time.AfterFunc does.
type afterFunc func(d time.Duration, f func()) attemptTimer

// realTimers is the afterFunc of every client but a test's: real time.
func realTimers(d time.Duration, f func()) attemptTimer { return time.AfterFunc(d, f) }

func (t *timeoutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	parent := req.Context()
	ctx, cancel := context.WithCancelCause(parent)
	timer := t.after(t.timeout, func() { cancel(errTimedOut) })
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timer.Stop()
		err = t.explain(ctx, parent, err)
		cancel(nil)
		return nil, err
	}
	resp.Body = &timedBody{ReadCloser: resp.Body, t: t, ctx: ctx, parent: parent, timer: timer, cancel: cancel}
	return resp, nil
}

// explain replaces the error of an attempt that ran out of time (while its
// caller's ctx is still live) with a *RequestTimeoutError, or a
// *StallError.
func (t *timeoutTransport) explain(ctx, parent context.Context, err error) error {
	if parent.Err() != nil || !errors.Is(context.Cause(ctx), errTimedOut) {
		return err
	}
	if t.stall {
		return &StallError{Timeout: t.timeout}
	}
	return &RequestTimeoutError{Timeout: t.timeout, connecting: notSent(err)}
}

// timedBody keeps the attempt's timeout running while the body is read,
// and with stall restarts it whenever data arrives.
type timedBody struct {
	io.ReadCloser
	t           *timeoutTransport
	ctx, parent context.Context
	timer       attemptTimer
	cancel      context.CancelCauseFunc
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && b.t.stall {
		b.timer.Reset(b.t.timeout)
	}
	if err != nil && err != io.EOF {
		err = b.t.explain(b.ctx, b.parent, err)
	}
	return n, err
}

func (b *timedBody) Close() error {
	b.timer.Stop()
	defer b.cancel(nil)
	return b.ReadCloser.Close()
}
