package providertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// What the fake API does, and what it was asked.

// StartExportOutsideTerraform starts an export job of docs.example.com
// through the API client, as a CI script would, and returns its id.
func (e *Env) StartExportOutsideTerraform(t *testing.T) string {
	t.Helper()
	return e.StartExportOf(t, "docs.example.com")
}

// StartExportOf is StartExportOutsideTerraform for another domain.
func (e *Env) StartExportOf(t *testing.T, domain string) string {
	t.Helper()
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(e.URL), mintlify.WithClock(e.Clock))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: domain})
	if err != nil {
		t.Fatal(err)
	}
	return job.JobID
}

// SeedAgentJobs adds three agent jobs to ProjectID, as if started outside
// Terraform, then moves the clock two minutes on: aj_active (active for 20
// minutes, then completed with a pull request on branch
// docs/update-quickstart), aj_nopr (completed without changes, no branch)
// and aj_archived (archived after a minute, with a pull request).
func (e *Env) SeedAgentJobs() {
	e.Fake.AddAgentJob(ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_active", Repository: "https://github.com/acme/docs", Ref: Ptr("docs/update-quickstart"),
		Model: "opus", ActiveFor: 20 * time.Minute, PRLink: Ptr("https://github.com/acme/docs/pull/42"),
	})
	e.Fake.AddAgentJob(ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_nopr", Repository: "https://github.com/acme/docs",
	})
	e.Fake.AddAgentJob(ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_archived", Repository: "https://github.com/acme/docs", Ref: Ptr("main"),
		ActiveFor: time.Minute, FinalStatus: "archived", PRLink: Ptr("https://github.com/acme/docs/pull/7"),
	})
	e.Clock.Advance(2 * time.Minute)
}

// ExpectExportJobsAndLinks checks how many export jobs the fake started and
// how many bundle links it generated.
func (e *Env) ExpectExportJobsAndLinks(jobs, links int) error {
	if got := e.Fake.ExportJobsStarted(); got != jobs {
		return fmt.Errorf("export jobs started = %d, want %d", got, jobs)
	}
	if got := e.Fake.BundlesGenerated(); got != links {
		return fmt.Errorf("bundle links generated = %d, want %d", got, links)
	}
	return nil
}

// ExpectAgentJobsWithoutFollowUps checks how many agent jobs the fake
// created, and that no follow-up message was sent.
func (e *Env) ExpectAgentJobsWithoutFollowUps(jobs int) error {
	if got := e.Fake.AgentJobsCreated(); got != jobs {
		return fmt.Errorf("agent jobs created = %d, want %d", got, jobs)
	}
	if got := e.Fake.AgentMessagesSent(); got != 0 {
		return fmt.Errorf("follow-up messages sent = %d, want none", got)
	}
	return nil
}

// AgentPlan makes every agent job active for activeFor, then final (""
// for completed), with or without changes.
func AgentPlan(activeFor time.Duration, final string, noChanges bool) fakeapi.Option {
	return fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		return fakeapi.AgentJobPlan{ActiveFor: activeFor, FinalStatus: final, NoChanges: noChanges}
	}})
}

// AgentPlanByPrompt runs agent jobs for four minutes; a prompt that says
// "typo" changes nothing, one that says "impossible" fails, one that says
// "forever" runs for a day.
func AgentPlanByPrompt() fakeapi.Option {
	return fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(req fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		plan := fakeapi.AgentJobPlan{ActiveFor: 4 * time.Minute}
		switch {
		case strings.Contains(req.Prompt, "typo"):
			plan.NoChanges = true
		case strings.Contains(req.Prompt, "impossible"):
			plan.FinalStatus = "failed"
		case strings.Contains(req.Prompt, "forever"):
			plan.ActiveFor = 24 * time.Hour
		}
		return plan
	}})
}

// SizedArchives makes every job's archive about size bytes.
func SizedArchives(size int64) fakeapi.Option {
	return fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(fakeapi.StartRequest) fakeapi.Archive { return fakeapi.Archive{Size: size} }})
}

// Ptr is a pointer to a copy of v, for the fake's optional fields.
func Ptr[T any](v T) *T { return &v }
