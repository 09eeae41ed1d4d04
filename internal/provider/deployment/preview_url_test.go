package deployment

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestPreviewURLIsHTTPS: an https address is kept as it is; any other is
// refused with a warning that names the preview and shows the host
// escaped, never a control or bidirectional character as itself.
func TestPreviewURLIsHTTPS(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		link, want, host string
	}{
		{"https://proj-x.mintlify.app", "https://proj-x.mintlify.app", ""},
		{"", "", ""},
		{"http://proj-x.mintlify.app", "", `(host "proj-x.mintlify.app")`},
		{"http://evil\u202egpj.example\x1b[31m.com/", "", `(host "evil\u202egpj.example\x1b[31m.com")`},
		{"ftp://files.example.com/x", "", `(host "files.example.com")`},
		{"http://user:secret@bad\x7fhost.example.com?sig=abc", "", `(host "bad\x7fhost.example.com")`},
		{"/relative/only", "", "(host none)"},
	} {
		got, warning := previewURL(tc.link, "6650f1c2a0b1c2d300000001", "proj_test", "feature/new-api")
		if got != tc.want {
			t.Errorf("%q: stored %q, want %q", tc.link, got, tc.want)
		}
		if tc.host == "" {
			if warning != nil {
				t.Errorf("%q: a warning: %s", tc.link, warning.Detail())
			}
			continue
		}
		if warning == nil {
			t.Errorf("%q: no warning", tc.link)
			continue
		}
		text := warning.Summary() + " " + warning.Detail()
		for _, want := range []string{"Unencrypted Preview URL Refused", `branch "feature/new-api"`,
			"deployment 6650f1c2a0b1c2d300000001 of project proj_test", "not an https URL " + tc.host, "`preview_url` is null"} {
			if !strings.Contains(text, want) {
				t.Errorf("%q: the warning does not say %s:\n%s", tc.link, want, text)
			}
		}
		if strings.ContainsAny(text, "\u202e\x1b\x7f") || strings.Contains(text, "secret") || strings.Contains(text, "sig=") {
			t.Errorf("%q: the warning shows a control character: %q", tc.link, text)
		}
	}
}

// TestAccPreviewDeployment_plainHTTPAddressRefused: an API that gives a
// plain http preview address: the apply succeeds with a warning that names
// the host, and `preview_url` is null in state.
func TestAccPreviewDeployment_plainHTTPAddressRefused(t *testing.T) {
	t.Parallel()
	plain := func(fake http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			fake.ServeHTTP(rec, r)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(bytes.ReplaceAll(rec.Body.Bytes(), []byte(`"https://`), []byte(`"http://`)))
		})
	}
	env := providertest.NewTestEnvWithHandler(t, plain)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(previewConfig(previewBranch, "")))
	out := strings.Join(strings.Fields(cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false").Output), " ")
	host := fakeapi.PreviewURL("proj_test", previewBranch)[len("https://"):]
	for _, want := range []string{"Warning: Unencrypted Preview URL Refused", `(host "` + host + `")`, "`preview_url` is null"} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply does not say %q:\n%s", want, out)
		}
	}
	if got, ok := cli.Instance(previewAddr).Attrs["preview_url"]; !ok || got != nil {
		t.Errorf("preview_url in state = %v, want null", got)
	}
}
