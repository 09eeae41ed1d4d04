package fakeapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// TestRetireKeepsTheJobs: a server serving both contracts, retired, answers
// the domain-scoped calls as the status says (404 as a path without a
// route, then 410 once retired again with it), while the project-scoped
// job started before is still read, and new ones start.
func TestRetireKeepsTheJobs(t *testing.T) {
	t.Parallel()
	h := newUncheckedHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeBoth}}))
	domainJob := h.startJob(t, map[string]string{"domain": "docs.example.com"}).JobID
	projectJob := h.startProjectJob(t, nil).JobID

	for _, status := range []int{http.StatusNotFound, http.StatusGone} {
		h.fake.Retire(status)
		for _, call := range []struct{ method, path string }{
			{http.MethodPost, "/v1/static-export/jobs"},
			{http.MethodGet, "/v1/static-export/jobs/" + domainJob},
			{http.MethodPost, "/v1/static-export/jobs/" + domainJob + "/bundle"},
		} {
			r := h.do(t, call.method, call.path, fakeapi.DefaultAPIKey, `{"domain":"docs.example.com"}`)
			want := map[int]string{http.StatusNotFound: "No route for", http.StatusGone: "has been retired"}[status]
			if r.status != status || !strings.Contains(string(r.body), want) {
				t.Errorf("after Retire(%d), %s %s = %d %s, want %d %q", status, call.method, call.path, r.status, r.body, status, want)
			}
		}
		if got := h.getProjectJob(t, projectJob); got.JobID != projectJob {
			t.Errorf("after Retire(%d), the project-scoped job reads as %+v", status, got)
		}
	}
	h.clock.Advance(time.Hour) // the project's first export has completed
	h.startProjectJob(t, nil)
}
