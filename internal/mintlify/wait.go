package mintlify

import (
	"context"
	"errors"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// DefaultPollPolicy returns the policy used when none is configured: a
// poll.Adaptive policy with its defaults.
func DefaultPollPolicy() poll.Policy {
	return poll.Adaptive{}
}

// slowAnswer: a status answer this slow waited out a 429 and its
// Retry-After inside the request's retries, or the API is struggling:
// either way, the API pushed back, and the pacer hears of it.
const slowAnswer = time.Second

// pollFunc makes one status request. done ends the wait with err; an error
// without done is a failed request.
type pollFunc func(ctx context.Context) (obs poll.Observation, done bool, err error)

// wait runs ask until it is done, spacing the requests with the client's
// poll policy and its pacer, and never sleeping past ctx's deadline. first,
// when not nil, is a status the caller has just received (the answer to
// starting the job): the schedule starts from it, and the first request
// waits as long as the schedule says; otherwise it goes out at once.
//
// A status request that is still rate limited (429) after the request's own
// retries pauses for the API's Retry-After, at most the retry policy's
// MaxRetryAfter (see rateLimitPause), and the wait goes on; that and any
// answer slower than slowAnswer make the pacer slow down every wait of the
// client. A pause that would end after ctx's deadline, and any other
// failure, end the wait at once. It returns ctx.Err() once ctx ends.
func (c *Client) wait(ctx context.Context, first *poll.Observation, ask pollFunc) error {
	schedule := c.pollPolicy.Start(c.clock.Now())
	due := c.clock.Now()
	if first != nil {
		obs := *first
		obs.Now = due
		due = due.Add(schedule.Next(obs))
	}
	for {
		at := c.pacer.Slot(c.clock.Now(), due)
		if d := at.Sub(c.clock.Now()); d > 0 {
			if err := c.sleepWithin(ctx, d); err != nil {
				return err
			}
		}
		sent := c.clock.Now()
		obs, done, err := ask(ctx)
		if done {
			return err
		}
		now := c.clock.Now()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			pause, err := c.rateLimitPause(ctx, now, err)
			if err != nil {
				return err
			}
			c.pacer.Pushback(now)
			due = now.Add(pause)
			continue
		}
		if now.Sub(sent) >= slowAnswer {
			c.pacer.Pushback(now)
		}
		obs.Now = now
		due = now.Add(schedule.Next(obs))
	}
}

// sleepWithin sleeps for d, or until ctx's deadline on the client's clock if
// that comes first: a sleep never outlasts the deadline, so the caller's
// timeout fires on time rather than up to a poll interval late.
func (c *Client) sleepWithin(ctx context.Context, d time.Duration) error {
	if deadline, ok := clock.Deadline(ctx); ok {
		if left := deadline.Sub(c.clock.Now()); left > 0 && left < d {
			d = left
		}
	}
	return c.clock.Sleep(ctx, d)
}

// rateLimitPause is how long a wait pauses after err, a status request that
// failed at now: for a 429 whose retries ran out, the API's Retry-After
// capped like a retry's (RetryPolicy.MaxRetryAfter, at least a second).
// Any other err is returned as it is. So is a pause that would end after
// ctx's deadline, as a *RetryError stopped by the deadline, with the pause
// as its Wait: the wait ends at once saying the API is rate limiting,
// rather than sleeping until the deadline and ending as a timeout.
func (c *Client) rateLimitPause(ctx context.Context, now time.Time, err error) (time.Duration, error) {
	pause, limited := rateLimited(err)
	if !limited {
		return 0, err
	}
	pause = min(pause, max(c.retryPolicy.MaxRetryAfter, time.Second))
	if deadline, ok := clock.Deadline(ctx); ok && now.Add(pause).After(deadline) {
		var apiErr *APIError
		errors.As(err, &apiErr) // rateLimited found it
		return 0, &RetryError{Attempts: Attempts(err), Err: apiErr, Stop: context.DeadlineExceeded, Wait: pause,
			Left: deadline.Sub(now)}
	}
	return pause, nil
}
