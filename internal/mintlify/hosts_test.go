package mintlify

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// A host that passes for another: a right-to-left override (exp‮moc.elpmaxe
// reads as another name), a C1 control, a Cyrillic letter.
const (
	overriddenHost = "ev\u202elpmaxe.com"
	c1Host         = "stor\u0085age.example.com"
	lookalikeHost  = "\u0430pple.example.com"
)

func TestShowHost(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]string{
		"storage.example.com:8443": "storage.example.com:8443",
		"[::1]:8443":               "[::1]:8443",
		overriddenHost:             `ev\u202elpmaxe.com`,
		c1Host:                     `stor\u0085age.example.com`,
		lookalikeHost:              `\u0430pple.example.com`,
		"b\u00fccher.example":      `b\u00fccher.example`,
		"a\x1b[31mb\xff.example":   `a\x1b[31mb\xff.example`,
		`back\slash`:               `back\\slash`,
		strings.Repeat("a", 300):   strings.Repeat("a", maxShownHost) + "… (cut from 300 characters)",
	} {
		if got := ShowHost(host); got != want {
			t.Errorf("ShowHost(%q) = %q, want %q", host, got, want)
		}
	}
}

// checkPrintable fails when text holds anything but printable ASCII (and
// the ellipsis of a cut).
func checkPrintable(t *testing.T, what, text string) {
	t.Helper()
	if strings.ContainsFunc(text, func(r rune) bool { return (r < ' ' || r > '~') && r != '…' }) {
		t.Errorf("%s holds a character that is not printable ASCII: %q", what, text)
	}
}

// TestBundleLinksNameTheirHostInASCII: a bundle link whose host is not an
// IP address or an ASCII DNS name (IDNA A-labels) is refused, with the
// host escaped in the error, and nothing is downloaded from it; an A-label
// and an IP address are accepted.
func TestBundleLinksNameTheirHostInASCII(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, base, shown string
	}{
		{"a right-to-left override", "https://" + overriddenHost, `ev\u202elpmaxe.com`},
		{"a C1 control, percent-encoded", "https://stor%C2%85age.example.com", `stor\u0085age.example.com`},
		{"a Cyrillic letter", "https://" + lookalikeHost + ":8443", `\u0430pple.example.com:8443`},
		{"an internationalized name in Unicode", "https://b\u00fccher.example", `b\u00fccher.example`},
		{"an A-label", "https://xn--bcher-kva.example", ""},
		{"an IPv6 address", "https://[2001:db8::1]:8443", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, fake, _ := newFake(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{DownloadHost: tc.base}),
				fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
			job := mustStart(t, c)
			b, err := c.GenerateBundle(t.Context(), job.JobID)
			if tc.shown == "" {
				if err != nil || !strings.HasPrefix(b.BundleURL, tc.base+"/") {
					t.Fatalf("GenerateBundle = %+v, %v; want a link under %s", b, err, tc.base)
				}
				return
			}
			var unsafe *UnsafeLinkError
			if !errors.As(err, &unsafe) || !unsafe.NotASCII || b != nil {
				t.Fatalf("GenerateBundle = %+v, %v; want an *UnsafeLinkError for a host that is not ASCII", b, err)
			}
			want := "refused the bundle link of static export job " + job.JobID + ": its host " + tc.shown +
				" is not an IP address or a DNS name in ASCII"
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "IDNA A-labels, xn--") {
				t.Errorf("error %q does not say %q, nor how to write such a host", err, want)
			}
			checkPrintable(t, "the refusal", err.Error())
			if _, err := c.DownloadBundle(t.Context(), job.JobID, &memorySink{}); !errors.As(err, &unsafe) {
				t.Errorf("DownloadBundle: %v, want the same refusal", err)
			}
			if n := fake.Count(http.MethodGet, "/bundles/"); n != 0 {
				t.Errorf("%d downloads reached the storage host, want 0", n)
			}
		})
	}
}

// TestRedirectHostsAreEscaped: the host a redirect points at reaches an
// error escaped: in the refusal of a downgrade to plain http, and in the
// certificate error of an https host that is not the one the certificate
// names (the error net/http writes quotes the host).
func TestRedirectHostsAreEscaped(t *testing.T) {
	t.Parallel()
	t.Run("downgrade", func(t *testing.T) {
		t.Parallel()
		api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://"+overriddenHost+"/v2/agent/proj/job/aj_1", http.StatusTemporaryRedirect)
		}))
		t.Cleanup(api.Close)
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(api.URL), WithHTTPClient(api.Client()))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.GetAgentJob(t.Context(), "proj", "aj_1")
		var downgrade *DowngradeError
		if !errors.As(err, &downgrade) || downgrade.To != `ev\u202elpmaxe.com` {
			t.Fatalf("err = %v, want a *DowngradeError to the escaped host", err)
		}
		if want := `to http://ev\u202elpmaxe.com: following it`; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
		checkPrintable(t, "the refusal", err.Error())
	})
	t.Run("certificate of another host", func(t *testing.T) {
		t.Parallel()
		env := fakeapitest.New(t, fakeapitest.TLS(), fakeapitest.Fake(fakeapi.WithHostile(fakeapi.HostileOptions{DownloadRedirect: "https://" + c1Host}),
			fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }})))
		c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithHTTPClient(env.HTTPClient))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.DownloadBundle(t.Context(), mustStart(t, c).JobID, &memorySink{})
		var de *DownloadError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), `stor\u0085age.example.com`) {
			t.Fatalf("err = %v, want a *DownloadError naming the escaped host", err)
		}
		checkPrintable(t, "the download error", err.Error())
		checkPrintable(t, "the transport error", fmt.Sprint(errors.Unwrap(de)))
	})
}
