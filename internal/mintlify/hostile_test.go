package mintlify

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
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
	clk := clock.NewFake(start, true)
	var fake *fakeapi.Server
	second := fakeapi.NewHeaderRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fake.ServeHTTP(w, r) }))
	storage := httptest.NewServer(second)
	t.Cleanup(storage.Close)
	fake = fakeapi.New(fakeapi.WithClock(clk), fakeapi.WithDownloadRedirect(storage.URL),
		fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }))
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(contract.Serve(t, fake)), WithClock(clk))
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
			clk := clock.NewFake(start, true)
			fake := fakeapi.New(fakeapi.WithClock(clk), fakeapi.WithDownloadHost(tc.linkBase),
				fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }))
			opts := []Option{WithClock(clk)}
			if tc.baseURL == "" {
				opts = append(opts, WithBaseURL(contract.Serve(t, fake)))
			} else {
				opts = append(opts, WithBaseURL(tc.baseURL), WithHTTPClient(dialOnly(t, contract.ServeTLS(t, fake))))
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
			if n := fake.Count(http.MethodGet, "/bundles/"); n != 0 {
				t.Errorf("%d downloads reached the storage host, want 0", n)
			}
		})
	}
}

// dialOnly is a client for srv whatever the URL's host: every connection
// goes to srv's loopback address, and srv's certificate is trusted.
func dialOnly(t *testing.T, srv *httptest.Server) *http.Client {
	t.Helper()
	base, ok := srv.Client().Transport.(*http.Transport)
	if !ok {
		t.Fatalf("the TLS test server's client has a %T", srv.Client().Transport)
	}
	tr := base.Clone()
	addr := srv.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: tr}
}
