package mintlify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// DefaultPollPolicy returns the policy used when none is configured: a
// poll.Adaptive policy with its defaults.
func DefaultPollPolicy() poll.Policy {
	return poll.Adaptive{}
}

// Job is a job the client waits for: a StaticExportJob (WaitForStaticExport),
// a ProjectExportJob (WaitForProjectExport), an AgentJob (WaitForAgentJob)
// or a Deployment. Both waits end the same way: on a final
// status, on a failed job (a *JobFailedError), on a status the API does not
// document (an *UnknownStatusError), or when ctx ends; and both return the
// last job seen beside any error.
type Job interface {
	StaticExportJob | ProjectExportJob | AgentJob | Deployment
	// failure says that the job failed, and why if the API said.
	failure() string
}

// WaitOption changes a wait for a job of kind J.
type WaitOption[J Job] func(*waitOptions[J])

type waitOptions[J Job] struct {
	started  *J
	onChange func(J)
	// policy replaces the client's poll policy for this wait; nil for
	// none.
	policy poll.Policy
}

// Started hands the wait the answer of the call that started the job
// (StartStaticExport, CreateAgentJob or SendAgentJobMessage). That answer
// is the wait's first status: the first request goes out only when the
// poll policy asks for one (a couple of seconds later for a queued job)
// rather than at once, a job that is already final ends the wait without a
// request, and OnChange is not called for it. A nil job changes nothing.
func Started[J Job](job *J) WaitOption[J] {
	return func(o *waitOptions[J]) { o.started = job }
}

// OnChange calls f with each status of the job that differs from the one
// before: in status for an agent job; in status, progress or page count for
// a static export job.
func OnChange[J Job](f func(J)) WaitOption[J] {
	return func(o *waitOptions[J]) { o.onChange = f }
}

// jobKind is what a wait needs to know about one kind of job.
type jobKind[J Job] struct {
	what    string   // such as "static export job"
	known   []string // every documented status
	going   []string // the statuses of a job that has not ended
	failed  string   // the status of a job that failed
	id      func(*J) string
	observe func(*J) poll.Observation
	// changed reports whether next differs from prev for OnChange.
	changed func(prev, next *J) bool
}

// waitFor polls a job with get until it ends, spacing the requests with
// the client's poll policy and pacer (see wait).
func waitFor[J Job](ctx context.Context, c *Client, kind jobKind[J], jobID string,
	get func(context.Context) (*J, error), opts []WaitOption[J]) (*J, error) {
	var o waitOptions[J]
	for _, opt := range opts {
		opt(&o)
	}
	if jobID == "" {
		return nil, fmt.Errorf("no %s to wait for: the job ID is empty", kind.what)
	}
	last := o.started
	var first *poll.Observation
	if last != nil {
		if id := kind.id(last); id != jobID {
			return nil, fmt.Errorf("the started %s is %s, not %s", kind.what, id, jobID)
		}
		if done, err := kind.ended(last); done {
			return last, err
		}
		obs := kind.observe(last)
		first = &obs
	}
	policy := c.pollPolicy
	if o.policy != nil {
		policy = o.policy
	}
	err := c.wait(ctx, policy, first, func(ctx context.Context) (poll.Observation, bool, error) {
		job, err := get(ctx)
		if err != nil {
			return poll.Observation{}, false, err
		}
		if o.onChange != nil && (last == nil || kind.changed(last, job)) {
			o.onChange(*job)
		}
		last = job
		done, err := kind.ended(job)
		return kind.observe(job), done, err
	})
	return last, err
}

// ended reports whether a wait for job has ended, and how: a job in a final
// status ends it, a failed one with a *JobFailedError, one in a status the
// API does not document with an *UnknownStatusError.
func (k jobKind[J]) ended(job *J) (bool, error) {
	status := k.observe(job).Status
	switch {
	case slices.Contains(k.going, status):
		return false, nil
	case status == k.failed:
		return true, &JobFailedError[J]{Job: *job}
	case slices.Contains(k.known, status):
		return true, nil
	}
	return true, &UnknownStatusError{What: k.what, JobID: k.id(job), Status: status, Known: k.known}
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
// waits as long as the schedule says; otherwise it goes out at once, unless
// the policy knows how long to wait first (a poll.Foretold of a job just
// started).
//
// A status request that is still rate limited (429) after the request's own
// retries pauses for the API's Retry-After, at most the retry policy's
// MaxRetryAfter (see rateLimitPause), and the wait goes on; that and any
// answer slower than slowAnswer make the pacer slow down every wait of the
// client. A pause that would end after ctx's deadline, and any other
// failure, end the wait at once. It returns ctx.Err() once ctx ends.
func (c *Client) wait(ctx context.Context, policy poll.Policy, first *poll.Observation, ask pollFunc) error {
	schedule := policy.Start(c.clock.Now())
	due := firstDue(c.clock.Now(), policy, schedule, first)
	for {
		at := c.pacer.Slot(c.clock.Now(), due)
		if err := clock.SleepWithin(ctx, c.clock, at.Sub(c.clock.Now())); err != nil {
			return err
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
			pause, stop, err := c.rateLimitPause(err)
			if err != nil {
				return err
			}
			if left, ok := clock.Left(ctx, now); ok && pause > left {
				stop.Left = left
				return stop
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

// firstDue is when a wait that starts at now sends its first request (see
// wait).
func firstDue(now time.Time, policy poll.Policy, schedule poll.Schedule, first *poll.Observation) time.Time {
	if first != nil {
		obs := *first
		obs.Now = now
		return now.Add(schedule.Next(obs))
	}
	if f, ok := policy.(firstDelayer); ok {
		if d, ok := f.FirstDelay(); ok {
			return now.Add(d)
		}
	}
	return now
}

// firstDelayer is a policy that may know how long to wait before the first
// request of a wait that has no status yet (poll.Foretold).
type firstDelayer interface {
	FirstDelay() (time.Duration, bool)
}

// rateLimitPause is how long a wait pauses after err, a status request that
// failed: for a 429 whose retries ran out, the API's Retry-After capped like
// a retry's (RetryPolicy.MaxRetryAfter, at least a second). Any other err is
// returned as it is. stop ends the wait instead when the pause would end
// after the wait's deadline, saying the API is rate limiting rather than
// sleeping until the deadline and ending as a timeout; its Left, the time
// left before the deadline, is the caller's to fill.
func (c *Client) rateLimitPause(err error) (pause time.Duration, stop *RetryError, _ error) {
	pause, limited := rateLimited(err)
	if !limited {
		return 0, nil, err
	}
	pause = min(pause, max(c.retryPolicy.MaxRetryAfter, time.Second))
	var apiErr *APIError
	errors.As(err, &apiErr) // rateLimited found it
	return pause, &RetryError{Attempts: Attempts(err), Err: apiErr, Stop: context.DeadlineExceeded, Wait: pause}, nil
}
