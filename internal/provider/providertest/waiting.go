package providertest

import (
	"context"
	"sync"
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
}

// NewWaitingClock wraps the clock of a test's stand-in (Env.Clock).
func NewWaitingClock(c *clock.Fake) *WaitingClock {
	return &WaitingClock{Fake: c, started: make(chan struct{})}
}

// Started is closed once something first waits on the clock.
func (c *WaitingClock) Started() <-chan struct{} { return c.started }

// RunFreely makes every later wait move time on at once (clock.Fake's
// AutoAdvance).
func (c *WaitingClock) RunFreely() { c.AutoAdvance(true) }

// Sleep waits d of virtual time.
func (c *WaitingClock) Sleep(ctx context.Context, d time.Duration) error {
	c.once.Do(func() { close(c.started) })
	return c.Fake.Sleep(ctx, d)
}
