package fakeapi

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestUndocumentedStatus(t *testing.T) {
	t.Parallel()
	h := newUncheckedHarness(t, WithUndocumentedStatus("cancelled"),
		WithJobPlan(func(StartRequest) JobPlan { return JobPlan{QueueFor: time.Second, RunFor: 10 * time.Second} }))
	job := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	h.clock.Advance(5 * time.Second)
	if got := h.getJob(t, job.JobID).Status; got != statusRunning {
		t.Errorf("before it settles: status %q, want running", got)
	}
	h.clock.Advance(10 * time.Second)
	settled := h.getJob(t, job.JobID)
	if settled.Status != "cancelled" || settled.Error != "" {
		t.Errorf("settled: status %q, error %q; want cancelled without an error", settled.Status, settled.Error)
	}
	h.do(t, http.MethodPost, "/v1/static-export/jobs/"+job.JobID+"/bundle", DefaultAPIKey, nil).wantStatus(t, http.StatusConflict)

	created := decode[agentJobJSON](t, h.do(t, http.MethodPost, "/v2/agent/proj/job", DefaultAPIKey,
		map[string]any{"prompt": "Document it"}).wantStatus(t, http.StatusCreated))
	h.clock.Advance(DefaultAgentJobPlan(AgentJobRequest{}).ActiveFor)
	agent := decode[agentJobJSON](t, h.do(t, http.MethodGet, "/v2/agent/proj/job/"+created.ID, DefaultAPIKey, nil).wantStatus(t, http.StatusOK))
	if agent.Status != "cancelled" {
		t.Errorf("agent job: status %q, want cancelled", agent.Status)
	}
}

func TestDownloadRedirect(t *testing.T) {
	t.Parallel()
	fc := newBareHarness().clock
	var fake *Server
	recorder := NewHeaderRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fake.ServeHTTP(w, r) }))
	storage := httptest.NewServer(recorder)
	t.Cleanup(storage.Close)
	fake = New(WithClock(fc), WithDownloadRedirect(storage.URL), WithJobPlan(func(StartRequest) JobPlan { return JobPlan{} }))
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	h := &harness{fake: fake, clock: fc, url: api.URL}

	job := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	link := h.bundle(t, job.JobID).BundleURL
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	query := link[strings.Index(link, "?"):]
	if want := storage.URL + "/bundles/" + job.JobID + "/bundle.tar.gz" + query; resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != want {
		t.Fatalf("download: %d to %q, want 307 to %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	send(t, mustRequest(t, link)).wantStatus(t, http.StatusOK)
	got := recorder.Requests()
	if len(got) != 1 || got[0].Header.Get("User-Agent") == "" || !strings.HasSuffix(got[0].URI, query) {
		t.Errorf("the second host recorded %+v, want the followed download with its headers", got)
	}
}

func TestStorageErrorAndFaultMessage(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 10_000)
	h := newHarness(t, WithStorageError(http.StatusForbidden, "AccessDenied", long),
		WithJobPlan(func(StartRequest) JobPlan { return JobPlan{} }),
		WithFaults(FaultRule{Match: IsStatusRequest, Count: 1, Faults: []Fault{ServerError(http.StatusBadGateway).WithMessage(long)}}))
	job := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	h.do(t, http.MethodGet, "/v1/static-export/jobs/"+job.JobID, DefaultAPIKey, nil).wantError(t, http.StatusBadGateway, long)

	r := send(t, mustRequest(t, h.bundle(t, job.JobID).BundleURL)).wantStatus(t, http.StatusForbidden)
	var doc s3Error
	if err := xml.Unmarshal(r.body, &doc); err != nil || doc.Code != "AccessDenied" || doc.Message != long {
		t.Errorf("storage answered %.80s (%v), want AccessDenied with the long message", r.body, err)
	}
}

func mustRequest(t *testing.T, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
