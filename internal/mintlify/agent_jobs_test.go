package mintlify

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

func TestAgentJobLifecycle(t *testing.T) {
	t.Parallel()
	c, fake, clk := newFake(t, fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(req fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		return fakeapi.AgentJobPlan{ActiveFor: 5 * time.Minute, NoChanges: req.JobID != ""}
	}}))
	ctx := t.Context()

	job, err := c.CreateAgentJob(ctx, "proj", "Document the export API")
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != AgentStatusActive || !strings.HasPrefix(job.ID, "aj_") || job.PRLink != nil || !job.CreatedAt.Equal(start) {
		t.Fatalf("created job = %+v", job)
	}
	if got := string(fake.Requests()[0].Body); got != `{"prompt":"Document the export API"}` {
		t.Errorf("create body = %s", got)
	}

	var statuses []string
	done, err := c.WaitForAgentJob(ctx, "proj", job.ID, Started(job), OnChange(func(j AgentJob) { statuses = append(statuses, j.Status) }))
	if err != nil || done.Status != AgentStatusCompleted || done.PRLink == nil {
		t.Fatalf("finished job = %+v, err = %v", done, err)
	}
	if strings.Join(statuses, ",") != "completed" {
		t.Errorf("onChange saw %v, want only the change from the created job", statuses)
	}
	if late := clk.Now().Sub(start.Add(5 * time.Minute)); late > 36*time.Second {
		t.Errorf("completion noticed %s late, want at most one capped backoff", late)
	}

	// A follow-up runs the job again and keeps its pull request.
	again, err := c.SendAgentJobMessage(ctx, "proj", job.ID, "Also the CLI")
	if err != nil || again.Status != AgentStatusActive || again.ID != job.ID {
		t.Fatalf("after the follow-up: %+v, err = %v", again, err)
	}
	done2, err := c.WaitForAgentJob(ctx, "proj", again.ID, Started(again))
	if err != nil || done2.Status != AgentStatusCompleted || done2.PRLink == nil || *done2.PRLink != *done.PRLink {
		t.Fatalf("after the follow-up finished: %+v, err = %v", done2, err)
	}
	if fake.AgentJobsCreated() != 1 || fake.AgentMessagesSent() != 1 {
		t.Errorf("jobs, messages = %d, %d; want 1, 1", fake.AgentJobsCreated(), fake.AgentMessagesSent())
	}
}

func TestWaitForAgentJobAlreadyDone(t *testing.T) {
	t.Parallel()
	c, fake, _ := newFake(t, fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		return fakeapi.AgentJobPlan{FinalStatus: "failed"}
	}}))
	job, err := c.CreateAgentJob(t.Context(), "proj", "Something impossible")
	if err != nil {
		t.Fatal(err)
	}
	fake.Reset()
	done, err := c.WaitForAgentJob(t.Context(), "proj", job.ID, Started(job))
	var failed *JobFailedError[AgentJob]
	if !errors.As(err, &failed) || failed.Job.ID != job.ID || done == nil || done.Status != AgentStatusFailed {
		t.Fatalf("job = %+v, err = %v; a failed job is a *JobFailedError, as for a static export, and the job is returned", done, err)
	}
	if want := "agent job " + job.ID + " failed"; err.Error() != want || !IsJobFailed(err) {
		t.Errorf("err = %q, want %q and IsJobFailed", err, want)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d requests for a job that was already failed, want 0", n)
	}
	if _, err := c.WaitForAgentJob(t.Context(), "proj", ""); err == nil {
		t.Error("waiting for no job: want an error")
	}
	if _, err := c.WaitForAgentJob(t.Context(), "proj", "aj_other", Started(job)); err == nil {
		t.Error("waiting for one job with another's start: want an error")
	}
}

// TestAgentPromptsRetryOnlyWhenNothingWasTaken: creating an agent job or
// sending a follow-up is retried after a 429, never after an answer that
// may hide a job or a message the API took.
func TestAgentPromptsRetryOnlyWhenNothingWasTaken(t *testing.T) {
	t.Parallel()
	type prompt func(c *Client) error
	create := func(c *Client) error { _, err := c.CreateAgentJob(t.Context(), "proj", "Document v2"); return err }
	message := func(c *Client) error {
		_, err := c.SendAgentJobMessage(t.Context(), "proj", "aj_1", "Also v3")
		return err
	}
	calls := []struct {
		name   string
		match  func(*http.Request) bool
		prompt prompt
		what   string
	}{
		{"create", fakeapi.IsCreateAgentJobRequest, create, "agent job"},
		{"message", fakeapi.IsAgentMessageRequest, message, "follow-up message"},
	}
	faults := []struct {
		name      string
		fault     fakeapi.Fault
		succeeds  bool
		requests  int
		mayHave   bool
		mentioned string
	}{
		{"429 burst", fakeapi.TooManyRequests(2 * time.Second), true, 3, false, ""},
		{"502", fakeapi.ServerError(http.StatusBadGateway), false, 1, true, "may have"},
		{"dropped connection", fakeapi.DropConnection(), false, 1, true, "may have"},
		{"truncated body", fakeapi.TruncatedBody(), false, 1, true, "may have"},
	}
	for _, call := range calls {
		for _, f := range faults {
			t.Run(call.name+" "+f.name, func(t *testing.T) {
				t.Parallel()
				c, fake, _ := faultyFake(t, call.match, f.fault, f.fault)
				fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs"})
				err := call.prompt(c)
				if f.succeeds != (err == nil) {
					t.Fatalf("err = %v, want success %v", err, f.succeeds)
				}
				if got := fake.Count(http.MethodPost, "/v2/agent/"); got != f.requests {
					t.Errorf("requests = %d, want %d", got, f.requests)
				}
				if err == nil {
					return
				}
				var se *StartError
				if !errors.As(err, &se) || se.MayHaveStarted != f.mayHave || MayHaveStarted(err) != f.mayHave {
					t.Errorf("err = %v, want a StartError with MayHaveStarted %v", err, f.mayHave)
				}
				if !strings.Contains(err.Error(), call.what) || !strings.Contains(err.Error(), f.mentioned) {
					t.Errorf("error %q does not name the %s and whether it was taken", err, call.what)
				}
			})
		}
	}
}

func TestAgentPromptsFailFast(t *testing.T) {
	t.Parallel()
	c, fake, _ := newFake(t, fakeapi.WithProjects("proj"))
	ctx := t.Context()
	cases := []struct {
		name   string
		call   func() error
		status int
		says   string
	}{
		{"400 empty prompt", func() error { _, err := c.CreateAgentJob(ctx, "proj", ""); return err }, 400, "no agent job was started"},
		{"404 unknown project", func() error { _, err := c.CreateAgentJob(ctx, "proj_other", "x"); return err }, 404, "no agent job was started"},
		{"404 unknown job", func() error { _, err := c.SendAgentJobMessage(ctx, "proj", "aj_missing", "x"); return err }, 404, "the follow-up message was not taken"},
	}
	for _, tc := range cases {
		fake.Reset()
		err := tc.call()
		if StatusCode(err) != tc.status || Attempts(err) != 1 || MayHaveStarted(err) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err = %v, want HTTP %d after 1 attempt, saying %q", tc.name, err, tc.status, tc.says)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1", tc.name, n)
		}
	}
}
