package mintlify

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Logger receives the client's log entries, with the context of the call
// that produced them, so that an implementation can attach them to that
// call (the provider sends them to tflog). Field keys are snake_case.
//
// The client never logs a request or response body, a header, a URL query
// or the API key; implementations should mask secrets all the same.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Info(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
	Error(ctx context.Context, msg string, fields map[string]any)
}

// WithLogger sends the client's log entries, and go-retryablehttp's, to l,
// masked (see maskingLogger). By default nothing is logged.
func WithLogger(l Logger) Option {
	return func(c *Client) error {
		c.logger = l
		return nil
	}
}

// maskingLogger masks every entry of the client before next sees it: the
// API key, and the secrets of secretPatterns (a presigned link's
// signature, a bearer token), in the message and in every field that is
// text, an error or a fmt.Stringer. It is the same masking as the server
// text of errors (maskSecrets).
type maskingLogger struct {
	next    Logger
	secrets []string
}

func (m maskingLogger) Debug(ctx context.Context, msg string, f map[string]any) {
	m.next.Debug(ctx, maskSecrets(msg, m.secrets), m.fields(f))
}

func (m maskingLogger) Info(ctx context.Context, msg string, f map[string]any) {
	m.next.Info(ctx, maskSecrets(msg, m.secrets), m.fields(f))
}

func (m maskingLogger) Warn(ctx context.Context, msg string, f map[string]any) {
	m.next.Warn(ctx, maskSecrets(msg, m.secrets), m.fields(f))
}

func (m maskingLogger) Error(ctx context.Context, msg string, f map[string]any) {
	m.next.Error(ctx, maskSecrets(msg, m.secrets), m.fields(f))
}

// fields returns a copy of f with its text masked.
func (m maskingLogger) fields(f map[string]any) map[string]any {
	if f == nil {
		return nil
	}
	out := make(map[string]any, len(f))
	for k, v := range f {
		switch v := v.(type) {
		case string:
			out[k] = maskSecrets(v, m.secrets)
		case error:
			out[k] = maskSecrets(v.Error(), m.secrets)
		case fmt.Stringer: // such as the *url.URL of go-retryablehttp's entries
			out[k] = maskSecrets(v.String(), m.secrets)
		default:
			out[k] = v
		}
	}
	return out
}

// nopLogger discards everything.
type nopLogger struct{}

func (nopLogger) Debug(context.Context, string, map[string]any) {}
func (nopLogger) Info(context.Context, string, map[string]any)  {}
func (nopLogger) Warn(context.Context, string, map[string]any)  {}
func (nopLogger) Error(context.Context, string, map[string]any) {}

// leveledLogger adapts a Logger to go-retryablehttp's LeveledLogger for one
// call, whose context it carries. It blanks secrets (a bundle link's
// signature) in the message and in every text field, which
// go-retryablehttp's own entries would otherwise carry: it logs the URL,
// query included.
type leveledLogger struct {
	ctx     context.Context
	l       Logger
	secrets []string
}

var _ retryablehttp.LeveledLogger = leveledLogger{}

// Error receives go-retryablehttp's "request failed", which it reports for
// every failed attempt. One attempt failing is not the call failing: it may
// be retried, and an answer such as 404 may be what the caller expects. The
// call's outcome reaches the user as an error, so the attempt is a warning.
func (a leveledLogger) Error(msg string, kv ...any) { a.l.Warn(a.ctx, a.mask(msg), a.fields(kv)) }
func (a leveledLogger) Warn(msg string, kv ...any)  { a.l.Warn(a.ctx, a.mask(msg), a.fields(kv)) }
func (a leveledLogger) Info(msg string, kv ...any)  { a.l.Info(a.ctx, a.mask(msg), a.fields(kv)) }
func (a leveledLogger) Debug(msg string, kv ...any) { a.l.Debug(a.ctx, a.mask(msg), a.fields(kv)) }

func (a leveledLogger) mask(s string) string { return maskString(s, a.secrets) }

// fields turns alternating keys and values into a map of masked values.
func (a leveledLogger) fields(kv []any) map[string]any {
	f := fields(kv)
	if len(a.secrets) == 0 {
		return f
	}
	for k, v := range f {
		switch v := v.(type) {
		case string:
			f[k] = a.mask(v)
		case fmt.Stringer: // such as the *url.URL of go-retryablehttp's entries
			f[k] = a.mask(v.String())
		}
	}
	return f
}

// fields turns alternating keys and values into a map. Errors and
// durations become their text, which every log sink can render.
func fields(kv []any) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		key := fmt.Sprint(kv[i])
		switch v := kv[i+1].(type) {
		case error:
			m[key] = v.Error()
		case time.Duration:
			m[key] = v.String()
		default:
			m[key] = v
		}
	}
	return m
}
