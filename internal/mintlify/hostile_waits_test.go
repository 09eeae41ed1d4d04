package mintlify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// The client's waits against a hostile API: rate limits that ask for a day,
// and statuses the API does not document.

// aDay429 answers one status request of a wait, the second, with 429 and
// `Retry-After: 86400`.
func aDay429(match func(*http.Request) bool) fakeapi.Option {
	return fakeapi.WithFaults(fakeapi.FaultRule{Match: match, Skip: 1, Count: 1,
		Faults: []fakeapi.Fault{fakeapi.TooManyRequests(24 * time.Hour)}})
}

// waitUnderTest is a wait for an export or an agent job that runs three
// minutes, against a fake that answers one of its status requests with
// `Retry-After: 86400`.
type waitUnderTest struct {
	name  string
	match func(*http.Request) bool
	run   func(ctx context.Context, c *Client, fake *fakeapi.Server) error
}

var waitsUnderTest = []waitUnderTest{
	{"export", fakeapi.IsStatusRequest, func(ctx context.Context, c *Client, _ *fakeapi.Server) error {
		job, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
		if err != nil {
			return err
		}
		_, err = c.WaitForStaticExport(ctx, job.JobID, Started(job))
		return err
	}},
	{"agent job", fakeapi.IsAgentJobRequest, func(ctx context.Context, c *Client, fake *fakeapi.Server) error {
		fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs", ActiveFor: 3 * time.Minute})
		_, err := c.WaitForAgentJob(ctx, "proj", "aj_1")
		return err
	}},
}

// rateLimitedWait serves the fake with one day-long 429 for w, and a client
// with maxRetries.
func rateLimitedWait(t *testing.T, w waitUnderTest, maxRetries int) (*Client, *fakeapi.Server, *clock.Fake) {
	t.Helper()
	c, fake, clk := pollFake(t, seeded(1), aDay429(w.match),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{RunFor: 3 * time.Minute} }}))
	if err := WithMaxRetries(maxRetries)(c); err != nil {
		t.Fatal(err)
	}
	return c, fake, clk
}

// TestRetryAfterWhilePollingIsCapped: a 429 asking for a day pauses the
// wait for a minute, whether the status request's own retries handle it or,
// with retries disabled, the wait does; then the wait goes on.
func TestRetryAfterWhilePollingIsCapped(t *testing.T) {
	t.Parallel()
	for _, w := range waitsUnderTest {
		for _, maxRetries := range []int{0, DefaultMaxRetries} {
			t.Run(fmt.Sprintf("%s, max retries %d", w.name, maxRetries), func(t *testing.T) {
				t.Parallel()
				c, fake, clk := rateLimitedWait(t, w, maxRetries)
				if err := w.run(t.Context(), c, fake); err != nil {
					t.Fatalf("wait: %v", err)
				}
				reqs := fake.Requests()
				for i, r := range reqs {
					if r.Status != http.StatusTooManyRequests {
						continue
					}
					if i+1 == len(reqs) {
						t.Fatal("nothing was requested after the 429")
					}
					if gap := reqs[i+1].At.Sub(r.At); gap < time.Minute || gap > time.Minute+time.Second {
						t.Errorf("the request after the 429 came %s later, want the 1m cap", gap)
					}
				}
				if took := clk.Now().Sub(start); took > 5*time.Minute {
					t.Errorf("the wait took %s for a 3-minute job", took)
				}
			})
		}
	}
}

// TestRateLimitPastTheDeadlineEndsTheWait: when even the capped pause would
// end after the deadline, the wait stops at once, and its error says the
// API is rate limiting (not that the caller's timeout ran out).
func TestRateLimitPastTheDeadlineEndsTheWait(t *testing.T) {
	t.Parallel()
	for _, w := range waitsUnderTest {
		for _, maxRetries := range []int{0, DefaultMaxRetries} {
			t.Run(fmt.Sprintf("%s, max retries %d", w.name, maxRetries), func(t *testing.T) {
				t.Parallel()
				c, fake, clk := rateLimitedWait(t, w, maxRetries)
				ctx, cancel := clk.WithTimeout(t.Context(), 45*time.Second)
				defer cancel()
				err := w.run(ctx, c, fake)
				var re *RetryError
				if !errors.As(err, &re) || !IsRateLimited(err) || !errors.Is(err, context.DeadlineExceeded) || re.Wait < time.Minute || re.Wait > time.Minute+500*time.Millisecond {
					t.Fatalf("err = %v, want a rate limit stopped by the deadline before a 1m pause", err)
				}
				reqs := fake.Requests()
				last := reqs[len(reqs)-1]
				if last.Status != http.StatusTooManyRequests || !clk.Now().Equal(last.At) {
					t.Errorf("the wait went on for %s after the 429 (last answer %d), want it to stop at once",
						clk.Now().Sub(last.At), last.Status)
				}
			})
		}
	}
}

// TestUnknownStatusEndsTheWait: a job that turns to a status the API does
// not document ends its wait at once, with an error naming the status and
// the job; so does a start answer that already has one. The fake breaks the
// contract here, so it is not checked.
func TestUnknownStatusEndsTheWait(t *testing.T) {
	t.Parallel()
	c, fake, clk := newUncheckedFake(t, fakeapi.WithHostile(fakeapi.HostileOptions{UndocumentedStatus: "cancelled"}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{RunFor: 10 * time.Minute} }}),
		fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
			return fakeapi.AgentJobPlan{ActiveFor: 10 * time.Minute}
		}}))
	export := mustStart(t, c)
	agent, err := c.CreateAgentJob(t.Context(), "proj", "Document it")
	if err != nil {
		t.Fatal(err)
	}
	// Only a wait that never ends needs this deadline.
	ctx, cancel := clk.WithTimeout(t.Context(), time.Hour)
	defer cancel()
	for _, w := range []struct {
		what, id string
		wait     func() (status string, err error)
	}{
		{"static export job", export.JobID, func() (string, error) {
			job, err := c.WaitForStaticExport(ctx, export.JobID, Started(export))
			return job.Status, err
		}},
		{"agent job", agent.ID, func() (string, error) {
			job, err := c.WaitForAgentJob(ctx, "proj", agent.ID, Started(agent))
			return job.Status, err
		}},
	} {
		status, err := w.wait()
		var unknown *UnknownStatusError
		if !errors.As(err, &unknown) || unknown.JobID != w.id || unknown.Status != "cancelled" || status != "cancelled" {
			t.Fatalf("%s: last status %q, err = %v; want an *UnknownStatusError for %s", w.what, status, err, w.id)
		}
		for _, want := range []string{w.what + " " + w.id, `"cancelled"`, "not documented"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not say %q", w.what, err, want)
			}
		}
		reqs := fake.Requests()
		if last := reqs[len(reqs)-1]; !strings.Contains(string(last.Response), `"cancelled"`) || !clk.Now().Equal(last.At) {
			t.Errorf("%s: the wait went on after the status turned: %s later, last answer %s", w.what, clk.Now().Sub(last.At), last.Response)
		}
	}

	before := len(fake.Requests())
	paused := *export
	paused.Status = "paused"
	if _, err := c.WaitForStaticExport(ctx, paused.JobID, Started(&paused)); !strings.Contains(fmt.Sprint(err), `"paused"`) {
		t.Errorf("a start answer with an unknown status: err = %v", err)
	}
	pausedAgent := *agent
	pausedAgent.Status = "paused"
	if _, err := c.WaitForAgentJob(ctx, "proj", pausedAgent.ID, Started(&pausedAgent)); !strings.Contains(fmt.Sprint(err), `"paused"`) {
		t.Errorf("a create answer with an unknown status: err = %v", err)
	}
	if after := len(fake.Requests()); after != before {
		t.Errorf("%d requests for answers that were already final, want none", after-before)
	}
}
