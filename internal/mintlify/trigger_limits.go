package mintlify

import (
	"context"
	"sync"
	"time"
)

// The API's documented rate limits of the triggers, per organization:
// deploying and running automations share 10 requests per 10 seconds;
// previews allow 5 a minute. A client paces its own triggers within them,
// so that a configuration with many deployments gets no 429 from its own
// requests; a 429 that other callers of the organization cause is retried
// after its Retry-After (retry.go).
type triggerLimits struct {
	triggers, previews *window
}

func newTriggerLimits() *triggerLimits {
	return &triggerLimits{
		triggers: &window{n: 10, per: 10 * time.Second},
		previews: &window{n: 5, per: time.Minute},
	}
}

// window is a sliding-window limit, shared by every call of one client (a
// provider configuration makes one client, for one organization's key).
type window struct {
	n   int
	per time.Duration

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
		if now.Sub(at) < w.per {
			recent = append(recent, at)
		}
	}
	w.sent = recent
	at := now
	if len(recent) >= w.n {
		at = recent[len(recent)-w.n].Add(w.per)
	}
	w.sent = append(w.sent, at)
	return at.Sub(now)
}

// trigger sends a trigger POST once its window allows, never repeated when
// the API may have acted on it.
func (c *Client) trigger(ctx context.Context, limit *window, segments []string, in, out any) error {
	if wait := limit.reserve(c.clock.Now()); wait > 0 {
		c.logger.Debug(ctx, "waiting for the API's trigger rate limit", map[string]any{"wait": wait.String()})
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	return c.postOnce(ctx, segments, in, out)
}
