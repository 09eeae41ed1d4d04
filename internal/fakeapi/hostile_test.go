package fakeapi_test

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

func TestUndocumentedStatus(t *testing.T) {
	t.Parallel()
	h := newUncheckedHarness(t, fakeapi.WithHostile(fakeapi.HostileOptions{UndocumentedStatus: "cancelled"}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
			return fakeapi.JobPlan{QueueFor: time.Second, RunFor: 10 * time.Second}
		}}))
	job := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	h.clock.Advance(5 * time.Second)
	if got := h.getJob(t, job.JobID).Status; got != fakeapi.StatusRunning {
		t.Errorf("before it settles: status %q, want running", got)
	}
	h.clock.Advance(10 * time.Second)
	settled := h.getJob(t, job.JobID)
	if settled.Status != "cancelled" || settled.Error != "" {
		t.Errorf("settled: status %q, error %q; want cancelled without an error", settled.Status, settled.Error)
	}
	h.do(t, http.MethodPost, "/v1/static-export/jobs/"+job.JobID+"/bundle", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusConflict)

	created := decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodPost, "/v2/agent/proj/job", fakeapi.DefaultAPIKey,
		map[string]any{"prompt": "Document it"}).wantStatus(t, http.StatusCreated))
	h.clock.Advance(fakeapi.DefaultAgentJobPlan(fakeapi.AgentJobRequest{}).ActiveFor)
	agent := decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodGet, "/v2/agent/proj/job/"+created.ID, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK))
	if agent.Status != "cancelled" {
		t.Errorf("agent job: status %q, want cancelled", agent.Status)
	}
}

func TestDownloadRedirect(t *testing.T) {
	t.Parallel()
	var fake *fakeapi.Server
	recorder := fakeapi.NewHeaderRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fake.ServeHTTP(w, r) }))
	storage := httptest.NewServer(recorder)
	t.Cleanup(storage.Close)
	h := newUncheckedHarness(t, fakeapi.WithHostile(fakeapi.HostileOptions{DownloadRedirect: storage.URL}), fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
	fake = h.fake

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
	h := newHarness(t, fakeapi.WithHostile(fakeapi.HostileOptions{StorageError: &fakeapi.StorageError{Status: http.StatusForbidden, Code: "AccessDenied", Message: long}}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}),
		fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStatusRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.ServerError(http.StatusBadGateway).WithMessage(long)}}))
	job := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	h.do(t, http.MethodGet, "/v1/static-export/jobs/"+job.JobID, fakeapi.DefaultAPIKey, nil).wantError(t, http.StatusBadGateway, long)

	r := send(t, mustRequest(t, h.bundle(t, job.JobID).BundleURL)).wantStatus(t, http.StatusForbidden)
	var doc fakeapi.S3Error
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

// TestJobIDs: new export and agent jobs take the ids the test hands out,
// and are found under them, within the API's contract.
func TestJobIDs(t *testing.T) {
	t.Parallel()
	ids := []string{"se_\x1b[31mred", "aj_x"}
	h := newHarness(t, fakeapi.WithHostile(fakeapi.HostileOptions{JobIDs: func() string {
		id := ids[0]
		ids = ids[1:]
		return id
	}}))
	job := h.startJob(t, map[string]any{"domain": "docs.example.com"})
	if job.JobID != "se_\x1b[31mred" || h.getJob(t, url.PathEscape(job.JobID)).JobID != job.JobID {
		t.Errorf("export job id %q, want the one handed out", job.JobID)
	}
	created := decode[fakeapi.AgentJobJSON](t, h.do(t, http.MethodPost, "/v2/agent/proj/job", fakeapi.DefaultAPIKey,
		map[string]any{"prompt": "Document it"}).wantStatus(t, http.StatusCreated))
	if created.ID != "aj_x" {
		t.Errorf("agent job id %q, want aj_x", created.ID)
	}
}

// TestUnannouncedSize: the bundle announces no size and the download has
// no Content-Length, but the archive is served whole.
func TestUnannouncedSize(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.WithHostile(fakeapi.HostileOptions{UnannouncedSize: true}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(fakeapi.StartRequest) fakeapi.Archive { return fakeapi.Archive{Size: 256 << 10} }}))
	b := h.bundle(t, h.startJob(t, map[string]any{"domain": "docs.example.com"}).JobID)
	r := doURL(t, http.MethodGet, b.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
	if b.SizeBytes != 0 || r.header.Get("Content-Length") != "" || len(r.body) < 255<<10 {
		t.Errorf("sizeBytes %d, Content-Length %q, %d bytes: want no size announced and the whole archive",
			b.SizeBytes, r.header.Get("Content-Length"), len(r.body))
	}
}
