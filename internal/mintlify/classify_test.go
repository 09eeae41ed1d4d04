package mintlify

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":     0,
		"7":    7 * time.Second,
		" 7 ":  7 * time.Second,
		"0":    0,
		"-3":   0,
		"soon": 0,
		now.Add(time.Minute).Format(http.TimeFormat):  time.Minute,
		now.Add(-time.Minute).Format(http.TimeFormat): 0,
		"99999999999999": 24 * time.Hour,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestRateLimited classifies the errors a wait rides out.
func TestRateLimited(t *testing.T) {
	t.Parallel()
	limited := &APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: 3 * time.Second}
	cases := []struct {
		name string
		err  error
		want time.Duration
		ok   bool
	}{
		{"429 with Retry-After", limited, 3 * time.Second, true},
		{"429 without", &APIError{StatusCode: http.StatusTooManyRequests}, defaultRateLimitPause, true},
		{"429 asking for less than a second", &APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: time.Millisecond}, time.Second, true},
		{"retries ran out", &RetryError{Attempts: 6, Err: limited}, 3 * time.Second, true},
		{"retrying stopped by the deadline", &RetryError{Attempts: 2, Err: limited, Stop: context.DeadlineExceeded}, 0, false},
		{"503", &APIError{StatusCode: http.StatusServiceUnavailable, RetryAfter: time.Second}, 0, false},
		{"transport", &TransportError{Err: errors.New("reset")}, 0, false},
	}
	for _, c := range cases {
		got, ok := rateLimited(c.err)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: rateLimited = %s, %v; want %s, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
