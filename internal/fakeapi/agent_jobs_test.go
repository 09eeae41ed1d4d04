package fakeapi

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestAgentJobLifecycle(t *testing.T) {
	const repo = "https://github.com/acme/docs"
	tests := []struct {
		name   string
		seed   AgentJobSeed
		active agentJobJSON // at creation
		final  agentJobJSON // after ActiveFor
	}{
		{
			name:   "completed with a pull request",
			seed:   AgentJobSeed{ID: "aj_1", Repository: repo, Ref: ptr("main"), ActiveFor: 5 * time.Second, PRLink: ptr(repo + "/pull/7")},
			active: agentJobJSON{ID: "aj_1", Status: "active", Source: agentSourceJSON{repo, ptr("main")}, Model: "sonnet", CreatedAt: ts(0)},
			final:  agentJobJSON{ID: "aj_1", Status: "completed", Source: agentSourceJSON{repo, ptr("main")}, Model: "sonnet", PRLink: ptr(repo + "/pull/7"), CreatedAt: ts(0)},
		},
		{
			name:   "completed without changes keeps a null prLink",
			seed:   AgentJobSeed{ID: "aj_2", Repository: repo, ActiveFor: 5 * time.Second},
			active: agentJobJSON{ID: "aj_2", Status: "active", Source: agentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
			final:  agentJobJSON{ID: "aj_2", Status: "completed", Source: agentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
		},
		{
			name:   "archived",
			seed:   AgentJobSeed{ID: "aj_3", Repository: repo, Model: "opus", ActiveFor: 5 * time.Second, FinalStatus: "archived", PRLink: ptr(repo + "/pull/8")},
			active: agentJobJSON{ID: "aj_3", Status: "active", Source: agentSourceJSON{repo, nil}, Model: "opus", CreatedAt: ts(0)},
			final:  agentJobJSON{ID: "aj_3", Status: "archived", Source: agentSourceJSON{repo, nil}, Model: "opus", PRLink: ptr(repo + "/pull/8"), CreatedAt: ts(0), ArchivedAt: ptr(ts(5 * time.Second))},
		},
		{
			name:   "failed",
			seed:   AgentJobSeed{ID: "aj_4", Repository: repo, ActiveFor: 5 * time.Second, FinalStatus: "failed"},
			active: agentJobJSON{ID: "aj_4", Status: "active", Source: agentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
			final:  agentJobJSON{ID: "aj_4", Status: "failed", Source: agentSourceJSON{repo, nil}, Model: "sonnet", CreatedAt: ts(0)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.fake.AddAgentJob("proj_1", tt.seed)
			path := "/v2/agent/proj_1/job/" + tt.seed.ID

			r := h.do(t, http.MethodGet, path, DefaultAPIKey, nil).wantStatus(t, http.StatusOK)
			if !strings.Contains(string(r.body), `"prLink":null`) || !strings.Contains(string(r.body), `"archivedAt":null`) {
				t.Errorf("an active job must show prLink and archivedAt as null: %s", r.body)
			}
			wantAgentJob(t, decode[agentJobJSON](t, r), tt.active)

			h.clock.Advance(tt.seed.ActiveFor - time.Millisecond)
			wantAgentJob(t, decode[agentJobJSON](t, h.do(t, http.MethodGet, path, DefaultAPIKey, nil)), tt.active)

			h.clock.Advance(time.Millisecond)
			wantAgentJob(t, decode[agentJobJSON](t, h.do(t, http.MethodGet, path, DefaultAPIKey, nil)), tt.final)
			h.clock.Advance(time.Hour)
			wantAgentJob(t, decode[agentJobJSON](t, h.do(t, http.MethodGet, path, DefaultAPIKey, nil)), tt.final)
		})
	}
}

func TestAgentJobNotFound(t *testing.T) {
	h := newHarness(t)
	h.fake.SeedDemo()
	for _, path := range []string{"proj_other/job/aj_demo_0001", "proj_demo/job/aj_other", "proj_demo/job/aj%2Fdemo"} {
		t.Run(path, func(t *testing.T) {
			h.do(t, http.MethodGet, "/v2/agent/"+path, DefaultAPIKey, nil).wantError(t, http.StatusNotFound, "Job not found")
		})
	}
}

func TestSeedDemo(t *testing.T) {
	h := newHarness(t)
	h.fake.SeedDemo()
	const path = "/v2/agent/proj_demo/job/aj_demo_0001"
	source := agentSourceJSON{Repository: "https://github.com/acme/docs", Ref: ptr("main")}

	wantAgentJob(t, decode[agentJobJSON](t, h.do(t, http.MethodGet, path, DefaultAPIKey, nil)),
		agentJobJSON{ID: "aj_demo_0001", Status: "active", Source: source, Model: "sonnet", CreatedAt: ts(0)})
	h.clock.Advance(3 * time.Second)
	wantAgentJob(t, decode[agentJobJSON](t, h.do(t, http.MethodGet, path, DefaultAPIKey, nil)),
		agentJobJSON{ID: "aj_demo_0001", Status: "completed", Source: source, Model: "sonnet", PRLink: ptr("https://github.com/acme/docs/pull/42"), CreatedAt: ts(0)})
}

func TestAddAgentJobCopiesSeed(t *testing.T) {
	h := newHarness(t)
	ref := "main"
	h.fake.AddAgentJob("p", AgentJobSeed{ID: "aj", Repository: "https://github.com/acme/docs", Ref: &ref})
	ref = "changed"
	got := decode[agentJobJSON](t, h.do(t, http.MethodGet, "/v2/agent/p/job/aj", DefaultAPIKey, nil))
	if got.Source.Ref == nil || *got.Source.Ref != "main" {
		t.Errorf("ref = %v, want main: the seed must be copied", got.Source.Ref)
	}
}

func TestAddAgentJobRejectsBadSeeds(t *testing.T) {
	tests := []struct {
		name string
		seed AgentJobSeed
	}{
		{"no id", AgentJobSeed{Repository: "https://github.com/acme/docs"}},
		{"unknown final status", AgentJobSeed{ID: "aj", FinalStatus: "active"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("AddAgentJob did not panic")
				}
			}()
			New().AddAgentJob("p", tt.seed)
		})
	}
}

func wantAgentJob(t *testing.T, got, want agentJobJSON) {
	t.Helper()
	if got.ID != want.ID || got.Status != want.Status || got.Model != want.Model || got.CreatedAt != want.CreatedAt ||
		got.Source.Repository != want.Source.Repository || !equalPtr(got.Source.Ref, want.Source.Ref) ||
		!equalPtr(got.PRLink, want.PRLink) || !equalPtr(got.ArchivedAt, want.ArchivedAt) {
		t.Errorf("agent job:\n got %s\nwant %s", describeAgentJob(got), describeAgentJob(want))
	}
}

func equalPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func describeAgentJob(j agentJobJSON) string {
	deref := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	return strings.Join([]string{j.ID, j.Status, j.Source.Repository, deref(j.Source.Ref), j.Model,
		"prLink=" + deref(j.PRLink), "created=" + j.CreatedAt, "archived=" + deref(j.ArchivedAt)}, " ")
}
