package mintlify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"reflect"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// Defaults of the retry policy and of the per-request timeout.
const (
	// DefaultMaxRetries is how many times a failed request is repeated: with
	// the default waits (about 1, 2, 4, 8 and 16 seconds) a call rides out
	// roughly half a minute of trouble before it fails.
	DefaultMaxRetries = 5
	// DefaultRequestTimeout bounds one attempt, from sending the request to
	// reading the whole answer. Every documented answer is a small JSON
	// object, so a healthy API answers in well under a second.
	DefaultRequestTimeout = 30 * time.Second
)

// RetryPolicy decides how failed requests are repeated.
//
// Idempotent calls (status reads, agent job reads, generating a bundle link)
// are retried on connection errors, resets, timeouts, truncated or malformed
// JSON bodies, 429 and 500/502/503/504. Starting an export is retried only
// on 429 and on failures before the request reached the server (a refused
// connection, a DNS failure), so a retry can never start a second export.
// 400, 401, 403, 404 and 409 are never retried.
type RetryPolicy struct {
	// MaxRetries is how many times a failed request may be repeated; 0
	// disables retries.
	MaxRetries int
	// MinWait and MaxWait bound the exponential backoff: retry n waits
	// between half and all of MinWait·2^(n-1), at most MaxWait.
	MinWait, MaxWait time.Duration
	// MaxRetryAfter caps the wait a Retry-After header can ask for. A wait
	// is never shorter than the API asked, up to this cap. (A 429 of a
	// call whose limit the API documents waits for its turn instead, up
	// to the limit's window: rate_limits.go.)
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy returns the policy used when none is configured.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: DefaultMaxRetries, MinWait: time.Second, MaxWait: 30 * time.Second, MaxRetryAfter: time.Minute}
}

// wait returns how long to wait before retry number retry (1 for the first
// retry), given the Retry-After the API sent (0 if none).
func (p RetryPolicy) wait(retry int, retryAfter time.Duration) time.Duration {
	base := p.MinWait
	for i := 1; i < retry && base < p.MaxWait; i++ {
		base *= 2
	}
	base = min(base, p.MaxWait)
	// "Equal jitter": clients that failed together do not retry together,
	// and no wait is shorter than half the backoff. The jitter goes on top
	// of a wait the API asked for, never under it: clients refused together
	// do not all come back at the instant the API named.
	jitter := time.Duration(rand.Int64N(int64(base/2) + 1))
	return max(base/2, min(retryAfter, p.MaxRetryAfter)) + jitter
}

// call is one logical API call, which may take several attempts.
type call struct {
	method   string
	segments []string
	in, out  any
	// idempotent calls may be repeated after any transient failure.
	idempotent bool
	// limit, when not nil, is the call's documented rate limit: a 429 is
	// a turn to wait for until the deadline, not a fault (waitTurn).
	limit *Limit
	// once calls are sent one time, whatever the answer: a probe, which
	// must not hold its caller through the retries of an API that is down.
	once bool
}

// send performs a call through go-retryablehttp with this client's policy.
//
// go-retryablehttp sleeps between attempts on a real time.Timer, which
// cannot be injected. So the waiting is done here instead: CheckRetry, which
// receives the call's ctx, computes the wait, refuses one that would end
// after the ctx deadline (measured with clock.Deadline against the client's
// clock, so virtual deadlines count), and sleeps on the client's clock with
// ctx; Backoff returns 0, so the library's own timer fires at once. Tests on
// a virtual clock therefore retry without waiting, and a real run waits
// exactly as long as the policy says, interruptibly.
//
// The response handler reads and decodes each answer inside the retry loop,
// so a truncated or malformed body is a failed attempt like a 502.
func (c *Client) send(ctx context.Context, cl call) error {
	route := callRoute(cl.method, cl.segments)
	var body any // nil: no body
	if cl.in != nil {
		b, err := json.Marshal(cl.in)
		if err != nil {
			return fmt.Errorf("encoding request: %w", err)
		}
		body = b
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, cl.method, c.endpoint(cl.segments...), body)
	if err != nil {
		return fmt.Errorf("building request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if cl.in != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	a := &callState{c: c, ctx: ctx, call: cl, route: route}
	req.SetResponseHandler(a.handleResponse)
	rc := &retryablehttp.Client{
		HTTPClient:     c.httpClient,
		Logger:         leveledLogger{ctx: ctx, l: c.logger},
		RetryMax:       retryMax(cl, c.retryPolicy),
		RequestLogHook: a.logRequest,
		CheckRetry:     a.checkRetry,
		Backoff:        func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 },
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
	}
	if _, err := rc.Do(req); err != nil {
		switch {
		case a.final != nil:
			return a.final
		case a.last != nil:
			// ctx ended between a retry wait and the next attempt.
			return &RetryError{Attempts: a.n, Err: a.last, Stop: err}
		default:
			return &TransportError{Route: route, Err: unwrapURLError(err)}
		}
	}
	return nil
}

// retryMax is go-retryablehttp's RetryMax for cl: the policy's, or, for a
// call with a documented limit, no bound of its own, as checkRetry counts
// the faults against MaxRetries and waits the turns until the deadline.
func retryMax(cl call, p RetryPolicy) int {
	if cl.once {
		return 0
	}
	if cl.limit != nil {
		return math.MaxInt32
	}
	return p.MaxRetries
}

// callState is one call's state across its attempts.
type callState struct {
	c     *Client
	ctx   context.Context
	call  call
	route string

	n      int   // attempts sent so far
	faults int   // failed attempts that count against MaxRetries
	turns  int   // waits for a turn within the call's limit
	last   error // the last attempt's error
	final  error // the error the call ends with
}

func (a *callState) logRequest(_ retryablehttp.Logger, _ *http.Request, i int) {
	a.n = i + 1
	a.c.logger.Debug(a.ctx, "Mintlify API request", map[string]any{"route": a.route, "attempt": a.n})
}

// handleResponse reads one answer: an *APIError for a non-2xx status, a
// *TransportError for a body that is cut short or not the expected JSON.
func (a *callState) handleResponse(resp *http.Response) error {
	defer func() { _ = resp.Body.Close() }()
	raw, readErr := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	a.c.logger.Debug(a.ctx, "Mintlify API response", map[string]any{
		"route": a.route, "attempt": a.n, "status": resp.StatusCode,
	})
	a.c.keyProof.observe(resp.StatusCode)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := newAPIError(a.route, resp.StatusCode, resp.Header.Get("Content-Type"), raw, []string{a.c.apiKey})
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			now := a.c.clock.Now()
			apiErr.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), now)
			if apiErr.RetryAfter > 0 {
				apiErr.RetryAt = now.Add(apiErr.RetryAfter)
			}
		}
		return apiErr
	}
	if readErr != nil {
		if errors.Is(readErr, io.ErrUnexpectedEOF) {
			readErr = errors.New("the response body was truncated")
		}
		return &TransportError{Route: a.route, Err: fmt.Errorf("reading the response body: %w", readErr)}
	}
	if a.call.out == nil {
		return nil
	}
	// Decode into a zeroed value, so that nothing from an earlier, malformed
	// attempt survives into the result.
	reflect.ValueOf(a.call.out).Elem().SetZero()
	if err := json.Unmarshal(raw, a.call.out); err != nil {
		return &TransportError{Route: a.route, Err: fmt.Errorf("malformed response body: %w", err)}
	}
	return nil
}

// checkRetry is go-retryablehttp's CheckRetry. It is called with err == nil
// once a response arrived, before handleResponse reads it, and again after;
// both times there is nothing to decide. Otherwise it decides, and when it
// retries it also waits (see send).
func (a *callState) checkRetry(ctx context.Context, _ *http.Response, err error) (bool, error) {
	if err == nil {
		return false, nil
	}
	err = a.typed(err)
	a.last = err

	if ctxErr := ctx.Err(); ctxErr != nil {
		if a.n <= 1 && errors.Is(err, ctxErr) {
			return a.fail(err)
		}
		return a.fail(&RetryError{Attempts: a.n, Err: err, Stop: ctxErr})
	}
	if IsOutOfCredits(err) || a.call.once {
		return a.fail(err) // no credits come back by waiting; a probe is not retried
	}
	if a.call.limit != nil && IsRateLimited(err) {
		return a.waitTurn(ctx, err)
	}
	if !a.retryable(err) {
		return a.fail(err)
	}
	a.faults++
	if a.faults > a.c.retryPolicy.MaxRetries {
		if a.n == 1 {
			return a.fail(err) // retries are disabled
		}
		return a.fail(&RetryError{Attempts: a.n, Err: err})
	}

	var retryAfter time.Duration
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		retryAfter = apiErr.RetryAfter
	}
	wait := a.c.retryPolicy.wait(a.faults, retryAfter)
	now := a.c.clock.Now()
	if deadline, ok := clock.Deadline(ctx); ok && now.Add(wait).After(deadline) {
		return a.fail(&RetryError{Attempts: a.n, Err: err, Stop: context.DeadlineExceeded, Wait: wait, Left: deadline.Sub(now)})
	}
	a.c.logger.Warn(ctx, "Retrying Mintlify API request", map[string]any{
		"route": a.route, "attempt": a.n, "max_retries": a.c.retryPolicy.MaxRetries,
		"wait": wait.String(), "reason": err.Error(),
	})
	if serr := a.c.clock.Sleep(ctx, wait); serr != nil {
		return a.fail(&RetryError{Attempts: a.n, Err: err, Stop: serr})
	}
	return true, nil
}

func (a *callState) fail(err error) (bool, error) {
	a.final = err
	return false, err
}

// typed turns a raw transport error into a *TransportError; the response
// handler's errors are typed already.
func (a *callState) typed(err error) error {
	var apiErr *APIError
	var te *TransportError
	if errors.As(err, &apiErr) || errors.As(err, &te) {
		return err
	}
	return &TransportError{Route: a.route, Err: unwrapURLError(err)}
}

// retryable applies the policy to one failed attempt.
func (a *callState) retryable(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusTooManyRequests:
			// The API refused the request before acting on it.
			return true
		case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return a.call.idempotent
		}
		return false
	}
	if permanent(err) {
		return false
	}
	return a.call.idempotent || notSent(err)
}
