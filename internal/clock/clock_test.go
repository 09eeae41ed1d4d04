package clock

import (
	"context"
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

func TestFakeAutoAdvance(t *testing.T) {
	t.Parallel()
	c := NewFake(t0, true)
	if err := c.Sleep(t.Context(), 90*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := c.Now(); !got.Equal(t0.Add(90 * time.Second)) {
		t.Errorf("Now() = %s after a 90s sleep", got)
	}
}

func TestFakeTimeoutExpiresInVirtualTime(t *testing.T) {
	t.Parallel()
	c := NewFake(t0, true)
	ctx, cancel := c.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := c.Sleep(ctx, 59*time.Second); err != nil {
		t.Fatalf("sleep before the deadline: %v", err)
	}
	err := c.Sleep(ctx, 2*time.Second)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("sleep past the deadline: err = %v, ctx.Err() = %v", err, ctx.Err())
	}
	// A child context reports the same error, as with context.WithTimeout.
	child, stop := context.WithCancel(ctx)
	defer stop()
	if !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Errorf("child ctx.Err() = %v", child.Err())
	}
}

func TestFakeManualSleepWakesOnAdvance(t *testing.T) {
	t.Parallel()
	c := NewFake(t0, false)
	done := make(chan error, 1)
	go func() { done <- c.Sleep(t.Context(), time.Minute) }()
	for c.Sleepers() == 0 {
		select {
		case err := <-done:
			t.Fatalf("Sleep returned before the clock moved: %v", err)
		default:
		}
	}
	c.Advance(30 * time.Second)
	select {
	case err := <-done:
		t.Fatalf("Sleep returned after half its time: %v", err)
	default:
	}
	c.Advance(30 * time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestFakeSleepEndsOnCancel(t *testing.T) {
	t.Parallel()
	c := NewFake(t0, false)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.Sleep(ctx, time.Hour) }()
	for c.Sleepers() == 0 {
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := c.Sleepers(); n != 0 {
		t.Errorf("a cancelled sleeper is still registered: %d", n)
	}
}

func TestRealSleepEndsOnCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := Real().Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestDeadline(t *testing.T) {
	t.Parallel()
	c := NewFake(t0, true)
	ctx, cancel := c.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if at, ok := Deadline(ctx); !ok || !at.Equal(t0.Add(time.Hour)) {
		t.Errorf("virtual deadline = %s, %v", at, ok)
	}
	if _, ok := ctx.Deadline(); ok {
		t.Error("a virtual deadline must not reach ctx.Deadline(), which the network stack reads in real time")
	}
	inner, cancelInner := c.WithTimeout(ctx, 2*time.Hour)
	defer cancelInner()
	if at, _ := Deadline(inner); !at.Equal(t0.Add(time.Hour)) {
		t.Errorf("a longer inner timeout must keep the outer deadline, got %s", at)
	}
	realCtx, cancelReal := Real().WithTimeout(context.Background(), time.Minute)
	defer cancelReal()
	if _, ok := Deadline(realCtx); !ok {
		t.Error("a real timeout has a deadline")
	}
}
