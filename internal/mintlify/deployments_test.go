package mintlify

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

func TestDeploymentLifecycle(t *testing.T) {
	t.Parallel()
	c, fake, _ := newFake(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: 5 * time.Second, RunFor: time.Minute, CommitSHA: "abc123", Logs: []string{"built"}}
	}}))
	id, err := c.TriggerDeployment(t.Context(), "proj")
	if err != nil || id == "" {
		t.Fatalf("TriggerDeployment = %q, %v", id, err)
	}
	var seen []string
	d, err := c.WaitForDeployment(t.Context(), id, OnChange(func(d Deployment) { seen = append(seen, d.Status) }))
	if err != nil || d.Status != DeployStatusSuccess || d.Commit.SHA != "abc123" || d.Commit.Ref != "main" || d.EndedAt == "" {
		t.Fatalf("deployment = %+v, err = %v", d, err)
	}
	if len(seen) == 0 || seen[len(seen)-1] != DeployStatusSuccess {
		t.Errorf("OnChange saw %v", seen)
	}
	if got := fake.DeploymentRequests(); len(got) != 1 || got[0].ProjectID != "proj" {
		t.Errorf("deployments = %+v", got)
	}
}

func TestDeploymentFailure(t *testing.T) {
	t.Parallel()
	c, _, _ := newFake(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{RunFor: time.Minute, Fail: true, Summary: "Build failed\x1b[31m",
			Logs: []string{"error: broken link in /guides", "mint_fake_admin_key_0123456789 leaked"}}
	}}))
	id, err := c.TriggerDeployment(t.Context(), "proj")
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.WaitForDeployment(t.Context(), id)
	var failed *JobFailedError[Deployment]
	if !errors.As(err, &failed) || !IsJobFailed(err) || d == nil || d.Status != DeployStatusFailure {
		t.Fatalf("deployment = %+v, err = %v; want a *JobFailedError[Deployment]", d, err)
	}
	if want := "deployment " + id + " failed: Build failed"; !strings.HasPrefix(err.Error(), want) || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("err = %q, want %q without control characters", err, want)
	}
	for _, line := range d.Logs {
		if line == "mint_fake_admin_key_0123456789 leaked" {
			t.Errorf("a log line repeats the API key: %q", line)
		}
	}
}

func TestPreviewAndAutomation(t *testing.T) {
	t.Parallel()
	const automation = "0123456789abcdef01234567"
	c, _, _ := newFake(t, fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj", ID: automation}))
	p, err := c.TriggerPreview(t.Context(), "proj", "feature/x")
	if err != nil || p.StatusID == "" || p.PreviewURL != fakeapi.PreviewURL("proj", "feature/x") {
		t.Fatalf("TriggerPreview = %+v, %v", p, err)
	}
	run, err := c.TriggerAutomation(t.Context(), "proj", automation)
	if err != nil || run.InstanceID == "" || run.JobID == "" || run.SchemaID != automation {
		t.Fatalf("TriggerAutomation = %+v, %v", run, err)
	}
	for _, tt := range []struct {
		id     string
		status int
	}{{"nope", http.StatusBadRequest}, {"ffffffffffffffffffffffff", http.StatusNotFound}} {
		_, err := c.TriggerAutomation(t.Context(), "proj", tt.id)
		var start *StartError
		if StatusCode(err) != tt.status || !errors.As(err, &start) || start.MayHaveStarted {
			t.Errorf("TriggerAutomation(%q): err = %v, want a %d that certainly started nothing", tt.id, err, tt.status)
		}
	}
}

// TestTriggersArePacedWithinTheDocumentedLimits triggers 20 deployments
// in a row (on a virtual clock, where each wait moves time): the client
// spaces them so that the API refuses none. The real-time, concurrent case
// is the rate-limit benchmark's.
func TestTriggersArePacedWithinTheDocumentedLimits(t *testing.T) {
	t.Parallel()
	c, fake, clk := newFake(t)
	start := clk.Now()
	for range 20 {
		if _, err := c.TriggerDeployment(t.Context(), "proj"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(fake.DeploymentRequests()); n != 20 {
		t.Errorf("%d deployments, want 20", n)
	}
	if n := fake.TriggersRefused(); n != 0 {
		t.Errorf("the API refused %d triggers, want 0", n)
	}
	if took := clk.Now().Sub(start); took < 10*time.Second || took > 11*time.Second {
		t.Errorf("20 triggers took %s of virtual time, want the second ten 10 s after the first", took)
	}
}

// TestTriggerHonoursRetryAfter: a 429 caused by another caller of the
// organization is retried after its Retry-After, and the trigger succeeds.
func TestTriggerHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	c, fake, clk := newFake(t, fakeapi.WithFaults(fakeapi.FaultRule{Count: 1, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(7 * time.Second)}}))
	start := clk.Now()
	if _, err := c.TriggerDeployment(t.Context(), "proj"); err != nil {
		t.Fatal(err)
	}
	if took := clk.Now().Sub(start); took < 7*time.Second {
		t.Errorf("retried after %s, want the 7 s the API asked for", took)
	}
	if n := len(fake.DeploymentRequests()); n != 1 {
		t.Errorf("%d deployments, want 1", n)
	}
}

// TestDeploymentWaitNoticesTheEnd: a wait for a 23.7-second deployment, in
// the fake's virtual time, notices its end within a second when it knows
// how long the last deployment took, and within the 10 seconds of
// Mintlify's own loop when it does not; neither sends more status requests
// than that loop's 3. (The wait used to back off to 30 s: 16.4 s late with
// 7 requests.)
func TestDeploymentWaitNoticesTheEnd(t *testing.T) {
	t.Parallel()
	took := 23700 * time.Millisecond
	for _, c := range []struct {
		name string
		opts []WaitOption[Deployment]
		late time.Duration
	}{
		{"knowing the last deployment's duration", []WaitOption[Deployment]{Foretell(took, true)}, time.Second},
		{"first deployment", []WaitOption[Deployment]{Foretell(0, true)}, 10 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			client, fake, clk := newFake(t, fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
				return fakeapi.DeploymentPlan{QueuedFor: 3700 * time.Millisecond, RunFor: 20 * time.Second}
			}}))
			id, err := client.TriggerDeployment(t.Context(), "proj")
			if err != nil {
				t.Fatal(err)
			}
			before := fake.Count(http.MethodGet, "/v1/project/update-status/")
			d, err := client.WaitForDeployment(t.Context(), id, c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			requests := fake.Count(http.MethodGet, "/v1/project/update-status/") - before
			late := clk.Now().Sub(d.createdTime().Add(took))
			if d.Took() != took || late < 0 || late > c.late || requests > 3 {
				t.Errorf("a %v deployment was noticed %v late with %d status requests; want at most %v late and 3 "+
					"requests", d.Took(), late, requests, c.late)
			}
		})
	}
}
