package fakeapi_test

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

const (
	project     = "proj_1"
	projectJobs = "/v1/static-export/" + project + "/jobs"
)

// nextHarness serves the next contract alone, or as opts say.
func nextHarness(t *testing.T, n fakeapi.NextExport, opts ...fakeapi.Option) *harness {
	t.Helper()
	if n.Contracts == fakeapi.ServeToday {
		n.Contracts = fakeapi.ServeNext
	}
	return newHarness(t, append(opts, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &n}))...)
}

func (h *harness) startProjectJob(t *testing.T, body any) fakeapi.ProjectJobJSON {
	t.Helper()
	return decode[fakeapi.ProjectJobJSON](t, h.do(t, http.MethodPost, projectJobs, fakeapi.DefaultAPIKey, body).
		wantStatus(t, http.StatusAccepted))
}

func (h *harness) getProjectJob(t *testing.T, id string) fakeapi.ProjectJobJSON {
	t.Helper()
	return decode[fakeapi.ProjectJobJSON](t, h.do(t, http.MethodGet, projectJobs+"/"+id, fakeapi.DefaultAPIKey, nil).
		wantStatus(t, http.StatusOK))
}

// wantServiceError checks a refusal of the contract itself: its status,
// text and code.
func (r response) wantServiceError(t *testing.T, status int, code, inText string) {
	t.Helper()
	r.wantStatus(t, status)
	got := decode[fakeapi.ServiceError](t, r)
	if got.Code != code || !strings.Contains(got.Error, inText) {
		t.Errorf("error = %q (code %q), want one containing %q with code %q", got.Error, got.Code, inText, code)
	}
}

// TestProjectJobLifecycle: a job is queued, runs, completes; a completed
// job's every status carries a fresh link to a ZIP archive of its pages.
func TestProjectJobLifecycle(t *testing.T) {
	t.Parallel()
	h := nextHarness(t, fakeapi.NextExport{Plan: func(req fakeapi.ProjectStartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{QueueFor: 2 * time.Second, RunFor: 10 * time.Second, Pages: 3}
	}})
	job := h.startProjectJob(t, map[string]string{"basePath": "/docs"})
	if len(job.JobID) != 24 || job.Status != fakeapi.StatusQueued || job.Error != nil || job.BundleURL != "" {
		t.Fatalf("started job = %+v, want a queued job with a 24-digit id, no error and no link", job)
	}
	steps := []struct {
		at      time.Duration
		status  string
		updated time.Duration
	}{
		{time.Second, fakeapi.StatusQueued, 0},
		{5 * time.Second, fakeapi.StatusRunning, 2 * time.Second},
		{12 * time.Second, fakeapi.StatusCompleted, 12 * time.Second},
	}
	for _, step := range steps {
		h.clock.Set(testStart.Add(step.at))
		got := h.getProjectJob(t, job.JobID)
		if got.Status != step.status || got.UpdatedAt != ts(step.updated) {
			t.Errorf("at +%s: status %q updated %s, want %q updated %s", step.at, got.Status, got.UpdatedAt, step.status, ts(step.updated))
		}
	}
	first := h.getProjectJob(t, job.JobID)
	h.clock.Advance(time.Minute)
	second := h.getProjectJob(t, job.JobID)
	if first.BundleURL == second.BundleURL || second.ExpiresAt != ts(12*time.Second+time.Minute+time.Hour) {
		t.Errorf("two reads a minute apart gave links %q and %q (expiring %s): want two links, the second expiring at %s",
			first.BundleURL, second.BundleURL, second.ExpiresAt, ts(12*time.Second+time.Minute+time.Hour))
	}
	if !strings.Contains(second.BundleURL, "/export.zip?") {
		t.Errorf("link %q does not point at export.zip", second.BundleURL)
	}
	archive := doURL(t, http.MethodGet, second.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
	if int64(len(archive.body)) != second.SizeBytes || archive.header.Get("Content-Type") != "application/zip" {
		t.Errorf("archive of %d bytes (%s), want sizeBytes %d of application/zip", len(archive.body), archive.header.Get("Content-Type"), second.SizeBytes)
	}
	if err := readZIP(archive.body); err != nil {
		t.Fatalf("the archive does not read as a ZIP: %v", err)
	}
	zr, _ := zip.NewReader(bytes.NewReader(archive.body), int64(len(archive.body)))
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if want := "index.html page-001.html page-002.html page-003.html"; strings.Join(names, " ") != want {
		t.Errorf("entries %q, want %q", names, want)
	}
	if got := h.fake.BundlesGenerated(); got != 3 {
		t.Errorf("BundlesGenerated = %d, want the 3 links handed out since completion", got)
	}
}

// TestProjectJobRefusals: each refusal of the next contract, with its
// status, code and text.
func TestProjectJobRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		next         fakeapi.NextExport
		opts         []fakeapi.Option
		method, path string
		body         any
		status       int
		code, inText string
	}{
		{"unsupported basePath", fakeapi.NextExport{}, nil, http.MethodPost, projectJobs, map[string]string{"basePath": "/api"},
			400, "invalid_base_path", `must be "", "/docs" or "/documentation"`},
		{"basePath not a string", fakeapi.NextExport{}, nil, http.MethodPost, projectJobs, `{"basePath": 7}`,
			400, "invalid_base_path", "Unsupported basePath"},
		{"body not an object", fakeapi.NextExport{}, nil, http.MethodPost, projectJobs, `["/docs"]`,
			400, "invalid_request", "must be a JSON object"},
		{"malformed project id", fakeapi.NextExport{}, nil, http.MethodPost, "/v1/static-export/proj%201/jobs", nil,
			400, "invalid_project_id", `Malformed project ID "proj 1"`},
		{"unknown project", fakeapi.NextExport{}, []fakeapi.Option{fakeapi.WithProjects("proj_2")}, http.MethodPost, projectJobs, nil,
			404, "project_not_found", `Project "proj_1" not found`},
		{"unknown job", fakeapi.NextExport{}, nil, http.MethodGet, projectJobs + "/6520f3a1c9b1a20012ab34cd", nil,
			404, "job_not_found", "for this deployment"},
		{"not enabled, as 403", fakeapi.NextExport{NotEnabled: 403}, nil, http.MethodPost, projectJobs, nil,
			403, "static_export_not_enabled", "not enabled for this project"},
		{"not enabled, as 401", fakeapi.NextExport{NotEnabled: 401}, nil, http.MethodGet, projectJobs + "/x", nil,
			401, "static_export_not_enabled", "not enabled for this project"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := nextHarness(t, tt.next, tt.opts...)
			h.do(t, tt.method, tt.path, fakeapi.DefaultAPIKey, tt.body).wantServiceError(t, tt.status, tt.code, tt.inText)
			if n := len(h.fake.ProjectJobIDs()); n != 0 {
				t.Errorf("%d jobs started, want none", n)
			}
		})
	}
}

// TestProjectJobKeyRefusals: the key checks answer as Mintlify's shared key
// layer does, an error text and no code.
func TestProjectJobKeyRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limits fakeapi.KeyLimits
		key    string
		status int
		text   string
	}{
		{"invalid key", fakeapi.KeyLimits{}, "mint_wrong", 401, "Invalid or missing API key"},
		{"expired key", fakeapi.KeyLimits{ExpiresAt: testStart}, fakeapi.DefaultAPIKey, 401, "API key expired at 2026-11-21T09:00:00.000Z"},
		{"plan without API access", fakeapi.KeyLimits{NoAPIAccess: true}, fakeapi.DefaultAPIKey, 401,
			"Your plan does not include API access. Upgrade to a Pro or Enterprise plan."},
		{"read-only key", fakeapi.KeyLimits{ReadOnly: true}, fakeapi.DefaultAPIKey, 403, "This API key is read-only: POST needs the write scope"},
		{"IP allowlist", fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.7"}}, fakeapi.DefaultAPIKey, 403,
			"Request from IP address 127.0.0.1 is not on the allowlist of this API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := nextHarness(t, fakeapi.NextExport{}, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: tt.limits}))
			r := h.do(t, http.MethodPost, projectJobs, tt.key, nil)
			r.wantError(t, tt.status, tt.text)
			if bytes.Contains(r.body, []byte(`"code"`)) {
				t.Errorf("a key-layer answer carries a code: %s", r.body)
			}
		})
	}
}

// TestProjectJobOneActivePerDeployment: a second start while a job of the
// same project is queued or running answers 409; another project, or the
// same one once the job ended, may start.
func TestProjectJobOneActivePerDeployment(t *testing.T) {
	t.Parallel()
	h := nextHarness(t, fakeapi.NextExport{})
	first := h.startProjectJob(t, nil)
	h.clock.Advance(5 * time.Second) // running
	h.do(t, http.MethodPost, projectJobs, fakeapi.DefaultAPIKey, nil).
		wantServiceError(t, http.StatusConflict, "export_in_progress", first.JobID)
	h.do(t, http.MethodPost, "/v1/static-export/proj_2/jobs", fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
	h.clock.Advance(time.Minute) // the first job completed
	h.startProjectJob(t, nil)
	if n := len(h.fake.ProjectJobIDs()); n != 3 {
		t.Errorf("%d jobs started, want 3", n)
	}
}

// TestProjectJobHourlyLimit: the eleventh start within an hour answers 429,
// as JSON with a Retry-After, or as plain text without one.
func TestProjectJobHourlyLimit(t *testing.T) {
	t.Parallel()
	for _, plain := range []bool{false, true} {
		h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext,
			PlainTextLimit: plain, Plan: func(fakeapi.ProjectStartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}}))
		for range 10 {
			h.clock.Advance(time.Minute)
			h.do(t, http.MethodPost, projectJobs, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
		}
		h.clock.Advance(time.Minute)
		r := h.do(t, http.MethodPost, projectJobs, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusTooManyRequests)
		retryAfter, ct := r.header.Get("Retry-After"), r.header.Get("Content-Type")
		switch {
		case plain && (retryAfter != "" || ct != "text/plain; charset=utf-8" || string(r.body) != "Too Many Requests\n"):
			t.Errorf("plain-text 429 = %q %q Retry-After %q, want text/plain without Retry-After", ct, r.body, retryAfter)
		case !plain && retryAfter != "3000":
			// The first start was at +1m; the window frees at +61m, 50 minutes after +11m.
			t.Errorf("Retry-After = %q, want 3000 (seconds until the first start leaves the hour)", retryAfter)
		}
		h.clock.Advance(50 * time.Minute)
		h.do(t, http.MethodPost, projectJobs, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusAccepted)
	}
}

// TestContractsServed: which contract answers, by NextExport.Contracts and
// RetiredStatus.
func TestContractsServed(t *testing.T) {
	t.Parallel()
	today := `{"domain":"docs.example.com"}`
	tests := []struct {
		name                        string
		next                        fakeapi.NextExport
		todayStart, todayJob, start int
	}{
		{"default: today's only", fakeapi.NextExport{}, 202, 404, 404},
		{"both", fakeapi.NextExport{Contracts: fakeapi.ServeBoth}, 202, 404, 202},
		{"next only: today's calls have no route", fakeapi.NextExport{Contracts: fakeapi.ServeNext}, 404, 404, 202},
		{"next only, today's retired with 410", fakeapi.NextExport{Contracts: fakeapi.ServeNext, RetiredStatus: http.StatusGone},
			410, 410, 202},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newUncheckedHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &tt.next}))
			for _, call := range []struct {
				method, path string
				body         any
				want         int
			}{
				{http.MethodPost, "/v1/static-export/jobs", today, tt.todayStart},
				{http.MethodGet, "/v1/static-export/jobs/se_0123456789abcdef", nil, tt.todayJob},
				{http.MethodPost, "/v1/static-export/jobs/se_0123456789abcdef/bundle", nil, tt.todayJob},
				{http.MethodPost, projectJobs, nil, tt.start},
			} {
				if r := h.do(t, call.method, call.path, fakeapi.DefaultAPIKey, call.body); r.status != call.want {
					t.Errorf("%s %s = %d %s, want %d", call.method, call.path, r.status, r.body, call.want)
				}
			}
		})
	}
}

// TestProjectJobArchiveDefects: a broken archive is served as the defect
// says, under a sizeBytes and Content-Length that match what is sent.
func TestProjectJobArchiveDefects(t *testing.T) {
	t.Parallel()
	for _, defect := range []fakeapi.ArchiveDefect{fakeapi.ArchiveTruncated, fakeapi.ArchiveCorrupt} {
		h := nextHarness(t, fakeapi.NextExport{
			Plan:    func(fakeapi.ProjectStartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} },
			Archive: func(fakeapi.ProjectStartRequest) fakeapi.Archive { return fakeapi.Archive{Defect: defect} },
		})
		job := h.getProjectJob(t, h.startProjectJob(t, nil).JobID)
		archive := doURL(t, http.MethodGet, job.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
		if int64(len(archive.body)) != job.SizeBytes || archive.header.Get("Content-Length") != strconv.Itoa(len(archive.body)) {
			t.Errorf("%s: %d bytes under Content-Length %s, want sizeBytes %d", defect, len(archive.body),
				archive.header.Get("Content-Length"), job.SizeBytes)
		}
		if err := readZIP(archive.body); err == nil {
			t.Errorf("%s: the archive reads without error", defect)
		}
	}
}

// TestProjectJobHostileArchives: a hostile defect is a well-formed ZIP,
// the job's pages followed by the entries the defect adds.
func TestProjectJobHostileArchives(t *testing.T) {
	t.Parallel()
	for defect, want := range map[fakeapi.ArchiveDefect][]string{
		fakeapi.ArchiveEscapingEntry: {"../escape.html"},
		fakeapi.ArchiveSymlinkChain:  {"d/up", "d/up/up", "d/up/up/pwned.txt"},
	} {
		h := nextHarness(t, fakeapi.NextExport{
			Plan:    func(fakeapi.ProjectStartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} },
			Archive: func(fakeapi.ProjectStartRequest) fakeapi.Archive { return fakeapi.Archive{Defect: defect} },
		})
		job := h.getProjectJob(t, h.startProjectJob(t, nil).JobID)
		archive := doURL(t, http.MethodGet, job.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
		zr, err := zip.NewReader(bytes.NewReader(archive.body), int64(len(archive.body)))
		if err != nil {
			t.Fatalf("%s: %v", defect, err)
		}
		var names []string
		for _, f := range zr.File[len(zr.File)-len(want):] {
			names = append(names, f.Name)
		}
		if !slices.Equal(names, want) || zr.File[0].Name != "index.html" {
			t.Errorf("%s: entries end with %q, want %q after the pages", defect, names, want)
		}
		if defect == fakeapi.ArchiveSymlinkChain && zr.File[len(zr.File)-3].Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s: d/up is not a symbolic link", defect)
		}
	}
}

// readZIP reads every entry of a ZIP archive, checking its CRC.
func readZIP(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, rc)
		_ = rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
