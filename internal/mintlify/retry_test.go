package mintlify

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// newUncheckedFake is newFake without the contract check, for faults that
// break the answer itself (the checker would rightly report a truncated or
// malformed body).
func newUncheckedFake(t *testing.T, opts ...fakeapi.Option) (*Client, *fakeapi.Server, *clock.Fake) {
	t.Helper()
	env := fakeapitest.New(t, fakeapitest.Unchecked(), fakeapitest.Fake(opts...))
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock))
	if err != nil {
		t.Fatal(err)
	}
	return c, env.Fake, env.Clock
}

// faultyFake serves a fake whose matching requests get faults, through the
// contract check unless the faults break bodies.
func faultyFake(t *testing.T, match func(*http.Request) bool, faults ...fakeapi.Fault) (*Client, *fakeapi.Server, *clock.Fake) {
	t.Helper()
	opt := fakeapi.WithFaults(fakeapi.FaultRule{Match: match, Count: len(faults), Faults: faults})
	for _, f := range faults {
		if f.Kind == fakeapi.FaultTruncate || f.Kind == fakeapi.FaultMalformed {
			return newUncheckedFake(t, opt)
		}
	}
	return newFake(t, opt)
}

// transientFaults are the failures an idempotent call rides out.
var transientFaults = []struct {
	name  string
	fault fakeapi.Fault
}{
	{"429", fakeapi.TooManyRequests(3 * time.Second)},
	{"429 with an HTTP date", fakeapi.TooManyRequests(3 * time.Second).WithRetryAfterDate()},
	{"500", fakeapi.ServerError(http.StatusInternalServerError)},
	{"502", fakeapi.ServerError(http.StatusBadGateway)},
	{"503", fakeapi.ServerError(http.StatusServiceUnavailable)},
	{"504", fakeapi.ServerError(http.StatusGatewayTimeout)},
	{"dropped connection", fakeapi.DropConnection()},
	{"truncated body", fakeapi.TruncatedBody()},
	{"malformed body", fakeapi.MalformedBody()},
}

func TestIdempotentCallsSurviveTransientFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range transientFaults {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Three in a row on every idempotent operation.
			burst := []fakeapi.Fault{tc.fault, tc.fault, tc.fault}
			c, fake, _ := faultyFake(t, fakeapi.AnyOf(fakeapi.IsStatusRequest, fakeapi.IsBundleRequest, fakeapi.IsAgentJobRequest), burst...)
			fake.AddAgentJob("proj", fakeapi.AgentJobSeed{ID: "aj_1", Repository: "https://github.com/acme/docs"})
			ctx := t.Context()

			job, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.WaitForStaticExport(ctx, job.JobID); err != nil {
				t.Fatalf("wait: %v", err)
			}
			if _, err := c.GenerateBundle(ctx, job.JobID); err != nil {
				t.Fatalf("bundle: %v", err)
			}
			if _, err := c.GetAgentJob(ctx, "proj", "aj_1"); err != nil {
				t.Fatalf("agent job: %v", err)
			}
			if got := fake.FaultsInjected(""); got != 3 {
				t.Errorf("faults injected = %d, want 3", got)
			}
			if got := fake.ExportJobsStarted(); got != 1 {
				t.Errorf("jobs started = %d, want exactly 1", got)
			}
		})
	}
}

func TestStartRetriesOnlyWhenNothingStarted(t *testing.T) {
	t.Parallel()
	t.Run("429 burst", func(t *testing.T) {
		t.Parallel()
		c, fake, clk := faultyFake(t, fakeapi.IsStartRequest,
			fakeapi.TooManyRequests(2*time.Second), fakeapi.TooManyRequests(2*time.Second), fakeapi.TooManyRequests(2*time.Second))
		if _, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"}); err != nil {
			t.Fatal(err)
		}
		if got := fake.Count(http.MethodPost, "/v1/static-export/jobs"); got != 4 {
			t.Errorf("start requests = %d, want 4", got)
		}
		if got := fake.ExportJobsStarted(); got != 1 {
			t.Errorf("jobs started = %d, want 1", got)
		}
		if waited := clk.Now().Sub(start); waited < 6*time.Second {
			t.Errorf("waited %s, want at least the 3×2s the API asked for", waited)
		}
	})
	t.Run("refused connection", func(t *testing.T) {
		t.Parallel()
		c, fake := refusingClient(t, 2)
		if _, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"}); err != nil {
			t.Fatal(err)
		}
		if got := fake.ExportJobsStarted(); got != 1 {
			t.Errorf("jobs started = %d, want 1", got)
		}
	})
	t.Run("refused until the retries run out", func(t *testing.T) {
		t.Parallel()
		c, fake := refusingClient(t, 100)
		_, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
		var se *StartError
		if !errors.As(err, &se) || se.MayHaveStarted || Attempts(err) != DefaultMaxRetries+1 {
			t.Fatalf("err = %v, want a StartError after %d attempts that says nothing started", err, DefaultMaxRetries+1)
		}
		if !strings.Contains(err.Error(), "no static export job was started") || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("error = %q", err)
		}
		if got := fake.ExportJobsStarted(); got != 0 {
			t.Errorf("jobs started = %d, want 0", got)
		}
	})
}

// refusingClient returns a client whose first refusals connections are
// refused by the kernel (they go to a closed port) and whose later ones
// reach a fake.
func refusingClient(t *testing.T, refusals int) (*Client, *fakeapi.Server) {
	t.Helper()
	env := fakeapitest.New(t, fakeapitest.Unchecked())
	fake, clk, addr := env.Fake, env.Clock, strings.TrimPrefix(env.URL, "http://")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	_ = ln.Close()
	var mu sync.Mutex
	dials := 0
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		mu.Lock()
		dials++
		to := addr
		if dials <= refusals {
			to = closed
		}
		mu.Unlock()
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(clk), WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	return c, fake
}

func TestStartNeverRetriesWhenAJobMayHaveStarted(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault fakeapi.Fault
		// jobs is how many jobs exist afterwards: faults before the handler
		// leave none, faults that break a good answer leave one.
		jobs int
	}{
		{"500", fakeapi.ServerError(http.StatusInternalServerError), 0},
		{"502", fakeapi.ServerError(http.StatusBadGateway), 0},
		{"503", fakeapi.ServerError(http.StatusServiceUnavailable), 0},
		{"504", fakeapi.ServerError(http.StatusGatewayTimeout), 0},
		{"dropped connection", fakeapi.DropConnection(), 0},
		{"truncated body", fakeapi.TruncatedBody(), 1},
		{"malformed body", fakeapi.MalformedBody(), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, fake, _ := faultyFake(t, fakeapi.IsStartRequest, tc.fault)
			_, err := c.StartStaticExport(t.Context(), StartStaticExportRequest{Domain: "docs.example.com"})
			var se *StartError
			if !errors.As(err, &se) || !se.MayHaveStarted || !MayHaveStarted(err) {
				t.Fatalf("err = %v, want a StartError that says a job may have started", err)
			}
			if !strings.Contains(err.Error(), "may have started") {
				t.Errorf("error %q does not say a job may have started", err)
			}
			if got := fake.Count(http.MethodPost, "/v1/static-export/jobs"); got != 1 {
				t.Errorf("start requests = %d, want 1: never retried", got)
			}
			if got := fake.ExportJobsStarted(); got != tc.jobs {
				t.Errorf("jobs started = %d, want %d", got, tc.jobs)
			}
		})
	}
}

func TestPermanentErrorsFailFast(t *testing.T) {
	t.Parallel()
	c, fake, _ := newFake(t)
	disabled, disabledFake, _ := newFake(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Disabled: true}))
	wrongKey, err := New("mint_wrong", WithBaseURL(c.baseURL.String()), WithClock(c.clock))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	running, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		fake   *fakeapi.Server
		call   func() error
		status int
	}{
		{"400 start", fake, func() error {
			_, err := c.StartStaticExport(ctx, StartStaticExportRequest{Domain: "https://docs.example.com"})
			return err
		}, 400},
		{"401 status", fake, func() error { _, err := wrongKey.GetStaticExportJob(ctx, running.JobID); return err }, 401},
		{"401 start", fake, func() error {
			_, err := wrongKey.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
			return err
		}, 401},
		{"403 start", disabledFake, func() error {
			_, err := disabled.StartStaticExport(ctx, StartStaticExportRequest{Domain: "docs.example.com"})
			return err
		}, 403},
		{"404 status", fake, func() error { _, err := c.GetStaticExportJob(ctx, "se_missing"); return err }, 404},
		{"404 agent job", fake, func() error { _, err := c.GetAgentJob(ctx, "proj", "aj_missing"); return err }, 404},
		{"409 bundle", fake, func() error { _, err := c.GenerateBundle(ctx, running.JobID); return err }, 409},
	}
	for _, tc := range cases {
		tc.fake.Reset()
		err := tc.call()
		if StatusCode(err) != tc.status || Attempts(err) != 1 {
			t.Errorf("%s: err = %v, want HTTP %d after 1 attempt", tc.name, err, tc.status)
		}
		if n := len(tc.fake.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1", tc.name, n)
		}
		if MayHaveStarted(err) {
			t.Errorf("%s: %v says a job may have started", tc.name, err)
		}
	}
}
