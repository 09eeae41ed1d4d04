package mintlify

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// How failures are classified: which ones a retry cannot fix, which ones
// certainly left the API untouched, and which rate limits a wait rides out.

// errTooManyRedirects ends a redirect chain; retrying would not shorten it.
var errTooManyRedirects = errors.New("stopped after 10 redirects")

// permanent reports transport errors that a retry cannot fix.
func permanent(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var downgrade *DowngradeError
	return errors.As(err, &certErr) || errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.Is(err, errTooManyRedirects) || errors.As(err, &downgrade)
}

// notSent reports failures that certainly happened before the request
// reached the server: no connection could be made.
func notSent(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var timeout *RequestTimeoutError
	return errors.As(err, &timeout) && timeout.connecting
}

// mayHaveActed reports whether the API may have acted on a request that
// failed with err: false only for an answer that says it did not (4xx), and
// for failures before the request reached the server.
func mayHaveActed(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500
	}
	var re *RetryError
	if errors.As(err, &re) {
		return mayHaveActed(re.Err)
	}
	return !notSent(err)
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date,
// measured from now. Anything else, or a time in the past, is 0.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		// Anything past a day is capped later anyway; stay clear of overflow.
		return time.Duration(min(secs, 24*60*60)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// defaultRateLimitPause is how long a wait pauses after a status request
// that was still rate limited once its retries ran out, when the API named
// no Retry-After.
const defaultRateLimitPause = 10 * time.Second

// rateLimited reports whether err is a 429 whose retries ran out (not one
// stopped by the caller's deadline or cancellation), and how long the API
// asked a wait to pause before its next request: its Retry-After, at least
// a second, or defaultRateLimitPause when it named none. Client.rateLimitPause
// caps it.
func rateLimited(err error) (time.Duration, bool) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	var retryErr *RetryError
	if errors.As(err, &retryErr) && retryErr.Stop != nil {
		return 0, false
	}
	if apiErr.RetryAfter > 0 {
		return max(apiErr.RetryAfter, time.Second), true
	}
	return defaultRateLimitPause, true
}
