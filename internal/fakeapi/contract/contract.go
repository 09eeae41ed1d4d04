// Package contract checks HTTP exchanges against the project's own OpenAPI
// description of the Mintlify API (mintlify.openapi.yaml, embedded), which
// a drift test keeps equal to the vendor's published specs. The vendor is
// Mintlify: its OpenAPI files are what "the vendor's" means here and in the
// drift test.
//
// It wraps any http.Handler (in practice the fake in internal/fakeapi) in
// an HTTP test server that validates every request to a described API
// route, and the handler's response to it, against the description.
// Violations are recorded by the handler goroutines and reported by the
// test goroutine. It reads no file: a plain clone runs every check.
//
// This package is test support: imported only by tests, so kin-openapi
// never reaches the provider binary. It must not import internal/fakeapi,
// whose own tests use it.
//
// The rules, beyond what the description says for each operation:
//   - A request the description rejects must not be accepted (status < 400).
//   - A status the description does not list for an operation is allowed
//     only for 401 and 403 (implied by the global bearerAuth security: an
//     admin key may have expired, be limited to an IP allowlist or be
//     read-only, which the vendor documents in its API introduction rather
//     than per operation), 429, 5xx,
//     and 404 on an operation whose path names something (a project, a
//     job) that may not exist, such as creating an agent job in an unknown
//     project; its body must then be JSON matching the Error schema, with a
//     non-empty "error" message.
//   - The statuses of laterStatuses are allowed on their operations with the
//     same Error body: a later revision of the vendor's file documents them
//     (API.md), the file kept beside the checkout not yet.
//   - A 429 may have a plain-text body, on any operation: Mintlify's shared
//     key layer may answer an organization-wide limit so (API.md).
//   - string fields of format "uri" must be absolute URIs.
//   - Requests to routes the description does not have (such as the fake's
//     /bundles/... downloads) pass through unchecked.
package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// descriptionRouter routes requests to the operations of the in-repo
// description. It is built once per test binary (parsing takes a few
// milliseconds, and every test builds a Checker) and shared read-only by
// every Checker.
var descriptionRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := Description()
	if err != nil {
		return nil, err
	}
	// A relative server, so routes match whatever host serves them; the
	// description's paths already carry /v1 or /v2.
	doc.Servers = openapi3.Servers{{URL: ""}}
	doc.SetStringFormatValidator("uri", openapi3.NewCallbackValidator(validateAbsoluteURI))
	rt, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route the in-repo OpenAPI description: %w", err)
	}
	return rt, nil
})

// Checker validates exchanges against the in-repo description and records
// the outcome. It is the lower-level form of Serve, for tests that assert
// on Violations or Covered themselves. One Checker may serve any number of
// handlers, and is safe for concurrent use.
type Checker struct {
	router routers.Router // shared, read-only

	mu         sync.Mutex
	violations []string
	covered    map[string]map[int]bool // operation key -> statuses seen and valid
}

// New returns a Checker with nothing recorded. The description is embedded,
// so New fails t (t.Fatalf) only if it does not parse, which its own tests
// rule out.
func New(t testing.TB) *Checker {
	t.Helper()
	rt, err := descriptionRouter()
	if err != nil {
		t.Fatalf("contract: %v", err)
	}
	return &Checker{router: rt, covered: make(map[string]map[int]bool)}
}

func validateAbsoluteURI(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URI", s)
	}
	return nil
}

// Serve starts an httptest server for h. Every exchange with an API route of
// the in-repo description is validated (request and response); violations
// fail t at cleanup (t.Errorf from the test goroutine in a t.Cleanup, never
// from the handler). Non-API routes (like the fake's /bundles/... downloads)
// pass through unchecked. Returns the server URL (no trailing slash). The
// server is closed at cleanup.
func Serve(t testing.TB, h http.Handler) string {
	t.Helper()
	return reporting(t).Serve(t, h)
}

// ServeTLS is Serve over TLS. It returns the started server: its Client()
// trusts the server's certificate, which is valid for 127.0.0.1, ::1 and
// example.com, so a test can give the API a name that is not loopback.
func ServeTLS(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	c := reporting(t)
	srv := httptest.NewTLSServer(c.wrap(h))
	t.Cleanup(srv.Close)
	return srv
}

// reporting returns a Checker whose violations fail t at cleanup. The
// cleanup is registered before the server's, so it runs after the server
// has closed and every in-flight exchange has been recorded.
func reporting(t testing.TB) *Checker {
	t.Helper()
	c := New(t)
	t.Cleanup(func() {
		for _, v := range c.Violations() {
			t.Errorf("contract violation: %s", v)
		}
	})
	return c
}

// Serve starts an httptest server for h behind the check and returns its
// URL (no trailing slash). The server is closed at cleanup. Unlike the
// package-level Serve, it only records: the caller asserts on Violations.
func (c *Checker) Serve(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(c.wrap(h))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Violations returns every violation recorded so far, in order.
func (c *Checker) Violations() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.violations)
}

// Covered returns, for each operation key ("POST /v1/static-export/jobs",
// "GET /v2/agent/{projectId}/job/{id}"), the sorted statuses it answered
// with in exchanges that honoured the description.
func (c *Checker) Covered() map[string][]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string][]int, len(c.covered))
	for op, statuses := range c.covered {
		out[op] = slices.Sorted(maps.Keys(statuses))
	}
	return out
}

// wrap validates each request to a described route and next's response to it.
// Other requests (downloads, unknown routes) pass through.
func (c *Checker) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params := c.findRoute(r)
		if route == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			c.violate("%s %s: read request body: %v", r.Method, r.URL, err)
		}
		in := requestInput(r, body, route, params)
		reqErr := openapi3filter.ValidateRequest(in.Request.Context(), in)

		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		if r.Context().Err() != nil {
			// The client went away (its timeout, a cancel) before the
			// handler answered: no response was exchanged to check.
			return
		}
		resp := rec.Result()
		respBody := rec.Body.Bytes()
		c.check(in, reqErr, resp.StatusCode, resp.Header, respBody)

		maps.Copy(w.Header(), resp.Header)
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(respBody)
	})
}

func (c *Checker) findRoute(r *http.Request) (*routers.Route, map[string]string) {
	route, params, err := c.router.FindRoute(r)
	if err != nil {
		return nil, nil
	}
	return route, params
}

// requestInput builds the validation input for r, on a copy of the request
// so the handler still gets the body.
func requestInput(r *http.Request, body []byte, route *routers.Route, params map[string]string) *openapi3filter.RequestValidationInput {
	req := r.Clone(context.WithoutCancel(r.Context()))
	req.Body = io.NopCloser(bytes.NewReader(body))
	return &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options:    validationOptions(route.Spec),
	}
}

func validationOptions(doc *openapi3.T) *openapi3filter.Options {
	return &openapi3filter.Options{
		// Auth is the handler's own job; the description only says a bearer key exists.
		AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
		IncludeResponseStatus:   true,
		MultiError:              true,
		SchemaValidationOptions: doc.GetSchemaValidationOptions(),
	}
}

// check records whether one exchange honours the description.
func (c *Checker) check(in *openapi3filter.RequestValidationInput, reqErr error, status int, header http.Header, body []byte) {
	route := in.Route
	op := operationKey(route)
	var problem error
	switch {
	case reqErr != nil && status < 400:
		problem = fmt.Errorf("the description rejects the request (%v) but the handler accepted it", reqErr)
	case status == http.StatusTooManyRequests && isPlainText(header):
		if len(bytes.TrimSpace(body)) == 0 {
			problem = errors.New("a plain-text 429 without a text")
		}
	case route.Operation.Responses.Status(status) != nil:
		problem = openapi3filter.ValidateResponse(in.Request.Context(), &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 status,
			Header:                 header,
			Body:                   io.NopCloser(bytes.NewReader(body)),
			Options:                in.Options,
		})
	case status == http.StatusUnauthorized || status == http.StatusForbidden,
		status == http.StatusTooManyRequests || status >= 500,
		status == http.StatusNotFound && len(in.PathParams) > 0,
		slices.Contains(laterStatuses[op], status):
		problem = checkErrorBody(route.Spec, header, body)
	default:
		problem = fmt.Errorf("status %d is not documented for this operation", status)
	}
	if problem != nil {
		c.violate("%s (%s %s) answered %d %s: %v", op, in.Request.Method, in.Request.URL.Path, status, body, problem)
		return
	}
	c.cover(op, status)
}

// laterStatuses are statuses that a later revision of the vendor's next
// static export file documents (API.md, "Static export, the next
// contract"): 400 for an unsupported basePath or a malformed project id,
// 404 for a project that does not exist or is not the key's. The drift
// test compares the description with the revision kept beside the
// checkout, which lacks them, so they are allowed here instead.
var laterStatuses = map[string][]int{
	"POST /v1/static-export/{projectId}/jobs":        {http.StatusBadRequest, http.StatusNotFound},
	"GET /v1/static-export/{projectId}/jobs/{jobId}": {http.StatusBadRequest},
}

// isPlainText reports whether header announces a text/plain body.
func isPlainText(header http.Header) bool {
	mediaType, _, err := mime.ParseMediaType(header.Get("Content-Type"))
	return err == nil && mediaType == "text/plain"
}

// checkErrorBody checks a response whose status the operation does not
// list (but the API may send anyway): a JSON body matching the description's Error
// schema, with a non-empty message.
func checkErrorBody(doc *openapi3.T, header http.Header, body []byte) error {
	mediaType, _, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return fmt.Errorf("content type %q is not application/json", header.Get("Content-Type"))
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("body is not JSON: %w", err)
	}
	schema := doc.Components.Schemas["Error"]
	if schema == nil || schema.Value == nil {
		return errors.New("the description has no Error schema")
	}
	if err := schema.Value.VisitJSON(v, doc.GetSchemaValidationOptions()...); err != nil {
		return fmt.Errorf("body does not match the Error schema: %w", err)
	}
	if obj, _ := v.(map[string]any); obj["error"] == nil || obj["error"] == "" {
		return errors.New(`body has no "error" message`)
	}
	return nil
}

// operationKey names a route's operation as "METHOD /path", the path as
// the description spells it ("GET /v1/static-export/jobs/{jobId}").
func operationKey(route *routers.Route) string {
	return route.Method + " " + route.Path
}

func (c *Checker) violate(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.violations = append(c.violations, fmt.Sprintf(format, args...))
}

func (c *Checker) cover(op string, status int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.covered[op] == nil {
		c.covered[op] = make(map[int]bool)
	}
	c.covered[op][status] = true
}
