package fakeapi

import (
	"testing"
	"time"
)

func TestRealClockByDefault(t *testing.T) {
	s := New()
	s.AddAgentJob("p", AgentJobSeed{ID: "aj", Repository: "https://github.com/acme/docs"})
	before := time.Now()
	view := s.agentJobs[agentJobKey{"p", "aj"}].view(time.Now())
	created, err := time.Parse(time.RFC3339, view.CreatedAt)
	if err != nil || created.Before(before.Add(-time.Second)) || created.After(time.Now()) {
		t.Errorf("createdAt = %s (%v), want about %s", view.CreatedAt, err, before.UTC())
	}
}
