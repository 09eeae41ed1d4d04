package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// jobPlans decides each export's timeline by its domain.
type jobPlans struct {
	mu    sync.Mutex
	plans map[string]fakeapi.JobPlan
}

func (p *jobPlans) set(domain string, plan fakeapi.JobPlan) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.plans == nil {
		p.plans = map[string]fakeapi.JobPlan{}
	}
	p.plans[domain] = plan
}

func (p *jobPlans) get(req fakeapi.StartRequest) fakeapi.JobPlan {
	p.mu.Lock()
	defer p.mu.Unlock()
	if plan, ok := p.plans[req.Domain]; ok {
		return plan
	}
	return fakeapi.JobPlan{RunFor: time.Second}
}

// jobStats is one export as the fake saw it.
type jobStats struct {
	domain    string
	created   time.Time
	completed time.Time // first answer that showed it completed
	requests  int       // status requests
	changes   int       // status answers that differed from the one before
}

// jobAnswer is what the benchmark reads from a request and its answer.
type jobAnswer struct {
	Domain    string  `json:"domain"` // of a start request
	JobID     string  `json:"jobId"`
	Status    string  `json:"status"`
	Progress  float64 `json:"progress"`
	PageCount int     `json:"pageCount"`
}

// statsByJob gathers the fake's recorded requests per job id.
func statsByJob(reqs []fakeapi.Request) map[string]*jobStats {
	stats := map[string]*jobStats{}
	last := map[string]jobAnswer{}
	for _, r := range reqs {
		var sent, got jobAnswer
		_ = json.Unmarshal(r.Body, &sent)
		_ = json.Unmarshal(r.Response, &got)
		if got.JobID == "" {
			continue
		}
		s := stats[got.JobID]
		if s == nil {
			s = &jobStats{}
			stats[got.JobID] = s
		}
		switch {
		case r.Method == http.MethodPost && !strings.HasSuffix(r.Path, "/bundle"):
			s.created, s.domain = r.At, sent.Domain
		case r.Method == http.MethodGet:
			s.requests++
			if prev, seen := last[got.JobID]; !seen || prev != got {
				s.changes++
			}
			last[got.JobID] = got
			if got.Status == mintlify.StatusCompleted && s.completed.IsZero() {
				s.completed = r.At
			}
		}
	}
	return stats
}

// routeOf names a request path by its route: job ids become {id}.
func routeOf(path string) string {
	parts := strings.Split(path, "/")
	switch {
	case len(parts) >= 5 && parts[1] == "v1" && parts[3] == "jobs":
		parts[4] = "{jobId}"
	case len(parts) >= 6 && parts[1] == "v1" && parts[4] == "jobs": // project-scoped
		parts[3], parts[5] = "{projectId}", "{jobId}"
	}
	return strings.Join(parts, "/")
}
