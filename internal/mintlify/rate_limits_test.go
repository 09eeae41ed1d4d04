package mintlify

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// orgLimitCall is one call of the client against the plain-text 429 of
// an organization-wide limit (no Retry-After), as Mintlify's shared key
// layer may answer it.
type orgLimitCall struct {
	name string
	// limit is the call's documented limit; nil for a call without one,
	// whose 429s count against max_retries.
	limit  *Limit
	method string
	prefix string
	run    func(ctx context.Context, c *Client, ids orgLimitIDs) error
}

// orgLimitIDs are what the reads read, made before the 429s begin.
type orgLimitIDs struct{ exportJob, projectJob, deployment string }

var orgLimitCalls = []orgLimitCall{
	{"trigger deployment", &LimitTriggers, http.MethodPost, "/v1/project/update/", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.TriggerDeployment(ctx, "proj")
		return err
	}},
	{"trigger preview", &LimitPreviews, http.MethodPost, "/v1/project/preview/", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.TriggerPreview(ctx, "proj", "feature-x")
		return err
	}},
	{"trigger automation", &LimitTriggers, http.MethodPost, "/v1/workflow/", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.TriggerAutomation(ctx, "proj", scheduledAutomation)
		return err
	}},
	{"automation webhook", &LimitTriggers, http.MethodPost, "/v2/workflow/", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.TriggerAutomationWebhook(ctx, "proj", webhookAutomation)
		return err
	}},
	{"create agent job", &LimitAgentPrompts, http.MethodPost, "/v2/agent/proj/job", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.CreateAgentJob(ctx, "proj", "Document v2")
		return err
	}},
	{"agent follow-up", &LimitAgentPrompts, http.MethodPost, "/v2/agent/proj/job/aj_1/message", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.SendAgentJobMessage(ctx, "proj", "aj_1", "Also v3")
		return err
	}},
	{"start project export", &LimitExportStarts, http.MethodPost, "/v1/static-export/proj_2/jobs", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.StartProjectExport(ctx, "proj_2", ProjectExportRequest{})
		return err
	}},
	{"start static export", nil, http.MethodPost, "/v1/static-export/jobs", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
		return err
	}},
	{"read static export job", nil, http.MethodGet, "/v1/static-export/jobs/", func(ctx context.Context, c *Client, ids orgLimitIDs) error {
		_, err := c.GetStaticExportJob(ctx, ids.exportJob)
		return err
	}},
	{"generate bundle", nil, http.MethodPost, "/v1/static-export/jobs/", func(ctx context.Context, c *Client, ids orgLimitIDs) error {
		_, err := c.GenerateBundle(ctx, ids.exportJob)
		return err
	}},
	{"read project export job", nil, http.MethodGet, "/v1/static-export/proj/jobs/", func(ctx context.Context, c *Client, ids orgLimitIDs) error {
		_, err := c.GetProjectExportJob(ctx, "proj", ids.projectJob)
		return err
	}},
	{"read agent job", nil, http.MethodGet, "/v2/agent/", func(ctx context.Context, c *Client, _ orgLimitIDs) error {
		_, err := c.GetAgentJob(ctx, "proj", "aj_1")
		return err
	}},
	{"read deployment", nil, http.MethodGet, "/v1/project/update-status/", func(ctx context.Context, c *Client, ids orgLimitIDs) error {
		_, err := c.GetDeployment(ctx, ids.deployment)
		return err
	}},
}

// orgLimitFake serves both static export contracts, automations and an
// agent job, with the jobs the reads read, and returns a client on its
// clock that logs to logs.
func orgLimitFake(t *testing.T) (*Client, *fakeapi.Server, *clock.Fake, orgLimitIDs, *recordingLogger) {
	t.Helper()
	next := fakeapi.NextExport{Contracts: fakeapi.ServeBoth, Plan: quickJobs}
	env := fakeapitest.New(t, fakeapitest.Fake(append(webhookFakeOptions(),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &next}))...))
	logs := &recordingLogger{}
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithLogger(logs))
	if err != nil {
		t.Fatal(err)
	}
	env.Fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs"})
	export := mustStart(t, c)
	env.Clock.Advance(time.Hour) // the job completes: its bundle can be generated
	project, err := c.StartProjectExport(t.Context(), "proj", ProjectExportRequest{})
	if err != nil {
		t.Fatal(err)
	}
	deployment, err := c.TriggerDeployment(t.Context(), "proj")
	if err != nil {
		t.Fatal(err)
	}
	return c, env.Fake, env.Clock, orgLimitIDs{export.JobID, project.JobID, deployment}, logs
}

// orgLimitFaults answers the call's next n requests with the plain-text
// 429 of an organization-wide limit.
func orgLimitFaults(fake *fakeapi.Server, call orgLimitCall, n int) {
	fake.SetFaults(fakeapi.FaultRule{Count: n, Faults: []fakeapi.Fault{fakeapi.OrganizationLimit()},
		Match: func(r *http.Request) bool {
			return r.Method == call.method && strings.HasPrefix(r.URL.Path, call.prefix)
		}})
}

// TestOrganizationLimitIsATurn: against plain-text 429s without a
// Retry-After, every trigger, start and read ends well. A call whose limit
// is documented waits its turn past max_retries (8 refusals), a window of
// its limit at a time, saying so in the log; any other call rides out 429s
// within max_retries (3 refusals).
func TestOrganizationLimitIsATurn(t *testing.T) {
	t.Parallel()
	for _, call := range orgLimitCalls {
		t.Run(call.name, func(t *testing.T) {
			t.Parallel()
			c, fake, clk, ids, logs := orgLimitFake(t)
			refusals := 3
			if call.limit != nil {
				refusals = 8
			}
			orgLimitFaults(fake, call, refusals)
			before, sent := clk.Now(), fake.Count(call.method, call.prefix)
			if err := call.run(t.Context(), c, ids); err != nil {
				t.Fatalf("after %d plain-text 429s: %v", refusals, err)
			}
			if n := fake.Count(call.method, call.prefix) - sent; n != refusals+1 {
				t.Errorf("%d requests, want %d: each 429 retried once", n, refusals+1)
			}
			if call.limit == nil {
				return
			}
			waited := clk.Now().Sub(before)
			if least := time.Duration(refusals) * call.limit.Per; waited < least || waited > least+time.Duration(refusals)*call.limit.spread() {
				t.Errorf("waited %s for %d turns, want a window of %s (plus up to %s of jitter) each", waited, refusals,
					call.limit.Per, call.limit.spread())
			}
			if !logs.contains("Waiting") || !logs.contains("for a turn within Mintlify's rate limit on "+call.limit.Name) {
				t.Errorf("the log does not name the limit the call waited for:\n%s", logs)
			}
		})
	}
}

// TestOrganizationLimitOutlastsTheDeadline: a call whose turn does not
// come before its deadline fails, at the deadline, naming its limit; the
// turns are told to the context's hook. Without a documented limit, the
// 429s run out of max_retries.
func TestOrganizationLimitOutlastsTheDeadline(t *testing.T) {
	t.Parallel()
	for _, call := range orgLimitCalls {
		t.Run(call.name, func(t *testing.T) {
			t.Parallel()
			c, fake, clk, ids, _ := orgLimitFake(t)
			orgLimitFaults(fake, call, 0)
			var turns []Turn
			ctx := WithTurnHook(t.Context(), func(turn Turn) { turns = append(turns, turn) })
			ctx, cancel := clk.WithTimeout(ctx, 3*time.Minute)
			defer cancel()
			err := call.run(ctx, c, ids)
			var re *RetryError
			if !errors.As(err, &re) || !IsRateLimited(err) || MayHaveStarted(err) {
				t.Fatalf("err = %v, want a 429 that started nothing", err)
			}
			if call.limit == nil {
				if re.Limit != nil || Attempts(err) != DefaultMaxRetries+1 || len(turns) != 0 {
					t.Errorf("err = %v after %d turns, want max_retries to run out", err, len(turns))
				}
				return
			}
			limit, ok := LimitOf(err)
			if !ok || limit != *call.limit || !errors.Is(err, context.DeadlineExceeded) || len(turns) == 0 || turns[0].Limit != limit {
				t.Fatalf("err = %v, %d turns: want the turns of %s stopped by the deadline", err, len(turns), call.limit)
			}
			if !strings.Contains(err.Error(), "for a turn within the rate limit on "+call.limit.String()) {
				t.Errorf("error %q does not name the limit", err)
			}
			if left := re.Left; left > turnMargin+time.Second {
				t.Errorf("stopped %s before the deadline, want the last turn shortly before it", left)
			}
		})
	}
}

// TestTurnJitterOnTopOfRetryAfter: a turn waits at least what the API
// asked, plus jitter up to the gap of the limit's full rate; without a
// Retry-After, a whole window plus that jitter.
func TestTurnJitterOnTopOfRetryAfter(t *testing.T) {
	t.Parallel()
	for _, limit := range []Limit{LimitTriggers, LimitPreviews, LimitExportStarts} {
		for _, asked := range []time.Duration{0, 3 * time.Second} {
			seen := map[time.Duration]bool{}
			base := limit.Per
			if asked > 0 {
				base = asked
			}
			for range 50 {
				w := limit.turnWait(asked)
				if w < base || w > base+limit.spread() {
					t.Fatalf("%s, Retry-After %s: waited %s, want %s plus at most %s", limit.Name, asked, w, base, limit.spread())
				}
				seen[w] = true
			}
			if len(seen) < 2 {
				t.Errorf("%s, Retry-After %s: no jitter in 50 turns", limit.Name, asked)
			}
		}
	}
}

// TestTwoClientsShareThePreviewLimit: two clients of one organization (two
// provider processes) share the fake's limit of 5 previews a minute,
// answered as plain text; the second one's sixth preview waits its turn,
// a minute, and goes.
func TestTwoClientsShareThePreviewLimit(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.Fake(fakeapi.WithLimits(fakeapi.LimitOptions{PlainText: true})))
	clients := make([]*Client, 2)
	for i := range clients {
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock))
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = c
	}
	for range 5 {
		if _, err := clients[0].TriggerPreview(t.Context(), "proj", "a"); err != nil {
			t.Fatal(err)
		}
	}
	before := env.Clock.Now()
	if _, err := clients[1].TriggerPreview(t.Context(), "proj", "b"); err != nil {
		t.Fatal(err)
	}
	if waited := env.Clock.Now().Sub(before); waited < time.Minute || waited > time.Minute+LimitPreviews.spread() {
		t.Errorf("the second client waited %s, want its turn a minute later", waited)
	}
	if n := env.Fake.TriggersRefused(); n != 1 {
		t.Errorf("%d 429s, want 1", n)
	}
}

// TestCreditsRefusalIsNotARateLimit: a refusal whose text speaks of
// credits, even as a 429, is not retried and reads as credits.
func TestCreditsRefusalIsNotARateLimit(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTooManyRequests, http.StatusPaymentRequired, http.StatusForbidden} {
		// 402 is not in the API's description: served unchecked.
		c, fake, _ := newUncheckedFake(t, webhookFakeOptions(fakeapi.WithFaults(fakeapi.FaultRule{Faults: []fakeapi.Fault{{
			Kind: fakeapi.FaultStatus, Status: status, Message: "Your organization has used all of its AI credits for this month",
		}}}))...)
		_, err := c.TriggerAutomation(t.Context(), "proj", scheduledAutomation)
		if !IsOutOfCredits(err) || MayHaveStarted(err) || Attempts(err) != 1 {
			t.Errorf("HTTP %d: err = %v, want a credits refusal, not retried, that started nothing", status, err)
		}
		if n := len(fake.AutomationRuns()); n != 0 {
			t.Errorf("HTTP %d: %d runs, want none", status, n)
		}
	}
	if IsOutOfCredits(&APIError{StatusCode: http.StatusTooManyRequests, Message: "Too Many Requests"}) {
		t.Error("a plain 429 reads as credits")
	}
}
