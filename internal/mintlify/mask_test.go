package mintlify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// signedLink is a presigned link as one of the major object stores writes
// it, with the parts of it that are secret and some that are not.
type signedLink struct {
	store string
	link  string
	// secrets must never be shown; each survives URL-encoding unchanged.
	secrets []string
	// kept are parameters that help a diagnosis and stay in the raw link.
	kept []string
}

var signedLinks = []signedLink{
	{
		store: "AWS S3, signature version 4 with a session token",
		link: "https://mintlify-exports.s3.us-east-1.amazonaws.com/se_1/bundle.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
			"&X-Amz-Credential=ASIAY34FZKBOKMUTVV7A%2F20261121%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261121T090000Z" +
			"&X-Amz-Expires=3600&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr%2F%2F%2F%2F%2FwEaCXVzLWVhc3QtMSJHMEUCIQDx" +
			"&X-Amz-SignedHeaders=host&X-Amz-Signature=9f1a6e0c3b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7",
		secrets: []string{"ASIAY34FZKBOKMUTVV7A", "IQoJb3JpZ2luX2VjEJr", "wEaCXVzLWVhc3QtMSJHMEUCIQDx", "9f1a6e0c3b2d4e5f6071"},
		kept:    []string{"X-Amz-Expires=3600", "X-Amz-Date=20261121T090000Z", "X-Amz-Signature=REDACTED"},
	},
	{
		store: "AWS S3, legacy signature version 2",
		link: "https://mintlify-exports.s3.amazonaws.com/se_1/bundle.tar.gz?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE" +
			"&Expires=1795338000&Signature=vjbyPxybdZaNmGa%2ByT272YEAiv4%3D",
		secrets: []string{"AKIAIOSFODNN7EXAMPLE", "vjbyPxybdZaNmGa", "yT272YEAiv4"},
		kept:    []string{"Expires=1795338000", "Signature=REDACTED"},
	},
	{
		store: "Google Cloud Storage, V4",
		link: "https://storage.googleapis.com/mintlify-exports/se_1/bundle.tar.gz?X-Goog-Algorithm=GOOG4-RSA-SHA256" +
			"&X-Goog-Credential=exporter%40mintlify-prod.iam.gserviceaccount.com%2F20261121%2Fauto%2Fstorage%2Fgoog4_request" +
			"&X-Goog-Date=20261121T090000Z&X-Goog-Expires=3600&X-Goog-SignedHeaders=host" +
			"&X-Goog-Signature=5b8e0a7d2c9f41e3b6a8d0c2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8e0f2",
		secrets: []string{"mintlify-prod.iam.gserviceaccount.com", "5b8e0a7d2c9f41e3b6a8"},
		kept:    []string{"X-Goog-Expires=3600", "X-Goog-Signature=REDACTED"},
	},
	{
		store: "Google Cloud Storage, V2",
		link: "https://storage.googleapis.com/mintlify-exports/se_1/bundle.tar.gz?GoogleAccessId=exporter@mintlify-prod.iam.gserviceaccount.com" +
			"&Expires=1795338000&Signature=BJ7fOmA%2Fn5aQ2Wdg%2BqX1rT0vLk8%3D",
		secrets: []string{"mintlify-prod.iam.gserviceaccount.com", "BJ7fOmA", "qX1rT0vLk8"},
		kept:    []string{"Expires=1795338000", "GoogleAccessId=REDACTED"},
	},
	{
		store: "Azure Blob Storage, user delegation SAS",
		link: "https://mintlifyexports.blob.core.windows.net/bundles/se_1/bundle.tar.gz?sp=r&st=2026-11-21T09:00:00Z" +
			"&se=2026-11-21T10:00:00Z&skoid=4d2a1c3b-9e8f-4a7b-8c6d-5e4f3a2b1c0d&sktid=72f988bf-86f1-41af-91ab-2d7cd011db47" +
			"&skt=2026-11-21T09:00:00Z&ske=2026-11-21T10:00:00Z&sks=b&skv=2022-11-02&spr=https&sv=2022-11-02&sr=b" +
			"&sig=K7Q9y2c%2B3F0aZ1lJ8mVqHk5Xn6pR4tW2uE0sD9fG1hI%3D",
		secrets: []string{"4d2a1c3b-9e8f", "72f988bf-86f1", "K7Q9y2c", "3F0aZ1lJ8mVqHk5Xn6pR4tW2uE0sD9fG1hI"},
		kept:    []string{"sp=r", "se=2026-11-21T10:00:00Z", "sv=2022-11-02", "sig=REDACTED"},
	},
	{
		store: "CloudFront, canned policy",
		link: "https://d111111abcdef8.cloudfront.net/se_1/bundle.tar.gz?Expires=1795338000" +
			"&Signature=nitfHRCrtziwO2HwPfWw~yYDhUF5EwRunQA-j19DzZrvDh6hQ73lDx~-ar3UocvvRQVw6EkC~GdpGQyyOSKQim-TxAnW7d8F5Kkai9HVx0FIu" +
			"&Key-Pair-Id=K2JCJMDEHXQW5F",
		secrets: []string{"nitfHRCrtziwO2HwPfWw", "GdpGQyyOSKQim", "K2JCJMDEHXQW5F"},
		kept:    []string{"Expires=1795338000", "Key-Pair-Id=REDACTED"},
	},
	{
		store: "CloudFront, custom policy",
		link: "https://d111111abcdef8.cloudfront.net/se_1/bundle.tar.gz" +
			"?Policy=eyJTdGF0ZW1lbnQiOlt7IlJlc291cmNlIjoiaHR0cHM6Ly9kMTExMTExYWJjZGVmOC5jbG91ZGZyb250Lm5ldC8qIn1dfQ__" +
			"&Signature=dGhpcyBpcyBhIHNpZ25hdHVyZQ~~&Key-Pair-Id=K2JCJMDEHXQW5F",
		secrets: []string{"eyJTdGF0ZW1lbnQ", "Lm5ldC8qIn1dfQ", "dGhpcyBpcyBhIHNpZ25hdHVyZQ", "K2JCJMDEHXQW5F"},
		kept:    []string{"Policy=REDACTED", "Signature=REDACTED"},
	},
	{
		store: "a bearer token",
		link:  "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJleHBvcnRlciJ9.c2lnbmF0dXJlLWJ5dGVz",
		// Encoded, the dots and the JWT's parts stay as they are.
		secrets: []string{"eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiJleHBvcnRlciJ9", "c2lnbmF0dXJlLWJ5dGVz"},
		kept:    []string{"Authorization: Bearer REDACTED"},
	},
}

// quotings are the ways a server's text may hold a link: as it is, or
// URL-encoded once or twice inside another link's query (a proxy's, a
// login redirect's), with more parameters after it.
var quotings = []struct {
	name  string
	quote func(link string) string
}{
	{"raw", func(link string) string { return "Access denied for " + link + " (request 7F3A)." }},
	{"URL-encoded", func(link string) string {
		return "Forbidden: https://proxy.example.com/fetch?target=" + url.QueryEscape(link) + "&mode=stream"
	}},
	{"URL-encoded twice", func(link string) string {
		return "Forbidden: https://login.example.com/?next=" +
			url.QueryEscape("https://proxy.example.com/fetch?target="+url.QueryEscape(link)+"&mode=stream") + "&x=1"
	}},
	{"in a JSON string", func(link string) string {
		return `{"detail":"` + strings.ReplaceAll(link, "&", `\u0026`) + `"}`
	}},
}

// checkMasked fails when text shows a secret of l, masks nothing, or, for
// the raw link, lacks what must be kept.
func checkMasked(t *testing.T, l signedLink, quoting, text string) {
	t.Helper()
	for _, secret := range l.secrets {
		if strings.Contains(text, secret) {
			t.Errorf("%s, %s: %q shows %q", l.store, quoting, text, secret)
		}
	}
	// A text cut short (serverText) may end before the first secret.
	if !strings.Contains(text, redacted) && !strings.Contains(text, "… (cut from") {
		t.Errorf("%s, %s: %q masks nothing", l.store, quoting, text)
	}
	if quoting != "raw" {
		return
	}
	for _, kept := range l.kept {
		if !strings.Contains(text, kept) {
			t.Errorf("%s: %q lacks %q", l.store, text, kept)
		}
	}
}

// TestSecretsOfEveryStoreAreMasked: the credentials of presigned links of
// S3 (signature versions 4 and 2), Google Cloud Storage (V4 and V2), Azure
// (a user delegation SAS), CloudFront (canned and custom policies) and
// bearer tokens are masked, raw and URL-encoded, wherever a text quotes
// them; the parameters that are not secret stay.
func TestSecretsOfEveryStoreAreMasked(t *testing.T) {
	t.Parallel()
	for _, l := range signedLinks {
		for _, q := range quotings {
			checkMasked(t, l, q.name, maskSecrets(q.quote(l.link), nil))
		}
	}
	for in, want := range map[string]string{
		"no secret here: sigma=1&signatures=2&policy_id=3": "no secret here: sigma=1&signatures=2&policy_id=3",
		"a=1&SIG=abc&b=2":                        "a=1&SIG=REDACTED&b=2",
		"x?X-Amz-Signature%253Dabc%2526y%253D1":  "x?X-Amz-Signature%253DREDACTED%2526y%253D1",
		"Signature=abc, and then words":          "Signature=REDACTED, and then words",
		"Bearer+abc&x=1 and Bearer%2520def%2526": "Bearer+REDACTED&x=1 and Bearer%2520REDACTED%2526",
	} {
		if got := maskSecrets(in, nil); got != want {
			t.Errorf("maskSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSignedLinksInServerTextAreMasked: the diagnostic path. An API error
// and a storage host's error document that quote a signed link of each
// store, raw or URL-encoded, reach the error masked; so does the log entry
// of the retry the API error caused.
func TestSignedLinksInServerTextAreMasked(t *testing.T) {
	t.Parallel()
	for _, l := range signedLinks {
		for _, q := range quotings {
			t.Run(l.store+", "+q.name, func(t *testing.T) {
				t.Parallel()
				text := q.quote(l.link)
				var logs recordingLogger
				env := fakeapitest.New(t, fakeapitest.Fake(fakeapi.WithFaults(fakeapi.FaultRule{
					Match: fakeapi.IsStatusRequest, Count: 2, Faults: []fakeapi.Fault{
						fakeapi.ServerError(http.StatusBadGateway).WithMessage(text),
						fakeapi.NotFound().WithMessage(text),
					},
				})))
				c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithLogger(&logs))
				if err != nil {
					t.Fatal(err)
				}
				_, err = c.GetStaticExportJob(t.Context(), "se_1")
				if !IsNotFound(err) {
					t.Fatalf("err = %v, want the 404", err)
				}
				checkMasked(t, l, "the API's error", err.Error())
				if !logs.contains("Retrying Mintlify API request") {
					t.Fatalf("the retry was not logged:\n%s", logs.String())
				}
				checkMasked(t, l, "the log", logs.String())

				storage, _, _ := newFake(t, fakeapi.WithHostile(fakeapi.HostileOptions{StorageError: &fakeapi.StorageError{Status: http.StatusForbidden, Code: "AccessDenied", Message: text}}),
					fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
				_, err = storage.DownloadBundle(t.Context(), mustStart(t, storage).JobID, &memorySink{})
				var de *DownloadError
				if !errors.As(err, &de) || !IsForbidden(err) {
					t.Fatalf("err = %v, want the storage host's 403", err)
				}
				checkMasked(t, l, "the storage host's error", err.Error())
			})
		}
	}
}

// TestLogEntriesAreMasked: the logging path. Whatever the client logs (its
// own entries and go-retryablehttp's, whose fields include URLs and
// errors) reaches the Logger with the API key and every signed link's
// credentials masked, in the message and in fields of every kind.
func TestLogEntriesAreMasked(t *testing.T) {
	t.Parallel()
	var logs recordingLogger
	const key = "mint_log_key_0123456789"
	c, err := New(key, WithLogger(&logs))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, l := range signedLinks {
		for _, q := range quotings {
			text := q.quote(l.link)
			u, _ := url.Parse(l.link)
			c.logger.Warn(ctx, "request failed: "+text, map[string]any{
				"error": errors.New(text), "url": u, "reason": text, "attempt": 2, "key": key,
			})
			checkMasked(t, l, q.name, logs.String())
			logs = recordingLogger{}
		}
	}
	leveled := leveledLogger{ctx: ctx, l: c.logger}
	leveled.Error("request failed", "error", fmt.Errorf("GET %s: EOF", signedLinks[2].link), "url", signedLinks[4].link)
	checkMasked(t, signedLinks[2], "go-retryablehttp's error", logs.String())
	checkMasked(t, signedLinks[4], "go-retryablehttp's url", logs.String())
	if strings.Contains(logs.String(), key) {
		t.Errorf("the API key was logged:\n%s", logs.String())
	}
}
