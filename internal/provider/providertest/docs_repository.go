package providertest

import (
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// DocsRepository is the docs repository a test's stand-in deploys: the
// commit the next deployment builds, and whether its build fails. Give
// Plan to fakeapi.DeploymentOptions, then Push commits as the scenario
// goes.
type DocsRepository struct {
	// QueuedFor and RunFor time each deployment on the stand-in's clock;
	// zero ends it at once.
	QueuedFor, RunFor time.Duration

	mu     sync.Mutex
	commit string
	broken bool
}

// Push makes commit the one the next deployment builds; broken makes
// its build fail.
func (r *DocsRepository) Push(commit string, broken bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.commit, r.broken = commit, broken
}

// Plan deploys the commit last pushed: it succeeds with its log, or fails
// with Mintlify's summary and the log of a docs.json error.
func (r *DocsRepository) Plan(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := fakeapi.DeploymentPlan{QueuedFor: r.QueuedFor, RunFor: r.RunFor, CommitSHA: r.commit,
		Logs: []string{"Building 48 pages", "Built 48 pages"}}
	if r.broken {
		p.Fail, p.Summary = true, "Build failed"
		p.Logs = []string{"Building 48 pages", `Error: docs.json: unknown key "navigaton"`}
	}
	return p
}
