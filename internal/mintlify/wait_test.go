package mintlify

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// scriptedPolicy's schedules return its waits in order, whatever they
// observe, and note when each observation arrived.
type scriptedPolicy struct {
	waits []time.Duration
	seen  *[]time.Time
}

func (p scriptedPolicy) Start(time.Time) poll.Schedule { return &scriptedSchedule{policy: p} }

type scriptedSchedule struct {
	policy scriptedPolicy
	n      int
}

func (s *scriptedSchedule) Next(obs poll.Observation) time.Duration {
	*s.policy.seen = append(*s.policy.seen, obs.Now)
	d := s.policy.waits[min(s.n, len(s.policy.waits)-1)]
	s.n++
	return d
}

// answer is one scripted status request: what it returns and how long it
// takes on the virtual clock.
type answer struct {
	done bool
	err  error
	took time.Duration
}

// TestWaitLoop drives the wait loop with scripted answers and a scripted
// schedule, on a virtual clock, without HTTP: when each request goes out,
// what the schedule sees, and how the wait ends.
func TestWaitLoop(t *testing.T) {
	t.Parallel()
	running, done := answer{}, answer{done: true}
	limited := &RetryError{Attempts: 6, Err: &APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: 7 * time.Second}}
	failed := &JobFailedError[StaticExportJob]{Job: StaticExportJob{JobID: "se_1", Status: StatusFailed}}
	s := time.Second
	cases := []struct {
		name     string
		first    bool // the caller has a status already
		waits    []time.Duration
		answers  []answer
		timeout  time.Duration // 0 for none
		wantSent []time.Duration
		wantSeen []time.Duration // when the observations the schedule saw arrived
		wantErr  error
		wantEnd  time.Duration
	}{
		{name: "first request at once, then as the schedule says",
			waits: []time.Duration{3 * s, 5 * s}, answers: []answer{running, running, done},
			wantSent: []time.Duration{0, 3 * s, 8 * s}, wantSeen: []time.Duration{0, 3 * s}, wantEnd: 8 * s},
		{name: "a status in hand schedules the first request",
			first: true, waits: []time.Duration{2 * s, 4 * s}, answers: []answer{running, done},
			wantSent: []time.Duration{2 * s, 6 * s}, wantSeen: []time.Duration{0, 2 * s}, wantEnd: 6 * s},
		{name: "a request still rate limited pauses for Retry-After",
			waits: []time.Duration{s}, answers: []answer{running, {err: limited}, running, done},
			wantSent: []time.Duration{0, s, 8 * s, 9 * s}, wantSeen: []time.Duration{0, 8 * s}, wantEnd: 9 * s},
		{name: "a rate limit without Retry-After pauses 10s",
			waits: []time.Duration{s}, answers: []answer{{err: &APIError{StatusCode: http.StatusTooManyRequests}}, done},
			wantSent: []time.Duration{0, 10 * s}, wantEnd: 10 * s},
		{name: "any other failure ends the wait",
			waits: []time.Duration{s}, answers: []answer{running, {err: &APIError{StatusCode: http.StatusBadGateway}}},
			wantSent: []time.Duration{0, s}, wantSeen: []time.Duration{0}, wantErr: &APIError{StatusCode: http.StatusBadGateway}, wantEnd: s},
		{name: "the final answer's error ends the wait",
			waits: []time.Duration{s}, answers: []answer{running, {done: true, err: failed}},
			wantSent: []time.Duration{0, s}, wantSeen: []time.Duration{0}, wantErr: failed, wantEnd: s},
		{name: "a sleep past the deadline ends at the deadline",
			waits: []time.Duration{time.Hour}, answers: []answer{running}, timeout: 90 * s,
			wantSent: []time.Duration{0}, wantSeen: []time.Duration{0}, wantErr: context.DeadlineExceeded, wantEnd: 90 * s},
		{name: "a slow answer paces the requests after it",
			waits: []time.Duration{0}, answers: []answer{running, running, {took: 2 * s}, running, done},
			wantSent: []time.Duration{0, 0, 0, 2 * s, 3 * s}, wantSeen: []time.Duration{0, 0, 2 * s, 2 * s}, wantEnd: 3 * s},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(start, true)
			var seen []time.Time
			client, err := New("mint_test", WithClock(clk), WithPollPolicy(scriptedPolicy{waits: c.waits, seen: &seen}))
			if err != nil {
				t.Fatal(err)
			}
			ctx := t.Context()
			if c.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = clk.WithTimeout(ctx, c.timeout)
				defer cancel()
			}
			var first *poll.Observation
			if c.first {
				first = &poll.Observation{Status: StatusQueued}
			}
			var sent []time.Duration
			err = client.wait(ctx, client.pollPolicy, first, func(context.Context) (poll.Observation, bool, error) {
				a := c.answers[len(sent)]
				sent = append(sent, clk.Now().Sub(start))
				clk.Advance(a.took)
				return poll.Observation{Status: StatusRunning}, a.done, a.err
			})
			if !errors.Is(err, c.wantErr) && (c.wantErr == nil || err == nil || err.Error() != c.wantErr.Error()) {
				t.Errorf("err = %v, want %v", err, c.wantErr)
			}
			if !slices.Equal(sent, c.wantSent) {
				t.Errorf("requests sent at %v, want %v", sent, c.wantSent)
			}
			var seenAt []time.Duration
			for _, at := range seen {
				seenAt = append(seenAt, at.Sub(start))
			}
			if !slices.Equal(seenAt, c.wantSeen) {
				t.Errorf("the schedule saw answers of %v, want %v", seenAt, c.wantSeen)
			}
			if end := clk.Now().Sub(start); end != c.wantEnd {
				t.Errorf("the wait ended at %s, want %s", end, c.wantEnd)
			}
		})
	}
}
