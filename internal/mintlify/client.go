// Package mintlify is a client for the Mintlify admin API: the static export
// operations under /v1 and the agent jobs under /v2. It is plain Go and knows
// nothing about Terraform.
package mintlify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// DefaultBaseURL is the public Mintlify API.
const DefaultBaseURL = "https://api.mintlify.com"

// maxResponseBytes bounds what the client reads from one response; every
// documented response is a small JSON object.
const maxResponseBytes = 1 << 20

// Client calls the Mintlify admin API with one admin API key.
type Client struct {
	apiKey         string
	baseURL        *url.URL
	baseHTTPClient *http.Client
	// httpClient is baseHTTPClient with the per-request timeout and the
	// redirect policy added; built by New once every option is applied.
	httpClient *http.Client
	userAgent  string
	clock      clock.Clock
	pollPolicy poll.Policy
	// pollPolicySet says that WithPollPolicy chose the policy, for every
	// wait; otherwise a deployment's wait has its own (WaitForDeployment).
	pollPolicySet bool
	// pacer spaces the status requests of all the client's waits together,
	// whatever their policy.
	pacer          *poll.Pacer
	retryPolicy    RetryPolicy
	requestTimeout time.Duration
	// timers start the request timeout's timers: realTimers; a test's
	// fire when it says.
	timers afterFunc
	logger Logger
	// limits paces the client's triggers within the API's documented
	// rate limits (trigger_limits.go).
	limits *triggerLimits
	// maxUnannouncedBytes is MaxUnannouncedBundleBytes; a test lowers it.
	maxUnannouncedBytes int64
	// keyProof is what the API's answers said of the key (CheckKey).
	keyProof *keyProof
}

// Option configures a Client.
type Option func(*Client) error

// WithBaseURL points the client at another API root, such as a proxy mounted
// under a path prefix. A trailing slash is optional. Plain http is accepted
// only for a loopback host (see CheckBaseURL).
func WithBaseURL(raw string) Option {
	return func(c *Client) error {
		if err := CheckBaseURL(raw); err != nil {
			return err
		}
		u, _ := url.Parse(raw) // CheckBaseURL parsed it
		u.Path = strings.TrimRight(u.Path, "/")
		u.RawPath = strings.TrimRight(u.RawPath, "/")
		c.baseURL = u
		return nil
	}
}

// WithHTTPClient replaces the HTTP client used for every request. The client
// still adds its per-request timeout and its redirect policy, which never
// forwards the API key to another host.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error {
		if hc == nil {
			return errors.New("the HTTP client must not be nil")
		}
		c.baseHTTPClient = hc
		return nil
	}
}

// WithUserAgent sets the User-Agent header sent with every request.
func WithUserAgent(ua string) Option {
	return func(c *Client) error {
		c.userAgent = ua
		return nil
	}
}

// WithClock replaces the clock that every wait goes through: polls and
// retry waits.
func WithClock(clk clock.Clock) Option {
	return func(c *Client) error {
		c.clock = clk
		return nil
	}
}

// WithPollPolicy replaces the policy that spaces status requests while
// waiting for a job. Whatever the policy, the waits of one client pace their
// status requests together and slow down when the API pushes back with 429.
func WithPollPolicy(p poll.Policy) Option {
	return func(c *Client) error {
		c.pollPolicy, c.pollPolicySet = p, true
		return nil
	}
}

// WithRetryPolicy replaces the whole retry policy.
func WithRetryPolicy(p RetryPolicy) Option {
	return func(c *Client) error {
		if p.MaxRetries < 0 || p.MinWait < 0 || p.MaxWait < p.MinWait || p.MaxRetryAfter < 0 {
			return fmt.Errorf("invalid retry policy %+v", p)
		}
		c.retryPolicy = p
		return nil
	}
}

// WithMaxRetries sets how many times a failed request may be repeated;
// 0 disables retries. Defaults to DefaultMaxRetries.
func WithMaxRetries(n int) Option {
	return func(c *Client) error {
		if n < 0 {
			return fmt.Errorf("max retries must be 0 or more, got %d", n)
		}
		c.retryPolicy.MaxRetries = n
		return nil
	}
}

// WithRequestTimeout bounds each attempt, from sending the request to
// reading the whole answer, in real time (see timeoutTransport). 0 removes
// the bound. Defaults to DefaultRequestTimeout.
func WithRequestTimeout(d time.Duration) Option {
	return func(c *Client) error {
		if d < 0 {
			return fmt.Errorf("the request timeout must not be negative, got %s", d)
		}
		c.requestTimeout = d
		return nil
	}
}

// New returns a client that authenticates with apiKey.
func New(apiKey string, opts ...Option) (*Client, error) {
	if apiKey == "" {
		return nil, errors.New("an admin API key is required")
	}
	c := &Client{
		apiKey:         apiKey,
		baseHTTPClient: &http.Client{},
		userAgent:      "terraform-provider-mintlify",
		clock:          clock.Real(),
		pollPolicy:     DefaultPollPolicy(),
		pacer:          &poll.Pacer{},
		retryPolicy:    DefaultRetryPolicy(),
		requestTimeout: DefaultRequestTimeout,
		timers:         realTimers,
		logger:         nopLogger{},
		limits:         newTriggerLimits(),
		keyProof:       &keyProof{},

		maxUnannouncedBytes: MaxUnannouncedBundleBytes,
	}
	if err := WithBaseURL(DefaultBaseURL)(c); err != nil {
		return nil, err
	}
	for _, opt := range opts {
		if err := opt(c); err != nil {
			return nil, err
		}
	}
	if _, discard := c.logger.(nopLogger); !discard {
		c.logger = maskingLogger{next: c.logger, secrets: []string{apiKey}}
	}
	c.httpClient = c.buildHTTPClient()
	return c, nil
}

// Clock returns the clock the client waits on.
func (c *Client) Clock() clock.Clock { return c.clock }

// endpoint joins escaped path segments onto the base URL. Every segment is
// escaped, so an id can never add or remove a path level.
func (c *Client) endpoint(segments ...string) string {
	u := *c.baseURL
	escaped := make([]string, len(segments))
	for i, s := range segments {
		escaped[i] = escapeSegment(s)
	}
	u.RawPath = u.EscapedPath() + "/" + strings.Join(escaped, "/")
	u.Path, _ = url.PathUnescape(u.RawPath)
	return u.String()
}

// escapeSegment escapes one path segment, including the dot segments that
// url.PathEscape leaves alone and that would otherwise climb the path.
func escapeSegment(s string) string {
	switch s {
	case ".":
		return "%2E"
	case "..":
		return "%2E%2E"
	}
	return url.PathEscape(s)
}

// do sends an idempotent request (a read, or generating a bundle link) and
// decodes a JSON response into out, retrying transient failures. Error
// bodies become an *APIError that carries the status code and the API's
// message.
func (c *Client) do(ctx context.Context, method string, segments []string, out any) error {
	return c.send(ctx, call{method: method, segments: segments, out: out, idempotent: true})
}

// postOnce sends a POST that must not be repeated when the API may have
// acted on it, such as starting an export. It is retried only when the API
// certainly did not take it: a 429, or a request that never reached the
// server.
func (c *Client) postOnce(ctx context.Context, segments []string, in, out any) error {
	return c.send(ctx, call{method: http.MethodPost, segments: segments, in: in, out: out})
}

// unwrapURLError drops *url.Error's "Get <url>:" prefix: the URL is already
// named by the route, and a presigned or proxied URL does not belong in an
// error message. What remains may name the host a redirect pointed at (in
// a DNS or certificate error), so its text is escaped (escapeUnprintable);
// the error chain stays for errors.Is and errors.As.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if text := err.Error(); escapeUnprintable(text) != text {
		return &maskedError{text: escapeUnprintable(text), err: err}
	}
	return err
}
