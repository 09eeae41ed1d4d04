package fakeapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// testStart is where every test's fake clock begins.
var testStart = fakeapitest.Start

// noKey sends a request without an Authorization header.
const noKey = ""

// harness is a fake API behind a real HTTP server (fakeapitest), on a
// clock that moves only when the test moves it.
type harness struct {
	fake  *fakeapi.Server
	clock *clock.Fake
	url   string
}

// newHarness starts a fake server whose every API exchange is checked
// against the OpenAPI specs; a violation fails the test at cleanup.
func newHarness(t *testing.T, opts ...fakeapi.Option) *harness {
	t.Helper()
	return newHarnessWith(t, fakeapitest.Fake(opts...))
}

// newUncheckedHarness is newHarness without the spec check, for behaviour
// the spec does not document.
func newUncheckedHarness(t *testing.T, opts ...fakeapi.Option) *harness {
	t.Helper()
	return newHarnessWith(t, fakeapitest.Unchecked(), fakeapitest.Fake(opts...))
}

// newHarnessWith serves the fake as opts say, on a manual clock.
func newHarnessWith(t *testing.T, opts ...fakeapitest.Option) *harness {
	t.Helper()
	env := fakeapitest.New(t, append([]fakeapitest.Option{fakeapitest.ManualClock()}, opts...)...)
	return &harness{fake: env.Fake, clock: env.Clock, url: env.URL}
}

// response is a fully read HTTP response.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request with the given bearer key (noKey for none). A body of
// type string or []byte is sent as is, anything else as JSON.
func (h *harness) do(t *testing.T, method, path, key string, body any) response {
	t.Helper()
	return doURL(t, method, h.url+path, key, body)
}

func doURL(t *testing.T, method, url, key string, body any) response {
	t.Helper()
	var payload []byte
	switch b := body.(type) {
	case nil:
	case string:
		payload = []byte(b)
	case []byte:
		payload = b
	default:
		var err error
		if payload, err = json.Marshal(b); err != nil {
			t.Fatalf("encode request body: %v", err)
		}
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(payload))
	if err != nil {
		t.Fatalf("new request %s %s: %v", method, url, err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != noKey {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("User-Agent", "fakeapi-test/1.0")
	return send(t, req)
}

// send sends req and reads the whole response.
func send(t *testing.T, req *http.Request) response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s %s: %v", req.Method, req.URL, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: data}
}

// decode unmarshals the body into a fresh T, failing the test on error.
func decode[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decode %T from %q: %v", v, r.body, err)
	}
	return v
}

// wantStatus fails the test unless the response has the given status.
func (r response) wantStatus(t *testing.T, status int) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body: %s", r.status, status, r.body)
	}
	return r
}

// wantError checks the status, the JSON content type and the exact error
// message.
func (r response) wantError(t *testing.T, status int, message string) {
	t.Helper()
	r.wantStatus(t, status)
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	if got := decode[fakeapi.ErrorBody](t, r).Error; got != message {
		t.Errorf("error = %q, want %q", got, message)
	}
}

// startJob starts an export job for domain and returns it.
func (h *harness) startJob(t *testing.T, body any) fakeapi.JobJSON {
	t.Helper()
	return decode[fakeapi.JobJSON](t, h.do(t, http.MethodPost, "/v1/static-export/jobs", fakeapi.DefaultAPIKey, body).wantStatus(t, http.StatusAccepted))
}

// getJob returns the job's current state.
func (h *harness) getJob(t *testing.T, id string) fakeapi.JobJSON {
	t.Helper()
	return decode[fakeapi.JobJSON](t, h.do(t, http.MethodGet, "/v1/static-export/jobs/"+id, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK))
}

// bundle generates a bundle link for a completed job.
func (h *harness) bundle(t *testing.T, id string) fakeapi.BundleJSON {
	t.Helper()
	path := "/v1/static-export/jobs/" + id + "/bundle"
	return decode[fakeapi.BundleJSON](t, h.do(t, http.MethodPost, path, fakeapi.DefaultAPIKey, nil).wantStatus(t, http.StatusOK))
}

// ts formats a test instant the way the API does.
func ts(offset time.Duration) string {
	return fakeapi.FormatTime(testStart.Add(offset))
}

func ptr[T any](v T) *T { return &v }
