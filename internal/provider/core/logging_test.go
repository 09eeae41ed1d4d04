package core

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// TestLoggerMasksSecrets: the tflog adapter masks the key and presigned-link
// credentials wherever they appear, in messages and in fields.
func TestLoggerMasksSecrets(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	const key = "mint_abcdef0123456789"
	link := "https://b.s3.amazonaws.com/x.tar.gz?X-Amz-Credential=AKIA%2F20261121&X-Amz-Security-Token=tok123&X-Amz-Signature=deadbeef"
	// The other stores' links, and links quoted URL-encoded inside another
	// link, as a server's error text may hold them.
	others := []string{
		"https://storage.googleapis.com/b/x.tar.gz?X-Goog-Credential=svc%40proj.iam.gserviceaccount.com%2F20261121&X-Goog-Signature=c0ffee42",
		"https://storage.googleapis.com/b/x.tar.gz?GoogleAccessId=svc@proj.iam.gserviceaccount.com&Expires=1795338000&Signature=QmFzZTY0",
		"https://acct.blob.core.windows.net/c/x.tar.gz?sv=2022-11-02&se=2026-11-21T10%3A00%3A00Z&sp=r&skoid=0b1e2d3c&sig=U2FzU2ln%3D",
		"https://d111.cloudfront.net/x.tar.gz?Policy=eyJQb2xpY3kifQ__&Signature=Q2xvdWRGcm9udA~~&Key-Pair-Id=K2JCJMDEHXQW5F",
		"https://proxy.example.com/?u=" + url.QueryEscape("https://b.s3.amazonaws.com/x?X-Amz-Signature=feedbead&sig=5a5a5a"),
	}
	l := newTFLogLogger(key)
	for _, other := range others {
		l.Warn(ctx, "storage said: "+other, map[string]any{"reason": other})
	}
	l.Debug(ctx, "key "+key+" link "+link, map[string]any{"api_key": key, "url": link, "header": "Bearer " + key})
	l.Info(ctx, "Authorization: Bearer opaque-token", nil)
	l.Warn(ctx, "retry", map[string]any{"reason": "GET /v1/x: 502"})
	l.Error(ctx, "failed", map[string]any{"nested": "see " + key})
	logged := out.String()
	for _, secret := range []string{key, "AKIA", "tok123", "deadbeef", "opaque-token", "proj.iam", "c0ffee42", "QmFzZTY0",
		"0b1e2d3c", "U2FzU2ln", "eyJQb2xpY3kifQ", "Q2xvdWRGcm9udA", "K2JCJMDEHXQW5F", "feedbead", "5a5a5a"} {
		if strings.Contains(logged, secret) {
			t.Errorf("%q was logged:\n%s", secret, logged)
		}
	}
	for _, kept := range []string{"https://b.s3.amazonaws.com/x.tar.gz?", "GET /v1/x: 502", "sv=2022-11-02", `"@level":"warn"`, `"@level":"error"`} {
		if !strings.Contains(logged, kept) {
			t.Errorf("%q is missing from the log:\n%s", kept, logged)
		}
	}
}
