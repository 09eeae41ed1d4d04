package acctest

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// WaitingClock is a test's virtual clock that tells when the provider
// first waits on it (Started), for a test that interrupts that wait. Time
// stands still until RunFreely; then each wait moves time on instead of
// blocking.
type WaitingClock struct {
	*clock.Fake
	started chan struct{}
	once    sync.Once
	free    atomic.Bool
}

// NewWaitingClock wraps the clock of a test's stand-in (Env.Clock).
func NewWaitingClock(c *clock.Fake) *WaitingClock {
	return &WaitingClock{Fake: c, started: make(chan struct{})}
}

// Started is closed once something first waits on the clock.
func (c *WaitingClock) Started() <-chan struct{} { return c.started }

// RunFreely makes every later wait move time on at once.
func (c *WaitingClock) RunFreely() { c.free.Store(true) }

// Sleep waits d of virtual time.
func (c *WaitingClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.free.Load() {
		c.Advance(d)
		return ctx.Err()
	}
	c.once.Do(func() { close(c.started) })
	return c.Fake.Sleep(ctx, d)
}
