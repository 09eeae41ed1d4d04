package mintlify

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// The API's documented rate limits of the triggers, per organization:
// deploying and running automations share 10 requests per 10 seconds;
// previews allow 5 a minute. A client paces its own triggers within them,
// so that a configuration with many deployments gets no 429 from its own
// requests; a 429 that other callers of the organization cause is a turn
// to wait for, until the call's deadline (rate_limits.go).
type triggerLimits struct {
	triggers, previews *window
}

func newTriggerLimits() *triggerLimits {
	return &triggerLimits{
		triggers: &window{limit: LimitTriggers},
		previews: &window{limit: LimitPreviews},
	}
}

// window is a sliding-window limit, shared by every call of one client (a
// provider configuration makes one client, for one organization's key).
type window struct {
	limit Limit

	mu   sync.Mutex
	sent []time.Time
}

// reserve returns how long to wait until a request may go at now, and
// books the request at that moment.
func (w *window) reserve(now time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	recent := w.sent[:0]
	for _, at := range w.sent {
		if now.Sub(at) < w.limit.Per {
			recent = append(recent, at)
		}
	}
	w.sent = recent
	at := now
	if len(recent) >= w.limit.N {
		at = recent[len(recent)-w.limit.N].Add(w.limit.Per)
	}
	w.sent = append(w.sent, at)
	return at.Sub(now)
}

// trigger sends a trigger POST once its window allows, never repeated when
// the API may have acted on it; a 429 is a turn to wait for.
func (c *Client) trigger(ctx context.Context, w *window, segments []string, in, out any) error {
	if wait := w.reserve(c.clock.Now()); wait > 0 {
		c.logger.Debug(ctx, "waiting for the API's trigger rate limit", map[string]any{"wait": wait.String(),
			"limit": w.limit.Name})
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	return c.send(ctx, call{method: http.MethodPost, segments: segments, in: in, out: out, limit: &w.limit})
}
