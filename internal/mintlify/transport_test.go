package mintlify

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestAuthorizationStaysOnTheAPIHost(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]string{}
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name] = r.Header.Get("Authorization")
			seen[name+" referer"] = r.Header.Get("Referer")
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, `{"id":"aj_1","status":"completed","source":{"repository":"https://github.com/acme/docs","ref":null},"model":"sonnet","prLink":null,"createdAt":"2026-01-01T00:00:00Z","archivedAt":null}`)
		}
	}
	other := httptest.NewServer(record("other host"))
	t.Cleanup(other.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/agent/proj/job/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/moved", record("same host"))
	mux.HandleFunc("/v2/agent/proj/job/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/moved", http.StatusTemporaryRedirect)
	})
	api := httptest.NewServer(mux)
	t.Cleanup(api.Close)

	var logs recordingLogger
	c, err := New("mint_secret_key", WithBaseURL(api.URL), WithLogger(&logs))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"same", "away"} {
		if _, err := c.GetAgentJob(t.Context(), "proj", id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	if seen["same host"] != "Bearer mint_secret_key" {
		t.Errorf("same-host redirect: Authorization = %q, want the key", seen["same host"])
	}
	if seen["other host"] != "" {
		t.Errorf("cross-host redirect forwarded Authorization %q", seen["other host"])
	}
	for _, name := range []string{"same host", "other host"} {
		if ref := seen[name+" referer"]; ref != "" {
			t.Errorf("%s redirect sent Referer %q", name, ref)
		}
	}
	if !logs.contains("redirected to another host") {
		t.Errorf("the stripped header was not logged:\n%s", logs.String())
	}
}

func TestCheckBaseURL(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{
		"https://api.mintlify.com", "https://proxy.example.com/mintlify/", "http://127.0.0.1:8080",
		"http://127.8.9.10", "http://localhost:3000/api", "http://LOCALHOST", "http://[::1]:9000",
		"https://proxy.example.com/v10", "https://proxy.example.com/mintlify-v1",
	} {
		if err := CheckBaseURL(ok); err != nil {
			t.Errorf("CheckBaseURL(%q) = %v, want nil", ok, err)
		}
	}
	for in, want := range map[string]string{
		"api.mintlify.com":                      "is not an absolute URL",
		"localhost:8080":                        "is not an absolute URL",
		"ftp://api.mintlify.com":                `uses the scheme "ftp"`,
		"https://":                              "has no host",
		"https://user:hunter2@api.mintlify.com": "holds a user name or password",
		"https://api.mintlify.com/?x=1":         "has a query or fragment",
		"https://api.mintlify.com/#top":         "has a query or fragment",
		"http://api.mintlify.com":               "would send the admin API key unencrypted",
		"http://localhost.example.com":          "would send the admin API key unencrypted",
		"http://10.0.0.1":                       "would send the admin API key unencrypted",
		"://":                                   "is not a valid URL",
		"https://api.mintlify.com/v1":           `ends with the API version "/v1", which the provider adds itself (static export calls go to /v1/, agent job calls to /v2/): remove it, such as "https://api.mintlify.com"`,
		"https://api.mintlify.com/v2/":          `ends with the API version "/v2"`,
		"https://proxy.example.com/mintlify/v1": `remove it, such as "https://proxy.example.com/mintlify"`,
	} {
		err := CheckBaseURL(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckBaseURL(%q) = %v, want it to say %q", in, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("CheckBaseURL(%q) repeats the password: %v", in, err)
		}
	}
}
