package mintlify

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// A call whose rate limit Mintlify documents waits its turn when the API
// answers 429: the limit is shared by every caller of the organization (or
// project), so a 429 caused by another workspace, CI job or provider block
// is normal at scale, not a fault. Such a 429 is retried until the call's
// deadline (the operation's timeout), not until RetryPolicy.MaxRetries,
// which stays the budget for faults (5xx, resets). Each wait is logged
// with the limit's name and told to the context's TurnHook.
//
// The waits are spread so that the callers who met the limit together do
// not come back together: jitter is added on top of a Retry-After, never
// under it, and without a Retry-After (the organization-wide 429s of
// Mintlify's shared key layer may come as plain text without one) the next
// attempt comes one window of the limit later, by when every request that
// filled the window has aged out of it.

// Limit is one of the API's documented rate limits.
type Limit struct {
	// Name names the calls that share the limit, such as "trigger preview
	// deployment".
	Name string
	// N requests per Per, per Scope ("organization" or "project").
	N     int
	Per   time.Duration
	Scope string
}

// The documented limits.
var (
	// LimitTriggers is shared by trigger update (deployments), trigger
	// automation and the automation webhook.
	LimitTriggers = Limit{Name: "trigger update and trigger automation", N: 10, Per: 10 * time.Second, Scope: "organization"}
	// LimitPreviews is trigger preview deployment's.
	LimitPreviews = Limit{Name: "trigger preview deployment", N: 5, Per: time.Minute, Scope: "organization"}
	// LimitExportStarts is the project-scoped static export's job starts.
	LimitExportStarts = Limit{Name: "static export job starts", N: 10, Per: time.Hour, Scope: "organization"}
	// LimitAgentPrompts is shared by agent job creation and follow-up
	// messages.
	LimitAgentPrompts = Limit{Name: "agent job creation and follow-up messages", N: 100, Per: time.Hour, Scope: "project"}
)

// String names the limit and its rate: "trigger preview deployment (5
// requests per minute per organization)".
func (l Limit) String() string {
	return fmt.Sprintf("%s (%s)", l.Name, l.Rate())
}

// Rate is the limit's rate in words: "5 requests per minute per
// organization".
func (l Limit) Rate() string {
	return fmt.Sprintf("%d requests per %s per %s", l.N, windowWords(l.Per), l.Scope)
}

func windowWords(d time.Duration) string {
	switch d {
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	if d%time.Second == 0 {
		return fmt.Sprintf("%d seconds", d/time.Second)
	}
	return d.String()
}

// maxTurnSpread bounds the jitter of a turn: a limit's window divided by
// its count (the gap between two requests at the limit's full rate), at
// most this long.
const maxTurnSpread = 15 * time.Second

// turnMargin is what a last turn leaves before the deadline, for its own
// answer to arrive.
const turnMargin = 2 * time.Second

// maxTurnsWithoutDeadline bounds the turns of a call whose ctx has no
// deadline, so that a caller without one does not wait forever.
const maxTurnsWithoutDeadline = 60

// spread is the jitter a turn adds: up to the gap between two requests at
// the limit's full rate.
func (l Limit) spread() time.Duration {
	return min(l.Per/time.Duration(max(l.N, 1)), maxTurnSpread)
}

// turnWait is how long to wait before the next attempt after a 429 that
// asked for retryAfter (0: none): the Retry-After (at most the window)
// plus jitter, or a whole window plus jitter.
func (l Limit) turnWait(retryAfter time.Duration) time.Duration {
	base := l.Per
	if retryAfter > 0 {
		base = min(retryAfter, l.Per)
	}
	return base + time.Duration(rand.Int64N(int64(l.spread())+1))
}

// Turn is one wait of a call for its turn within a documented limit.
type Turn struct {
	// Limit is the limit the API enforced.
	Limit Limit
	// Route is the call, such as "POST /v1/project/preview/proj_1".
	Route string
	// N counts the turns of the call: 1 for its first wait.
	N int
	// Wait is how long the call waits before its next attempt.
	Wait time.Duration
	// RetryAfter is what the API asked for; 0 when it named nothing (a
	// plain-text 429 of the organization-wide limit).
	RetryAfter time.Duration
}

// Message describes the turn for a person: "Waiting 1m4s for a turn within
// Mintlify's rate limit on trigger preview deployment (5 requests per
// minute per organization), shared by every run of the organization (wait
// 2)".
func (t Turn) Message() string {
	asked := "the API named no Retry-After"
	if t.RetryAfter > 0 {
		asked = fmt.Sprintf("the API asked for %s", t.RetryAfter.Round(time.Second))
	}
	return fmt.Sprintf("Waiting %s for a turn within Mintlify's rate limit on %s, shared by every run of the %s "+
		"(wait %d; %s)", t.Wait.Round(time.Second), t.Limit, t.Limit.Scope, t.N, asked)
}

// TurnHook is told of each turn a call waits for.
type TurnHook func(Turn)

type turnHookKey struct{}

// WithTurnHook returns ctx with hook, which every call made with it tells
// of each wait for its turn within a documented limit (such as an
// action's progress). Several hooks on one ctx are all told.
func WithTurnHook(ctx context.Context, hook TurnHook) context.Context {
	if prev, ok := ctx.Value(turnHookKey{}).(TurnHook); ok {
		next := hook
		hook = func(t Turn) { prev(t); next(t) }
	}
	return context.WithValue(ctx, turnHookKey{}, hook)
}

// waitTurn waits for the call's next turn after err, a 429 of its
// documented limit, and reports whether to send it; a wait that would end
// after ctx's deadline is shortened to try once more before it, unless
// the API named when the next turn comes, and fails when nothing fits.
func (a *callState) waitTurn(ctx context.Context, err error) (bool, error) {
	limit := *a.call.limit
	a.turns++
	var apiErr *APIError
	errors.As(err, &apiErr)
	wait := limit.turnWait(apiErr.RetryAfter)
	now := a.c.clock.Now()
	stop := func(wait, left time.Duration) (bool, error) {
		return a.fail(&RetryError{Attempts: a.n, Err: err, Stop: context.DeadlineExceeded, Wait: wait, Left: left,
			Limit: &limit, Turns: a.turns - 1})
	}
	if deadline, ok := clock.Deadline(ctx); ok {
		left := deadline.Sub(now)
		if now.Add(wait).After(deadline) {
			if apiErr.RetryAfter > 0 || left-turnMargin < time.Second {
				return stop(wait, left)
			}
			wait = left - turnMargin
		}
	} else if a.turns > maxTurnsWithoutDeadline {
		return a.fail(&RetryError{Attempts: a.n, Err: err, Limit: &limit, Turns: a.turns - 1})
	}
	turn := Turn{Limit: limit, Route: a.route, N: a.turns, Wait: wait, RetryAfter: apiErr.RetryAfter}
	a.c.logger.Info(ctx, turn.Message(), map[string]any{
		"route": a.route, "limit": limit.Name, "rate": limit.Rate(), "wait": wait.String(), "turn": a.turns,
		"retry_after": apiErr.RetryAfter.String(),
	})
	if hook, ok := ctx.Value(turnHookKey{}).(TurnHook); ok {
		hook(turn)
	}
	if serr := a.c.clock.Sleep(ctx, wait); serr != nil {
		return a.fail(&RetryError{Attempts: a.n, Err: err, Stop: serr, Limit: &limit, Turns: a.turns})
	}
	return true, nil
}

// creditWords are what a refusal for credits says: automation runs (and
// agent runs) spend the organization's credits, and overages are off by
// default, so a run can be refused once the month's credits are spent.
// How Mintlify words it is not documented, and it may come as a 429.
var creditWords = []string{"credit", "overage"}

// IsOutOfCredits reports whether err is the API refusing a request because
// the organization's credits are spent: an answer whose text speaks of
// credits, whatever its status. It is never retried, and it is not a rate
// limit.
func IsOutOfCredits(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode < 400 || apiErr.StatusCode == http.StatusNotFound {
		return false
	}
	lower := strings.ToLower(apiErr.Message)
	for _, w := range creditWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// LimitOf returns the documented limit that err's call waited for in vain
// (a *RetryError of a call that ran out of turns), and false otherwise.
func LimitOf(err error) (Limit, bool) {
	var re *RetryError
	if errors.As(err, &re) && re.Limit != nil {
		return *re.Limit, true
	}
	return Limit{}, false
}
