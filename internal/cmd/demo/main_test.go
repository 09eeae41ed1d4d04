package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const signature = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"

// link is a presigned link of the shape the stand-in API hands out.
func link(base string) string {
	return base + "/exports/job_1/bundle.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
		"&X-Amz-Credential=AKIAFAKE%2F20261121%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261121T090000Z" +
		"&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=" + signature
}

// The "Outputs" step shows which host and object the link names, never its
// query: the signature grants access to the bundle to whoever reads it.
func TestOutputsNeverShowTheSignature(t *testing.T) {
	t.Parallel()
	l := link("https://storage.example.com")
	got := shown("bundle_url", l)
	if strings.Contains(got, signature) || strings.Contains(got, "AKIAFAKE") {
		t.Fatalf("the demo prints the link's query: %s", got)
	}
	if want := "https://storage.example.com/exports/job_1/bundle.tar.gz?… (query with the signature hidden"; !strings.HasPrefix(got, want) {
		t.Errorf("shown = %q, want it to start with %q", got, want)
	}
	if got := shown("page_count", "128"); got != "128" {
		t.Errorf("other outputs are printed as they are, got %q", got)
	}
	if got := maskLink("not a link " + signature); strings.Contains(got, signature) {
		t.Errorf("maskLink of a non-URL = %q", got)
	}
}

// A download that fails says so without quoting the link: Go's *url.Error
// quotes it whole, and a storage host may echo its query in the answer.
func TestDownloadErrorsNeverShowTheSignature(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "<Error><Code>AccessDenied</Code><Signature>"+r.URL.Query().Get("X-Amz-Signature")+
			"</Signature><Request>"+r.URL.String()+"</Request></Error>", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)

	refused := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		_ = l.Close()
		return "http://" + addr
	}()

	for name, base := range map[string]string{"refused by the host": srv.URL, "connection refused": refused} {
		_, err := download(context.Background(), link(base))
		if err == nil {
			t.Fatalf("%s: the download succeeded", name)
		}
		if strings.Contains(err.Error(), signature) || strings.Contains(err.Error(), "AKIAFAKE") {
			t.Errorf("%s: the error quotes the link: %v", name, err)
		}
		if !strings.Contains(err.Error(), "/exports/job_1/bundle.tar.gz") {
			t.Errorf("%s: the error should still name the object: %v", name, err)
		}
	}
}
