package mintlify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// The client against a hostile API and storage host (fakeapi/hostile.go):
// what the network hands it is never trusted.

// TestNoHeaderCarriesALinkAcrossARedirect: the storage host redirects the
// download to a second loopback server, which records every header it
// receives. The download carries no Referer there (net/http would put the
// previous URL in it, the link's signature included), no part of the link's
// query in any header, and no API key. (TestAuthorizationStaysOnTheAPIHost
// checks the same of an API call redirected to another host.)
func TestNoHeaderCarriesALinkAcrossARedirect(t *testing.T) {
	t.Parallel()
	var fake *fakeapi.Server
	second := fakeapi.NewHeaderRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fake.ServeHTTP(w, r) }))
	storage := httptest.NewServer(second)
	t.Cleanup(storage.Close)
	env := fakeapitest.New(t, fakeapitest.Fake(fakeapi.WithHostile(fakeapi.HostileOptions{DownloadRedirect: storage.URL}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }})))
	fake = env.Fake
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock))
	if err != nil {
		t.Fatal(err)
	}
	job := mustStart(t, c)
	if _, err := c.DownloadBundle(t.Context(), job.JobID, &memorySink{}); err != nil {
		t.Fatalf("redirected download: %v", err)
	}

	got := second.Requests()
	if len(got) != 1 {
		t.Fatalf("the second host got %d requests, want the download: %+v", len(got), got)
	}
	download := got[0]
	u, err := url.ParseRequestURI(download.URI)
	if err != nil || u.Query().Get("X-Amz-Signature") == "" {
		t.Fatalf("the download reached the second host without its link: %q", download.URI)
	}
	if ref := download.Header.Get("Referer"); ref != "" {
		t.Errorf("the download carried Referer %q to the second host", ref)
	}
	if auth := download.Header.Get("Authorization"); auth != "" {
		t.Errorf("the download carried Authorization %q", auth)
	}
	secrets := []string{u.RawQuery, u.Query().Get("X-Amz-Signature"), u.Query().Get("X-Amz-Credential"), fakeapi.DefaultAPIKey}
	for name, values := range download.Header {
		for _, v := range values {
			for _, secret := range secrets {
				if strings.Contains(v, secret) {
					t.Errorf("header %s carries a secret of the link: %q", name, v)
				}
			}
		}
	}
}

// TestPlainHTTPLinksOnlyFromALoopbackAPI: a bundle link over plain http is
// refused unless base_url itself is loopback (the fake). The API is given a
// name that is not loopback (https://example.com, which the TLS test
// server's certificate covers) while every connection stays on loopback.
func TestPlainHTTPLinksOnlyFromALoopbackAPI(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, baseURL, linkBase string
		refused                 bool
	}{
		{"plain http from an API elsewhere", "https://example.com", "http://storage.example.com", true},
		{"https from an API elsewhere", "https://example.com", "https://storage.example.com", false},
		{"plain http from a loopback API", "", "http://storage.example.com", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			serving := []fakeapitest.Option{fakeapitest.Fake(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{DownloadHost: tc.linkBase}),
				fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))}
			if tc.baseURL != "" {
				serving = append(serving, fakeapitest.TLS()) // at https://example.com
			}
			env := fakeapitest.New(t, serving...)
			opts := []Option{WithClock(env.Clock), WithBaseURL(env.URL)}
			if env.HTTPClient != nil {
				opts = append(opts, WithHTTPClient(env.HTTPClient))
			}
			c, err := New(fakeapi.DefaultAPIKey, opts...)
			if err != nil {
				t.Fatal(err)
			}
			job := mustStart(t, c)
			b, err := c.GenerateBundle(t.Context(), job.JobID)
			if !tc.refused {
				if err != nil || !strings.HasPrefix(b.BundleURL, tc.linkBase+"/") {
					t.Fatalf("GenerateBundle = %+v, %v; want a link under %s", b, err, tc.linkBase)
				}
				return
			}
			var unsafe *UnsafeLinkError
			if !errors.As(err, &unsafe) || b != nil {
				t.Fatalf("GenerateBundle = %+v, %v; want an *UnsafeLinkError", b, err)
			}
			for _, want := range []string{job.JobID, "plain http", "storage.example.com", "would expose the bundle and its signature"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "X-Amz") || strings.Contains(err.Error(), "?") {
				t.Errorf("error %q shows the link's query", err)
			}
			// Every consumer goes through GenerateBundle: the download never starts.
			if _, err := c.DownloadBundle(t.Context(), job.JobID, &memorySink{}); !errors.As(err, &unsafe) {
				t.Errorf("DownloadBundle: %v, want the same refusal", err)
			}
			if n := env.Fake.Count(http.MethodGet, "/bundles/"); n != 0 {
				t.Errorf("%d downloads reached the storage host, want 0", n)
			}
		})
	}
}

// hostileText is ten kilobytes of error text as a hostile server would send
// it: line breaks, a terminal escape, a bidirectional override, a presigned
// link with its signature, a bearer token, the API key echoed, and a tail
// that must never be shown.
var hostileText = "Export refused.\n\x1b[31mSee https://bucket.s3.amazonaws.com/b.tar.gz?X-Amz-Credential=AKIAHOSTILE&" +
	"X-Amz-Signature=feedface0123 \u202eBearer tok-hostile key " + fakeapi.DefaultAPIKey + "\r\n" +
	strings.Repeat("padding ", 1250) + "TAIL-MARKER"

// hostileSecrets must never appear in what the client reports.
var hostileSecrets = []string{"\n", "\r", "\x1b", "\u202e", "AKIAHOSTILE", "feedface0123", "tok-hostile", fakeapi.DefaultAPIKey, "TAIL-MARKER"}

// checkServerText fails unless text is hostileText cleaned: one line, at
// most about 300 characters, the secrets masked, the cut said.
func checkServerText(t *testing.T, what, text string, limit int) {
	t.Helper()
	if n := utf8.RuneCountInString(text); n > limit {
		t.Errorf("%s: %d characters, want about 300 at most: %q", what, n, text)
	}
	for _, secret := range hostileSecrets {
		if strings.Contains(text, secret) {
			t.Errorf("%s shows %q: %q", what, secret, text)
		}
	}
	for _, want := range []string{"Export refused. ", "See https://bucket.s3.amazonaws.com/b.tar.gz?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED",
		"Bearer REDACTED", "key REDACTED", "(cut from 10"} {
		if !strings.Contains(text, want) {
			t.Errorf("%s does not show %q: %q", what, want, text)
		}
	}
}

// TestServerTextIsCleanedAndCut: whatever text the API or the storage host
// sends (an error body, a job's failure reason, a status) reaches errors
// cleaned: one line, at most about 300 characters, no control characters,
// signatures, tokens and the API key masked.
func TestServerTextIsCleanedAndCut(t *testing.T) {
	t.Parallel()
	t.Run("API error body", func(t *testing.T) {
		t.Parallel()
		c, _, _ := faultyFake(t, fakeapi.IsStartRequest,
			fakeapi.Fault{Kind: fakeapi.FaultStatus, Status: http.StatusBadRequest}.WithMessage(hostileText))
		_, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("err = %v, want an *APIError", err)
		}
		checkServerText(t, "the API's message", apiErr.Message, 330)
		checkServerText(t, "the error", err.Error(), 450)
	})
	t.Run("storage error document", func(t *testing.T) {
		t.Parallel()
		c, _, _ := newFake(t, fakeapi.WithHostile(fakeapi.HostileOptions{StorageError: &fakeapi.StorageError{Status: http.StatusForbidden, Code: "AccessDenied", Message: hostileText}}),
			fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
		job := mustStart(t, c)
		_, err := c.DownloadBundle(t.Context(), job.JobID, &memorySink{})
		var apiErr *APIError
		var fromStorage *DownloadError
		if !errors.As(err, &fromStorage) || !errors.As(err, &apiErr) {
			t.Fatalf("err = %v, want the storage host's refusal", err)
		}
		checkServerText(t, "the storage host's message", apiErr.Message, 330)
	})
	t.Run("failed job's reason", func(t *testing.T) {
		t.Parallel()
		c, _, _ := newFake(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
			return fakeapi.JobPlan{RunFor: time.Minute, FailWith: hostileText}
		}}))
		started := mustStart(t, c)
		_, err := c.WaitForStaticExport(t.Context(), started.JobID, Started(started))
		var failed *JobFailedError[StaticExportJob]
		if !errors.As(err, &failed) || failed.Job.Error == nil {
			t.Fatalf("err = %v, want a failed job", err)
		}
		checkServerText(t, "the job's reason", *failed.Job.Error, 330)
		checkServerText(t, "the error", err.Error(), 450)
	})
	t.Run("undocumented status", func(t *testing.T) {
		t.Parallel()
		c, _, _ := newUncheckedFake(t, fakeapi.WithHostile(fakeapi.HostileOptions{UndocumentedStatus: hostileText}))
		started := mustStart(t, c)
		job, err := c.WaitForStaticExport(t.Context(), started.JobID, Started(started))
		var unknown *UnknownStatusError
		if !errors.As(err, &unknown) {
			t.Fatalf("err = %v, want an *UnknownStatusError", err)
		}
		checkServerText(t, "the status", unknown.Status, 330)
		checkServerText(t, "the job's status", job.Status, 330)
	})
}

func TestServerText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Job not found.":                   "Job not found.",
		"  two\n\nlines\t and\x00 a NUL  ": "two lines and a NUL",
		"\u200bzero\u2066width\u2069":      "zerowidth",
		"bad \xff byte":                    "bad \ufffd byte",
		"?X-Amz-Security-Token=abc&x=1":    "?X-Amz-Security-Token=REDACTED&x=1",
		strings.Repeat("é", 301):           strings.Repeat("é", 300) + "… (cut from 301 characters)",
		strings.Repeat("é", 300):           strings.Repeat("é", 300),
		strings.Repeat("word ", 70):        strings.TrimSpace(strings.Repeat("word ", 60)) + "… (cut from 349 characters)",
	} {
		if got := serverText(in, nil); got != want {
			t.Errorf("serverText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := serverText("key mint_abc!", []string{"mint_abc"}); got != "key REDACTED!" {
		t.Errorf("a secret of the client: %q", got)
	}
}

// TestNoRedirectFromHTTPSToPlainHTTP: neither an API call nor a download
// follows a redirect from https to plain http, which would walk around the
// refusal of plain-http base URLs and links. The plain-http host, a second
// loopback server, receives nothing; the error names the hop by its hosts
// and never quotes the link. The call is not retried: the same redirect
// would come back.
func TestNoRedirectFromHTTPSToPlainHTTP(t *testing.T) {
	t.Parallel()
	agentJob := `{"id":"aj_1","status":"completed","source":{"repository":"https://github.com/acme/docs","ref":null},` +
		`"model":"sonnet","prLink":null,"createdAt":"2026-01-01T00:00:00Z","archivedAt":null}`
	t.Run("API call", func(t *testing.T) {
		t.Parallel()
		plain := fakeapi.NewHeaderRecorder(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, agentJob)
		}))
		plainSrv := httptest.NewServer(plain)
		t.Cleanup(plainSrv.Close)
		var redirects atomic.Int32
		api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			redirects.Add(1)
			http.Redirect(w, r, plainSrv.URL+"/v2/agent/proj/job/aj_1?token=t0ps3cret", http.StatusTemporaryRedirect)
		}))
		t.Cleanup(api.Close)
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(api.URL), WithHTTPClient(api.Client()))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.GetAgentJob(t.Context(), "proj", "aj_1")
		checkDowngrade(t, err, strings.TrimPrefix(api.URL, "https://"), strings.TrimPrefix(plainSrv.URL, "http://"))
		if n := len(plain.Requests()); n != 0 || redirects.Load() != 1 {
			t.Errorf("the plain-http host got %d requests after %d redirects, want none after one", n, redirects.Load())
		}
	})
	t.Run("download", func(t *testing.T) {
		t.Parallel()
		var fake *fakeapi.Server
		plain := fakeapi.NewHeaderRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fake.ServeHTTP(w, r) }))
		plainSrv := httptest.NewServer(plain)
		t.Cleanup(plainSrv.Close)
		env := fakeapitest.New(t, fakeapitest.TLS(), fakeapitest.Fake(fakeapi.WithHostile(fakeapi.HostileOptions{DownloadRedirect: plainSrv.URL}),
			fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }})))
		fake = env.Fake
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithHTTPClient(tlsAndPlain(t, env.HTTPClient)))
		if err != nil {
			t.Fatal(err)
		}
		job := mustStart(t, c)
		var sink memorySink
		_, err = c.DownloadBundle(t.Context(), job.JobID, &sink)
		var de *DownloadError
		if !errors.As(err, &de) {
			t.Fatalf("err = %v, want a *DownloadError", err)
		}
		checkDowngrade(t, err, fakeapitest.TLSHost, strings.TrimPrefix(plainSrv.URL, "http://"))
		if n := len(plain.Requests()); n != 0 || sink.buf.Len() != 0 {
			t.Errorf("the plain-http host got %d requests, the sink %d bytes; want none", n, sink.buf.Len())
		}
		if n := env.Fake.Count(http.MethodGet, "/bundles/"); n != 1 {
			t.Errorf("%d download requests, want 1 (no retry)", n)
		}
	})
}

// checkDowngrade fails unless err is the refusal of a redirect from https
// on host from to plain http on host to, saying so without a path or query.
func checkDowngrade(t *testing.T, err error, from, to string) {
	t.Helper()
	var downgrade *DowngradeError
	if !errors.As(err, &downgrade) || Attempts(err) != 1 {
		t.Fatalf("err = %v, want a *DowngradeError at the first attempt", err)
	}
	want := "refused a redirect from https://" + from + " to http://" + to + ": following it would send the request unencrypted"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	for _, leak := range []string{"?", "X-Amz", "t0ps3cret", "/bundles/", "/v2/"} {
		if strings.Contains(downgrade.Error(), leak) {
			t.Errorf("the refusal %q shows %q", downgrade, leak)
		}
	}
}

// tlsAndPlain is hc (fakeapitest's client for the fake at
// https://example.com) reaching every other host directly: the plain-http
// host a redirect points at.
func tlsAndPlain(t *testing.T, hc *http.Client) *http.Client {
	t.Helper()
	base, ok := hc.Transport.(*http.Transport)
	if !ok {
		t.Fatalf("fakeapitest's client has a %T", hc.Transport)
	}
	tr := base.Clone()
	toFake := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if strings.HasPrefix(addr, fakeapitest.TLSHost+":") {
			return toFake(ctx, network, addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: tr}
}

// TestIdentifiersFromTheAPIAreChecked: an id the API hands out is refused
// unless it is a clean, bounded identifier, before it can reach state, a
// request path or a diagnostic: the error names the call and the field and
// shows the value escaped and cut, never raw. A start whose answer is
// refused may have started a job (the API took the request).
func TestIdentifiersFromTheAPIAreChecked(t *testing.T) {
	t.Parallel()
	for name, id := range map[string]string{
		"a terminal escape":        "se_\x1b[31mred\x1b[0m",
		"ten kilobytes":            "se_" + strings.Repeat("a", 10<<10),
		"a path":                   "../../v1/static-export/jobs",
		"empty":                    "",
		"a bidirectional override": "se_\u202egnp.exe",
		"a line break":             "se_1\nError: everything is fine",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, fake, _ := newFake(t, fakeapi.WithHostile(fakeapi.HostileOptions{JobIDs: func() string { return id }}))
			_, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
			checkRefusedID(t, err, "POST /v1/static-export/jobs", "jobId", id)
			if !MayHaveStarted(err) || fake.ExportJobsStarted() != 1 {
				t.Errorf("err = %v, %d jobs started: want a job that may have started", err, fake.ExportJobsStarted())
			}
			_, err = c.CreateAgentJob(t.Context(), "proj", "Document the CLI")
			checkRefusedID(t, err, "POST /v2/agent/proj/job", "id", id)
			if !MayHaveStarted(err) {
				t.Errorf("err = %v, want an agent job that may have started", err)
			}
		})
	}
	t.Run("deployments and automation runs", func(t *testing.T) {
		t.Parallel()
		const automation = "665f1c2a9b3e4d5f6a7b8c9d"
		for _, id := range []string{"0123456789abcdef01234567\x1b]8;;https://evil.example\a", ""} {
			c, _, _ := newFake(t, fakeapi.WithHostile(fakeapi.HostileOptions{JobIDs: func() string { return id }}),
				fakeapi.WithAutomations(fakeapi.Automation{ProjectID: "proj", ID: automation}))
			_, err := c.TriggerDeployment(t.Context(), "proj")
			checkRefusedID(t, err, "POST /v1/project/update/proj", "statusId", id)
			_, err = c.TriggerPreview(t.Context(), "proj", "feature/x")
			checkRefusedID(t, err, "POST /v1/project/preview/proj", "statusId", id)
			if !MayHaveStarted(err) {
				t.Errorf("err = %v, want a preview that may have started", err)
			}
			_, err = c.TriggerAutomation(t.Context(), "proj", automation)
			checkRefusedID(t, err, "POST /v1/workflow/proj/"+automation+"/trigger", "instanceId", id)
			if !MayHaveStarted(err) {
				t.Errorf("err = %v, want a run that may have started", err)
			}
		}
	})
	t.Run("links and names of an agent job", func(t *testing.T) {
		t.Parallel()
		c, fake, _ := newFake(t)
		for id, seed := range map[string]fakeapi.AgentJobSeed{
			"aj_pr":      {PRLink: ptr("ftp://files.example.com/acme/docs/pull/1")},
			"aj_pr_long": {PRLink: ptr("https://github.com/acme/docs/pull/" + strings.Repeat("1", 4096))},
			"aj_repo":    {Repository: "https://user:hunter2@github.com/acme/docs"},
			"aj_ref":     {Ref: ptr("main\r\nInjected: yes")},
		} {
			seed.ID = id
			if seed.Repository == "" {
				seed.Repository = "https://github.com/acme/docs"
			}
			fake.AddAgentJob("proj", seed)
			_, err := c.GetAgentJob(t.Context(), "proj", id)
			var invalid *InvalidValueError
			if !errors.As(err, &invalid) || invalid.Route != "GET /v2/agent/proj/job/"+id {
				t.Errorf("%s: err = %v, want an *InvalidValueError naming the call", id, err)
				continue
			}
			if strings.ContainsAny(err.Error(), "\x1b\r\n\a") || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("%s: the error shows the value raw: %q", id, err)
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

// checkRefusedID fails unless err refuses id as field of the call route,
// showing it escaped and cut.
func checkRefusedID(t *testing.T, err error, route, field, id string) {
	t.Helper()
	var invalid *InvalidValueError
	if !errors.As(err, &invalid) || invalid.Route != route || invalid.Field != field {
		t.Fatalf("err = %v, want an *InvalidValueError for %s of %s", err, field, route)
	}
	text := err.Error()
	for _, want := range []string{route + ": the API answered with a " + field + " the provider does not accept", "an id is 1 to 128"} {
		if !strings.Contains(text, want) {
			t.Errorf("error %q does not say %q", text, want)
		}
	}
	if strings.ContainsAny(text, "\x1b\n\a\u202e") || utf8.RuneCountInString(text) > 400 {
		t.Errorf("the error shows the id raw or whole (%d characters): %q", utf8.RuneCountInString(text), text)
	}
	if len(id) > 0 && !strings.Contains(text, strconv.QuoteToASCII(id[:min(len(id), 8)])[1:8]) {
		t.Errorf("the error %q does not show the start of the id %q", text, id)
	}
}
