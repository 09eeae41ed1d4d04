package fakeapi_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// completedJob starts a job with a short plan and moves the clock past its
// completion.
func (h *harness) completedJob(t *testing.T, body map[string]any) fakeapi.JobJSON {
	t.Helper()
	job := h.startJob(t, body)
	h.clock.Advance(time.Minute)
	if got := h.getJob(t, job.JobID); got.Status != fakeapi.StatusCompleted {
		t.Fatalf("job %s is %s after a minute, want completed", job.JobID, got.Status)
	}
	return job
}

func TestBundleLink(t *testing.T) {
	h := newHarness(t)
	job := h.completedJob(t, map[string]any{"domain": "docs.example.com"})
	signedAt := h.clock.Now()
	b := h.bundle(t, job.JobID)

	if b.JobID != job.JobID {
		t.Errorf("jobId = %q, want %q", b.JobID, job.JobID)
	}
	if want := fakeapi.FormatTime(signedAt.Add(time.Hour)); b.ExpiresAt != want {
		t.Errorf("expiresAt = %s, want %s", b.ExpiresAt, want)
	}
	u, err := url.Parse(b.BundleURL)
	if err != nil {
		t.Fatalf("bundleUrl %q: %v", b.BundleURL, err)
	}
	if want := h.url + "/bundles/" + job.JobID + "/bundle.tar.gz"; u.Scheme+"://"+u.Host+u.Path != want {
		t.Errorf("bundleUrl = %s, want it under %s", b.BundleURL, want)
	}
	pattern := `^X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAFAKEMINTLIFY0001%2F` + testStart.Format("20060102") + `%2Fus-east-1%2Fs3%2Faws4_request` +
		`&X-Amz-Date=` + amzDate(time.Minute) + `&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=[0-9a-f]{64}$`
	if !regexp.MustCompile(pattern).MatchString(u.RawQuery) {
		t.Errorf("query = %s, want to match %s", u.RawQuery, pattern)
	}

	r := doURL(t, http.MethodGet, b.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
	if ct := r.header.Get("Content-Type"); ct != "application/gzip" {
		t.Errorf("Content-Type = %q, want application/gzip", ct)
	}
	if int64(len(r.body)) != b.SizeBytes {
		t.Errorf("downloaded %d bytes, sizeBytes says %d", len(r.body), b.SizeBytes)
	}
	files := untar(t, r.body)
	if len(files) != 43 || files[0] != "index.html" || files[1] != "page-001.html" || files[42] != "page-042.html" {
		t.Errorf("archive holds %d files %v..., want index.html and page-001.html to page-042.html", len(files), files[:min(3, len(files))])
	}
}

func TestBundleArchiveFollowsPaths(t *testing.T) {
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
	job := h.completedJob(t, map[string]any{"domain": "docs.example.com", "version": "2024-06-01", "paths": []string{"index", "guides/x", "api/intro", "guides/x"}})
	b := h.bundle(t, job.JobID)
	body := doURL(t, http.MethodGet, b.BundleURL, noKey, nil).wantStatus(t, http.StatusOK).body
	want := []string{"index.html", "guides/x.html", "api/intro.html"}
	if got := untar(t, body); !slices.Equal(got, want) {
		t.Errorf("archive files = %v, want %v", got, want)
	}
	again := doURL(t, http.MethodGet, h.bundle(t, job.JobID).BundleURL, noKey, nil).body
	if !bytes.Equal(body, again) {
		t.Error("the same job's archive changed between downloads")
	}
}

func TestBundleLinkRenewalAndExpiry(t *testing.T) {
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 5 * time.Minute}))
	job := h.completedJob(t, map[string]any{"domain": "docs.example.com"})
	first := h.bundle(t, job.JobID)
	if !strings.Contains(first.BundleURL, "X-Amz-Expires=300&") {
		t.Errorf("bundleUrl %s does not expire after 300 seconds", first.BundleURL)
	}

	h.clock.Advance(5*time.Minute - time.Second)
	doURL(t, http.MethodGet, first.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
	second := h.bundle(t, job.JobID)
	if second.BundleURL == first.BundleURL || second.ExpiresAt == first.ExpiresAt {
		t.Errorf("a later call returned the same link: %s", second.BundleURL)
	}

	h.clock.Advance(time.Second) // first link is now exactly at expiresAt
	wantS3Error(t, doURL(t, http.MethodGet, first.BundleURL, noKey, nil), http.StatusForbidden, "AccessDenied", "Request has expired")
	doURL(t, http.MethodGet, second.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)

	h.clock.Advance(time.Hour)
	wantS3Error(t, doURL(t, http.MethodGet, second.BundleURL, noKey, nil), http.StatusForbidden, "AccessDenied", "Request has expired")
	renewed := h.bundle(t, job.JobID)
	doURL(t, http.MethodGet, renewed.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
	if n := h.fake.ExportJobsStarted(); n != 1 {
		t.Errorf("renewing links started %d jobs, want 1", n)
	}
}

func TestBundleLinkTampering(t *testing.T) {
	h := newHarness(t)
	job := h.completedJob(t, map[string]any{"domain": "docs.example.com"})
	other := h.completedJob(t, map[string]any{"domain": "docs.example.com"})
	link := h.bundle(t, job.JobID).BundleURL
	const mismatch = "The request signature we calculated does not match the signature you provided. Check your key and signing method."

	tests := []struct {
		name          string
		edit          func(u *url.URL)
		code, message string
	}{
		{"signature", setQuery("X-Amz-Signature", strings.Repeat("0", 64)), "SignatureDoesNotMatch", mismatch},
		{"longer lifetime", setQuery("X-Amz-Expires", "604800"), "SignatureDoesNotMatch", mismatch},
		{"later date", setQuery("X-Amz-Date", amzDate(time.Hour)), "SignatureDoesNotMatch", mismatch},
		{"other job", func(u *url.URL) { u.Path = strings.Replace(u.Path, job.JobID, other.JobID, 1) }, "SignatureDoesNotMatch", mismatch},
		{"no query", func(u *url.URL) { u.RawQuery = "" }, "AccessDenied", "Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(link)
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(u)
			wantS3Error(t, doURL(t, http.MethodGet, u.String(), noKey, nil), http.StatusForbidden, tt.code, tt.message)
		})
	}
	if n := h.fake.Count(http.MethodGet, "/bundles/"); n != len(tests) {
		t.Errorf("Count(GET /bundles/) = %d, want %d", n, len(tests))
	}
}

func TestBundleLinkHost(t *testing.T) {
	t.Run("configured download host", func(t *testing.T) {
		h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{DownloadHost: "https://downloads.example.com/"}))
		job := h.completedJob(t, map[string]any{"domain": "docs.example.com"})
		if link := h.bundle(t, job.JobID).BundleURL; !strings.HasPrefix(link, "https://downloads.example.com/bundles/"+job.JobID+"/bundle.tar.gz?") {
			t.Errorf("bundleUrl = %s, want it on downloads.example.com", link)
		}
	})
	t.Run("mounted under a path prefix", func(t *testing.T) {
		h := newHarnessWith(t, fakeapitest.Unchecked(), fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler {
			mux := http.NewServeMux()
			mux.Handle("/mintlify/", http.StripPrefix("/mintlify", fake))
			return mux
		}))
		h.url += "/mintlify"

		job := h.completedJob(t, map[string]any{"domain": "docs.example.com"})
		link := h.bundle(t, job.JobID).BundleURL
		if !strings.HasPrefix(link, h.url+"/bundles/") {
			t.Errorf("bundleUrl = %s, want it under %s", link, h.url)
		}
		doURL(t, http.MethodGet, link, noKey, nil).wantStatus(t, http.StatusOK)
	})
}

// amzDate is the instant offset after testStart as X-Amz-Date writes it.
func amzDate(offset time.Duration) string {
	return testStart.Add(offset).Format("20060102T150405Z")
}

// setQuery returns an edit that sets one query parameter.
func setQuery(key, value string) func(u *url.URL) {
	return func(u *url.URL) {
		// Rebuild by hand to keep the other parameters byte for byte.
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			if strings.HasPrefix(p, key+"=") {
				parts[i] = key + "=" + url.QueryEscape(value)
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
}

// wantS3Error checks an S3-style XML error response.
func wantS3Error(t *testing.T, r response, status int, code, message string) {
	t.Helper()
	r.wantStatus(t, status)
	if ct := r.header.Get("Content-Type"); ct != "application/xml" {
		t.Errorf("Content-Type = %q, want application/xml", ct)
	}
	var e fakeapi.S3Error
	if err := xml.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("decode S3 error %q: %v", r.body, err)
	}
	if e.Code != code || e.Message != message {
		t.Errorf("S3 error = %s: %s, want %s: %s", e.Code, e.Message, code, message)
	}
}

// untar lists the regular files of a tar.gz archive, checking that each
// entry's content is readable and complete.
func untar(t *testing.T, archive []byte) []string {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatalf("bundle is not gzip: %v", err)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names
		}
		if err != nil {
			t.Fatalf("bundle is not a tar archive: %v", err)
		}
		body, err := io.ReadAll(tr)
		if err != nil || int64(len(body)) != hdr.Size || !strings.HasPrefix(string(body), "<!doctype html>") {
			t.Fatalf("entry %s: %d bytes of %d, err %v", hdr.Name, len(body), hdr.Size, err)
		}
		names = append(names, hdr.Name)
	}
}
