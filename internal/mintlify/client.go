// Package mintlify is a client for the Mintlify admin API: the static export
// operations under /v1 and the agent jobs under /v2. It is plain Go and knows
// nothing about Terraform.
package mintlify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// DefaultBaseURL is the public Mintlify API.
const DefaultBaseURL = "https://api.mintlify.com"

// maxResponseBytes bounds what the client reads from one response; every
// documented response is a small JSON object.
const maxResponseBytes = 1 << 20

// Client calls the Mintlify admin API with one admin API key.
type Client struct {
	apiKey     string
	baseURL    *url.URL
	httpClient *http.Client
	userAgent  string
	clock      clock.Clock
	pollPolicy PollPolicy
}

// Option configures a Client.
type Option func(*Client) error

// WithBaseURL points the client at another API root, such as a proxy mounted
// under a path prefix. A trailing slash is optional.
func WithBaseURL(raw string) Option {
	return func(c *Client) error {
		u, err := url.Parse(raw)
		if err != nil {
			return fmt.Errorf("base URL: %w", err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("base URL %q must be an absolute http or https URL", raw)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("base URL %q must not have a query or fragment", raw)
		}
		u.Path = strings.TrimRight(u.Path, "/")
		u.RawPath = strings.TrimRight(u.RawPath, "/")
		c.baseURL = u
		return nil
	}
}

// WithHTTPClient replaces the HTTP client used for every request.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error {
		c.httpClient = hc
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

// WithClock replaces the clock that every wait goes through.
func WithClock(clk clock.Clock) Option {
	return func(c *Client) error {
		c.clock = clk
		return nil
	}
}

// WithPollPolicy replaces the policy that spaces status requests while
// waiting for a job.
func WithPollPolicy(p PollPolicy) Option {
	return func(c *Client) error {
		c.pollPolicy = p
		return nil
	}
}

// New returns a client that authenticates with apiKey.
func New(apiKey string, opts ...Option) (*Client, error) {
	if apiKey == "" {
		return nil, errors.New("an admin API key is required")
	}
	c := &Client{
		apiKey:     apiKey,
		httpClient: &http.Client{Timeout: time.Minute},
		userAgent:  "terraform-provider-mintlify",
		clock:      clock.Real(),
		pollPolicy: DefaultPollPolicy(),
	}
	if err := WithBaseURL(DefaultBaseURL)(c); err != nil {
		return nil, err
	}
	for _, opt := range opts {
		if err := opt(c); err != nil {
			return nil, err
		}
	}
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

// do sends one request and decodes a JSON response into out. Error bodies
// become an *APIError that carries the status code and the API's message.
func (c *Client) do(ctx context.Context, method string, segments []string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encoding request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.endpoint(segments...), body)
	if err != nil {
		return fmt.Errorf("building request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	route := method + " /" + strings.Join(segments, "/")

	resp, err := c.httpClient.Do(req)
	if err != nil {
		return &TransportError{Route: route, Err: unwrapURLError(err)}
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return &TransportError{Route: route, Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return newAPIError(route, resp.StatusCode, raw)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &TransportError{Route: route, Err: fmt.Errorf("malformed response body: %w", err)}
	}
	return nil
}

// unwrapURLError drops *url.Error's "Get <url>:" prefix: the URL is already
// named by the route, and a presigned or proxied URL does not belong in an
// error message.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
