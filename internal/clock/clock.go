// Package clock lets the API client, the provider and the fake API share one
// notion of time, so tests can move time instead of waiting for it.
package clock

import (
	"context"
	"sync"
	"time"
)

// Clock is the time source every wait in this provider goes through.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d or until ctx is done, whichever comes first, and
	// returns ctx.Err() in the second case.
	Sleep(ctx context.Context, d time.Duration) error
	// WithTimeout is context.WithTimeout measured on this clock.
	WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
}

// Real returns the wall clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (realClock) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

// Fake is a virtual clock. Time moves only through Advance, Set, or (with
// AutoAdvance) through Sleep itself: a sleeper moves the clock forward by its
// own duration and returns at once, which runs a 30-minute export in
// milliseconds while every timestamp and deadline stays consistent.
type Fake struct {
	mu          sync.Mutex
	now         time.Time
	autoAdvance bool
	waiters     []*waiter
}

type waiter struct {
	at   time.Time
	fire func()
}

// NewFake returns a virtual clock set to start. With autoAdvance, Sleep
// advances the clock instead of blocking.
func NewFake(start time.Time, autoAdvance bool) *Fake {
	return &Fake{now: start, autoAdvance: autoAdvance}
}

// AutoAdvance turns on or off, from now on, what NewFake's autoAdvance
// does: Sleep advancing the clock instead of blocking.
func (f *Fake) AutoAdvance(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.autoAdvance = on
}

// Now returns the virtual time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Advance moves the clock forward by d, waking every sleeper and expiring
// every timeout that falls due.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	due := f.dueLocked()
	f.mu.Unlock()
	for _, fire := range due {
		fire()
	}
}

// Set moves the clock to t if t is later than now.
func (f *Fake) Set(t time.Time) {
	if d := t.Sub(f.Now()); d > 0 {
		f.Advance(d)
	}
}

// Sleepers reports how many Sleep calls and timeouts are pending, so a test
// can wait until a goroutine is parked before advancing the clock.
func (f *Fake) Sleepers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// Sleep waits for d of virtual time.
func (f *Fake) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	auto := f.autoAdvance
	f.mu.Unlock()
	if auto {
		f.Advance(d)
		return ctx.Err()
	}
	woke := make(chan struct{})
	w := f.add(d, func() { close(woke) })
	select {
	case <-ctx.Done():
		f.remove(w)
		return ctx.Err()
	case <-woke:
		return nil
	}
}

// WithTimeout returns a context that ends with context.DeadlineExceeded once
// the virtual clock passes now+d.
func (f *Fake) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	at := f.Now().Add(d)
	if prev, ok := Deadline(parent); ok && prev.Before(at) {
		at = prev
	}
	vctx := &virtualDeadlineCtx{Context: context.WithValue(ctx, deadlineKey{}, at)}
	w := f.add(d, func() { cancel(context.DeadlineExceeded) })
	return vctx, func() {
		f.remove(w)
		cancel(context.Canceled)
	}
}

func (f *Fake) add(d time.Duration, fire func()) *waiter {
	f.mu.Lock()
	w := &waiter{at: f.now.Add(d), fire: fire}
	f.waiters = append(f.waiters, w)
	due := f.dueLocked()
	f.mu.Unlock()
	for _, fn := range due {
		fn()
	}
	return w
}

func (f *Fake) remove(w *waiter) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, x := range f.waiters {
		if x == w {
			f.waiters = append(f.waiters[:i], f.waiters[i+1:]...)
			return
		}
	}
}

// dueLocked removes and returns the callbacks whose time has come.
func (f *Fake) dueLocked() []func() {
	var due []func()
	kept := f.waiters[:0]
	for _, w := range f.waiters {
		if !w.at.After(f.now) {
			due = append(due, w.fire)
		} else {
			kept = append(kept, w)
		}
	}
	f.waiters = kept
	return due
}

// virtualDeadlineCtx reports its cancellation cause as its error, so a
// virtual timeout looks exactly like context.WithTimeout's to callers that
// test errors.Is(err, context.DeadlineExceeded).
type virtualDeadlineCtx struct{ context.Context }

func (c *virtualDeadlineCtx) Err() error {
	if c.Context.Err() == nil {
		return nil
	}
	return context.Cause(c.Context)
}

type deadlineKey struct{}

// Deadline returns when ctx times out, measured on the clock that set the
// timeout: the virtual deadline of a Fake's WithTimeout, or else
// ctx.Deadline(). Waits compare it with their clock's Now to avoid starting a
// sleep that would outlast the deadline.
//
// A virtual deadline is deliberately not reported by ctx.Deadline(): the
// network stack reads that one in real time.
func Deadline(ctx context.Context) (time.Time, bool) {
	if at, ok := ctx.Value(deadlineKey{}).(time.Time); ok {
		return at, true
	}
	return ctx.Deadline()
}

// Left is how long is left at now before ctx's deadline (Deadline), which
// may be negative; ok is false for a ctx without a deadline.
func Left(ctx context.Context, now time.Time) (left time.Duration, ok bool) {
	deadline, ok := Deadline(ctx)
	if !ok {
		return 0, false
	}
	return deadline.Sub(now), true
}

// SleepWithin sleeps on c for d, or until ctx's deadline (Deadline) if that
// comes first: a sleep never outlasts the deadline, so the caller's timeout
// fires on time rather than up to a poll interval late. A d of zero or less
// returns at once.
func SleepWithin(ctx context.Context, c Clock, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if left, ok := Left(ctx, c.Now()); ok && left > 0 && left < d {
		d = left
	}
	return c.Sleep(ctx, d)
}
