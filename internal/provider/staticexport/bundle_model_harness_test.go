package staticexport

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// What stands around the provider in the model-based test: loggingServer
// keeps the provider's logs, and modelHandler, in front of the fake API,
// keeps the link signatures it hands out and holds a request for Ctrl-C;
// the secret invariant searches both, and the CLI's output.

// loggingServer sends the provider's logs, at TRACE, to out: the ones a
// user would see with TF_LOG=TRACE.
type loggingServer struct {
	tfprotov6.ProviderServer
	out io.Writer
}

func (l loggingServer) logged(ctx context.Context) context.Context {
	return tflogtest.RootLogger(ctx, l.out)
}

func (l loggingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return l.ProviderServer.ConfigureProvider(l.logged(ctx), req)
}

func (l loggingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return l.ProviderServer.ReadResource(l.logged(ctx), req)
}

func (l loggingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return l.ProviderServer.PlanResourceChange(l.logged(ctx), req)
}

func (l loggingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return l.ProviderServer.ApplyResourceChange(l.logged(ctx), req)
}

func (l loggingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return l.ProviderServer.ImportResourceState(l.logged(ctx), req)
}

// modelHandler stands in front of the fake: it keeps every link signature
// the API hands out, for the secret checks, and can hold one request until
// the client gives up on it, so that a test can press Ctrl-C mid-apply.
type modelHandler struct {
	fake *fakeapi.Server

	mu         sync.Mutex
	signatures map[string]bool
	held       *heldRequest
}

type heldRequest struct {
	match func(*http.Request) bool
	// effect lets the API act on the request before it is held.
	effect bool
	// holding is closed once a request is held, answered once the hold
	// is released.
	holding, answered chan struct{}
	taken             bool
}

var signatureParam = regexp.MustCompile(`X-Amz-Signature=([0-9a-f]+)`)

func (h *modelHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	if held := h.take(r); held != nil {
		if held.effect {
			h.fake.ServeHTTP(rec, r)
		}
		close(held.holding)
		select {
		case <-r.Context().Done():
			return
		case <-held.answered:
		case <-time.After(time.Minute): // never expected: the test would wait for nothing
		}
	}
	if rec.Code == http.StatusOK && rec.Body.Len() == 0 { // not answered yet
		h.fake.ServeHTTP(rec, r)
	}
	if fakeapi.IsBundleRequest(r) {
		h.mu.Lock()
		for _, sig := range signatureParam.FindAllStringSubmatch(rec.Body.String(), -1) {
			h.signatures[sig[1]] = true
		}
		h.mu.Unlock()
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// hold makes the next request that match selects wait until its client
// gives up; the returned channel is closed once it waits.
func (h *modelHandler) hold(match func(*http.Request) bool, effect bool) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = &heldRequest{match: match, effect: effect, holding: make(chan struct{}), answered: make(chan struct{})}
	return h.held.holding
}

// release answers the held request, if any, and holds no more.
func (h *modelHandler) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held != nil {
		close(h.held.answered)
		h.held = nil
	}
}

func (h *modelHandler) take(r *http.Request) *heldRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held == nil || h.held.taken || !h.held.match(r) {
		return nil
	}
	h.held.taken = true
	return h.held
}

func (h *modelHandler) allSignatures() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.signatures))
	for s := range h.signatures {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}
