package mintlify

import (
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
