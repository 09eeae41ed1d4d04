package mintlify

import (
	"bytes"
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

const testProject = "proj_1"

// projectJobs is the path prefix of testProject's jobs.
const projectJobs = "/v1/static-export/" + testProject + "/jobs"

// nextFake serves the next contract alone (or as next says) to a client
// that logs into logs, on a virtual clock that advances as the client
// waits.
func nextFake(t *testing.T, next fakeapi.NextExport, opts ...fakeapi.Option) (*Client, *fakeapi.Server, *clock.Fake, *recordingLogger) {
	t.Helper()
	if next.Contracts == fakeapi.ServeToday {
		next.Contracts = fakeapi.ServeNext
	}
	env := fakeapitest.New(t, fakeapitest.Fake(append(opts, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &next}))...))
	logs := &recordingLogger{}
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithLogger(logs))
	if err != nil {
		t.Fatal(err)
	}
	return c, env.Fake, env.Clock, logs
}

// quickJobs finish in twenty seconds of virtual time.
func quickJobs(fakeapi.ProjectStartRequest) fakeapi.JobPlan {
	return fakeapi.JobPlan{QueueFor: 2 * time.Second, RunFor: 18 * time.Second}
}

// TestProjectExportLifecycle: a start (with and without a base path), a
// wait to completion, and a fresh link at every read, with no new job.
func TestProjectExportLifecycle(t *testing.T) {
	t.Parallel()
	for _, basePath := range ProjectExportBasePaths {
		t.Run("basePath="+basePath, func(t *testing.T) {
			t.Parallel()
			c, fake, clk, _ := nextFake(t, fakeapi.NextExport{Plan: quickJobs})
			job, err := c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{BasePath: basePath})
			if err != nil {
				t.Fatal(err)
			}
			if job.Status != StatusQueued || job.ProjectID != testProject {
				t.Errorf("started job = %+v, want queued in %s", job, testProject)
			}
			if body := string(fake.Requests()[0].Body); (basePath == "") != (body == "") || !strings.Contains(body, basePath) {
				t.Errorf("start body = %q, want none for the default base path, else one naming %q", body, basePath)
			}
			done, err := c.WaitForProjectExport(t.Context(), testProject, job.JobID, Started(job))
			if err != nil {
				t.Fatal(err)
			}
			first, ok := done.Bundle()
			if !ok || first.SizeBytes == 0 || !strings.Contains(first.BundleURL, "/export.zip?") {
				t.Fatalf("completed job %+v carries no link to export.zip", done)
			}
			clk.Advance(time.Minute)
			again, err := c.GetProjectExportJob(t.Context(), testProject, job.JobID)
			if err != nil {
				t.Fatal(err)
			}
			second, _ := again.Bundle()
			if second.BundleURL == first.BundleURL || !second.ExpiresAt.After(first.ExpiresAt) {
				t.Errorf("a read a minute later gave the same link or expiry (%s), want a fresh one", second.ExpiresAt)
			}
			if n := len(fake.ProjectJobIDs()); n != 1 {
				t.Errorf("%d jobs started, want 1: renewal is a read", n)
			}
		})
	}
}

// TestProjectExportReadOnlyKeyRenews: renewal is a GET, which a read-only
// key may make; its start is refused as a missing write scope.
func TestProjectExportReadOnlyKeyRenews(t *testing.T) {
	t.Parallel()
	c, fake, clk, _ := nextFake(t, fakeapi.NextExport{Plan: quickJobs})
	job, err := c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{})
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	fake.SetKeyLimits(fakeapi.KeyLimits{ReadOnly: true})
	if got, err := c.GetProjectExportJob(t.Context(), testProject, job.JobID); err != nil || got.BundleURL == "" {
		t.Fatalf("a read-only key's read = %+v, %v; want the completed job and its link", got, err)
	}
	_, err = c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{})
	if r, _ := ReadProjectExportRefusal(err); len(r.Named) != 1 || r.Named[0] != RefusalReadOnlyKey || MayHaveStarted(err) {
		t.Errorf("a read-only key's start: %v, read as %+v; want the read-only key named, and no job started", err, r)
	}
}

// TestStartProjectExportWaitsOutConflict: a start while another job of the
// deployment runs is repeated until that job ends, within the deadline,
// saying so in the log; at the deadline, the error names the conflict.
func TestStartProjectExportWaitsOutConflict(t *testing.T) {
	t.Parallel()
	long := func(fakeapi.ProjectStartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{RunFor: 3 * time.Minute} }
	tests := []struct {
		name     string
		timeout  time.Duration
		started  bool
		inError  string
		attempts int
	}{
		// Starts at 0 (the other job's), then 0, 15s, 45s, 1m45s, 3m45s.
		{"the other job ends in time", 10 * time.Minute, true, "", 6},
		// Starts at 0, then 0, 15s, 45s and 55s, the last one 5s before the deadline.
		{"the deadline comes first", time.Minute, false, "409 Conflict: A static export job is already in progress", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, fake, clk, logs := nextFake(t, fakeapi.NextExport{Plan: long})
			if _, err := c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := clk.WithTimeout(t.Context(), tt.timeout)
			defer cancel()
			job, err := c.StartProjectExport(ctx, testProject, ProjectExportRequest{})
			if tt.started != (err == nil && job != nil) {
				t.Fatalf("second start = %+v, %v; want started: %t", job, err, tt.started)
			}
			if !tt.started && (!IsConflict(err) || !IsAnotherExportActive(err) || !errors.Is(err, context.DeadlineExceeded) ||
				MayHaveStarted(err) || !strings.Contains(err.Error(), tt.inError) || !strings.Contains(err.Error(), "no static export job was started")) {
				t.Errorf("error = %v; want the conflict, stopped by the deadline, no job started", err)
			}
			if n := fake.Count(http.MethodPost, projectJobs); n != tt.attempts {
				t.Errorf("%d start requests, want %d", n, tt.attempts)
			}
			if !logs.contains("Another static export job is active for the project's deployment") || !logs.contains("project_id="+testProject) {
				t.Errorf("the log does not say that the start waits:\n%s", logs)
			}
		})
	}
}

// TestStartProjectExportHourlyLimit: the eleventh start in an hour waits
// out a Retry-After that ends before its deadline, and fails at once,
// saying when a start may go, when it does not.
func TestStartProjectExportHourlyLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		timeout time.Duration
		plain   bool
		started bool
		waited  time.Duration
	}{
		{"Retry-After within the deadline", 2 * time.Hour, false, true, time.Hour},
		{"Retry-After past the deadline", 30 * time.Minute, false, false, 0},
		// A turn to wait for: the next turn (an hour later) is past the
		// deadline, so the start is tried once more shortly before it.
		{"plain text, no Retry-After", 30 * time.Minute, true, false, 30*time.Minute - turnMargin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _, clk, _ := nextFake(t, fakeapi.NextExport{PlainTextLimit: tt.plain})
			for i := range 10 {
				if _, err := c.StartProjectExport(t.Context(), "proj_"+string(rune('a'+i)), ProjectExportRequest{}); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := clk.WithTimeout(t.Context(), tt.timeout)
			defer cancel()
			before := clk.Now()
			job, err := c.StartProjectExport(ctx, testProject, ProjectExportRequest{})
			waited := clk.Now().Sub(before)
			if tt.started != (err == nil) || waited < tt.waited || waited > min(tt.waited+time.Minute, tt.timeout) {
				t.Fatalf("eleventh start = %+v, %v after %s; want started: %t after about %s", job, err, waited, tt.started, tt.waited)
			}
			if tt.started {
				return
			}
			if !IsRateLimited(err) || ProjectExportProblemOf(err) != ProblemStartLimit || MayHaveStarted(err) {
				t.Errorf("error = %v; want the hourly start limit, no job started", err)
			}
			at, ok := RetryAt(err)
			if tt.plain != !ok || (ok && !at.Equal(before.Add(time.Hour))) {
				t.Errorf("RetryAt = %s, %t; want %s unless the answer was plain text", at, ok, before.Add(time.Hour))
			}
			if tt.plain && !strings.Contains(err.Error(), "429 Too Many Requests: Too Many Requests") {
				t.Errorf("error = %v, want the plain text as the API's message", err)
			}
		})
	}
}

// TestWaitForProjectExportFailed: a failed job ends the wait with its
// project and the API's reason; it carries no link.
func TestWaitForProjectExportFailed(t *testing.T) {
	t.Parallel()
	c, _, _, _ := nextFake(t, fakeapi.NextExport{Plan: func(fakeapi.ProjectStartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Minute, FailWith: "page guides/setup did not render"}
	}})
	job, err := c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{})
	if err != nil {
		t.Fatal(err)
	}
	last, err := c.WaitForProjectExport(t.Context(), testProject, job.JobID)
	want := "static export job " + job.JobID + " of project proj_1 failed: page guides/setup did not render"
	if !IsJobFailed(err) || err.Error() != want {
		t.Errorf("wait = %v, want %q", err, want)
	}
	if _, ok := last.Bundle(); ok || last.Status != StatusFailed {
		t.Errorf("last job seen = %+v, want failed without a link", last)
	}
}

// TestDownloadProjectExport: the archive of a completed project-scoped job
// comes from the link of the read that found it completed, without the API
// key; a link the storage refuses (it expired) is replaced by the link of
// a new read of the job, which starts nothing.
func TestDownloadProjectExport(t *testing.T) {
	t.Parallel()
	for _, expired := range []bool{false, true} {
		t.Run(map[bool]string{false: "fresh link", true: "expired link"}[expired], func(t *testing.T) {
			t.Parallel()
			c, fake, clk, _ := nextFake(t, fakeapi.NextExport{Plan: quickJobs})
			started, err := c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{})
			if err != nil {
				t.Fatal(err)
			}
			job, err := c.WaitForProjectExport(t.Context(), testProject, started.JobID, Started(started))
			if err != nil {
				t.Fatal(err)
			}
			if expired {
				clk.Advance(2 * time.Hour)
			}
			reads := len(fake.Requests())
			var sink memorySink
			d, err := c.DownloadProjectExport(t.Context(), job, &sink)
			if err != nil {
				t.Fatal(err)
			}
			wantLinks := map[bool]int{false: 1, true: 2}[expired]
			if !bytes.HasPrefix(sink.buf.Bytes(), []byte("PK\x03\x04")) || d.Bytes != int64(sink.buf.Len()) || d.Links != wantLinks {
				t.Errorf("Download = %+v, %d bytes starting %q: want a ZIP archive from %d link(s)", d, sink.buf.Len(), sink.buf.Bytes()[:4], wantLinks)
			}
			for _, r := range fake.Requests()[reads:] {
				if strings.HasPrefix(r.Path, "/exports/") && r.Authorized {
					t.Error("a download request carried the API key")
				}
				if r.Method != http.MethodGet {
					t.Errorf("%s %s: the download may only read", r.Method, r.Path)
				}
			}
			if n := len(fake.ProjectJobIDs()); n != 1 {
				t.Errorf("%d jobs started, want 1", n)
			}
		})
	}
}

// TestDownloadProjectExportNotCompleted: a job that has no link yet is an
// error, and nothing is downloaded.
func TestDownloadProjectExportNotCompleted(t *testing.T) {
	t.Parallel()
	c, _, _, _ := nextFake(t, fakeapi.NextExport{Plan: quickJobs})
	job, err := c.StartProjectExport(t.Context(), testProject, ProjectExportRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var sink memorySink
	if _, err := c.DownloadProjectExport(t.Context(), job, &sink); err == nil || !strings.Contains(err.Error(), "not completed") || sink.resets != 0 {
		t.Errorf("err = %v after %d resets, want an error naming a job not completed, and no download", err, sink.resets)
	}
}
