package mintlify

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// downloadFault replaces the fake's answer to one download: serve is the
// fake itself.
type downloadFault func(w http.ResponseWriter, r *http.Request, serve http.Handler)

// downloadBench is the fake on a virtual clock behind a handler that plays
// faults on its download route (which the fake never faults: it stands in
// for S3) and records every download request.
type downloadBench struct {
	c     *Client
	fake  *fakeapi.Server
	clock *clock.Fake

	mu        sync.Mutex
	faults    []downloadFault // the nth download gets faults[n-1]; nil or missing: served as is
	downloads []*http.Request
	archive   fakeapi.Archive // of every job; set before the job starts
}

func newDownloadBench(t *testing.T, faults []downloadFault, opts ...Option) *downloadBench {
	t.Helper()
	b := &downloadBench{faults: faults, archive: fakeapi.Archive{Size: 2 << 20}}
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/bundles/") {
			b.fake.ServeHTTP(w, r)
			return
		}
		b.mu.Lock()
		b.downloads = append(b.downloads, r.Clone(context.Background()))
		var f downloadFault
		if n := len(b.downloads); n <= len(b.faults) {
			f = b.faults[n-1]
		}
		b.mu.Unlock()
		if f == nil {
			b.fake.ServeHTTP(w, r)
			return
		}
		f(w, r, b.fake)
	})
	env := fakeapitest.New(t, fakeapitest.Handler(func(*fakeapi.Server) http.Handler { return serve }),
		fakeapitest.Fake(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}),
			fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(fakeapi.StartRequest) fakeapi.Archive { return b.archive }})))
	b.fake, b.clock = env.Fake, env.Clock
	var err error
	b.c, err = New(fakeapi.DefaultAPIKey, append([]Option{WithBaseURL(env.URL), WithClock(b.clock), WithUserAgent("test-agent/1.0")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// completedJob starts a job, which completes at once.
func (b *downloadBench) completedJob(t *testing.T) string {
	t.Helper()
	return mustStart(t, b.c).JobID
}

// want fetches a fresh link's archive directly: what a download must yield.
func (b *downloadBench) want(t *testing.T, jobID string) []byte {
	t.Helper()
	bundle, err := b.c.GenerateBundle(t.Context(), jobID)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(bundle.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func (b *downloadBench) downloadRequests() []*http.Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.downloads
}

// memorySink keeps the archive in memory, which only a test may do.
type memorySink struct {
	buf    bytes.Buffer
	resets int
	fail   error // returned by ReadFrom after its first read
}

func (s *memorySink) Reset() error {
	s.resets++
	s.buf.Reset()
	return nil
}

func (s *memorySink) ReadFrom(r io.Reader) (int64, error) {
	if s.fail != nil {
		n, _ := r.Read(make([]byte, 512))
		return int64(n), s.fail
	}
	return s.buf.ReadFrom(r)
}

// Faults.

func storageError(status int, code, message string, retryAfter time.Duration) downloadFault {
	return func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
		body, _ := xml.Marshal(struct {
			XMLName xml.Name `xml:"Error"`
			Code    string
			Message string
		}{Code: code, Message: message})
		w.Header().Set("Content-Type", "application/xml")
		if retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter.Seconds())))
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}

// cutAfter sends the answer's headers and its first n bytes, then closes
// the connection: the body falls short of its Content-Length.
func cutAfter(n int64) downloadFault {
	return func(w http.ResponseWriter, r *http.Request, serve http.Handler) {
		serve.ServeHTTP(&cutWriter{ResponseWriter: w, left: n}, r)
	}
}

type cutWriter struct {
	http.ResponseWriter
	left int64
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		n, _ := c.ResponseWriter.Write(p[:c.left])
		c.left = 0
		return n, errors.New("cut")
	}
	c.left -= int64(len(p))
	return c.ResponseWriter.Write(p)
}

// hangAfter sends the first n bytes, tells hung, then sends nothing more
// until the client goes away.
func hangAfter(n int64, hung chan<- struct{}) downloadFault {
	return func(w http.ResponseWriter, r *http.Request, serve http.Handler) {
		hw := &hangWriter{cutWriter: cutWriter{ResponseWriter: w, left: n}, ctx: r.Context(), hung: hung}
		serve.ServeHTTP(hw, r)
	}
}

type hangWriter struct {
	cutWriter
	ctx  context.Context
	hung chan<- struct{}
	once sync.Once
}

func (h *hangWriter) Write(p []byte) (int, error) {
	n, err := h.cutWriter.Write(p)
	if err != nil {
		_ = http.NewResponseController(h.ResponseWriter).Flush()
		h.once.Do(func() { close(h.hung) })
		<-h.ctx.Done()
	}
	return n, err
}

// dropConnection closes the connection without an answer.
func dropConnection(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	panic(http.ErrAbortHandler)
}

// expireFirst moves the clock past the link's lifetime before the fake
// sees the request: the link has expired.
func (b *downloadBench) expireFirst(w http.ResponseWriter, r *http.Request, serve http.Handler) {
	b.clock.Advance(2 * time.Hour)
	serve.ServeHTTP(w, r)
}

func TestDownloadBundle(t *testing.T) {
	t.Parallel()
	b := newDownloadBench(t, nil)
	jobID := b.completedJob(t)
	var sink memorySink
	d, err := b.c.DownloadBundle(t.Context(), jobID, &sink)
	if err != nil {
		t.Fatal(err)
	}
	want := b.want(t, jobID)
	if !bytes.Equal(sink.buf.Bytes(), want) || d.Bytes != int64(len(want)) || len(want) < 2<<20-1024 {
		t.Errorf("received %d bytes (Download.Bytes %d), want the %d bytes of the archive", sink.buf.Len(), d.Bytes, len(want))
	}
	if d.Attempts != 1 || d.Links != 1 || sink.resets != 1 || !d.ExpiresAt.Equal(start.Add(time.Hour)) {
		t.Errorf("Download = %+v with %d resets, want one attempt with one link, expiring in an hour", d, sink.resets)
	}
	req := b.downloadRequests()[0]
	for header, want := range map[string]string{"Authorization": "", "User-Agent": "test-agent/1.0", "Accept-Encoding": "identity"} {
		if got := req.Header.Get(header); got != want {
			t.Errorf("the download request's %s = %q, want %q", header, got, want)
		}
	}
}

func TestDownloadRestartsFromTheFirstByte(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault downloadFault
	}{
		// (A connection dropped before any answer is not here: net/http
		// itself resends a GET on a reused connection the server closed.)
		{"503 with Retry-After", storageError(http.StatusServiceUnavailable, "SlowDown", "Please reduce your request rate.", 3*time.Second)},
		{"500", storageError(http.StatusInternalServerError, "InternalError", "We encountered an internal error. Please try again.", 0)},
		{"429", storageError(http.StatusTooManyRequests, "TooManyRequests", "Please slow down.", 0)},
		{"cut short", cutAfter(1 << 20)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := newDownloadBench(t, []downloadFault{tc.fault})
			jobID := b.completedJob(t)
			var sink memorySink
			before := b.clock.Now()
			d, err := b.c.DownloadBundle(t.Context(), jobID, &sink)
			if err != nil {
				t.Fatal(err)
			}
			if want := b.want(t, jobID); !bytes.Equal(sink.buf.Bytes(), want) {
				t.Errorf("received %d bytes, want the %d bytes of the archive", sink.buf.Len(), len(want))
			}
			if d.Attempts != 2 || d.Links != 1 {
				t.Errorf("Download = %+v, want 2 attempts with one link", d)
			}
			if waited := b.clock.Now().Sub(before); waited < 500*time.Millisecond || (tc.name == "503 with Retry-After" && waited < 3*time.Second) {
				t.Errorf("waited %s before retrying", waited)
			}
		})
	}
}

func TestDownloadGeneratesAFreshLinkWhenRefused(t *testing.T) {
	t.Parallel()
	t.Run("expired", func(t *testing.T) {
		t.Parallel()
		var b *downloadBench
		b = newDownloadBench(t, []downloadFault{func(w http.ResponseWriter, r *http.Request, serve http.Handler) { b.expireFirst(w, r, serve) }})
		jobID := b.completedJob(t)
		var sink memorySink
		d, err := b.c.DownloadBundle(t.Context(), jobID, &sink)
		if err != nil {
			t.Fatal(err)
		}
		if d.Links != 2 || d.Attempts != 2 || b.fake.BundlesGenerated() != 2 {
			t.Errorf("Download = %+v, %d links generated: want a second link after the first expired", d, b.fake.BundlesGenerated())
		}
		if want := b.want(t, jobID); !bytes.Equal(sink.buf.Bytes(), want) {
			t.Error("the archive differs")
		}
	})
	t.Run("always refused", func(t *testing.T) {
		t.Parallel()
		refuse := storageError(http.StatusForbidden, "AccessDenied", "Access Denied", 0)
		b := newDownloadBench(t, []downloadFault{refuse, refuse, refuse, refuse})
		d, err := b.c.DownloadBundle(t.Context(), b.completedJob(t), &memorySink{})
		var de *DownloadError
		if !errors.As(err, &de) || StatusCode(err) != http.StatusForbidden || d.Links != 3 || d.Attempts != 3 {
			t.Fatalf("err = %v, Download %+v: want a 403 DownloadError after 3 links", err, d)
		}
		if !strings.Contains(err.Error(), "403 Forbidden: AccessDenied: Access Denied") || !strings.HasPrefix(err.Error(), "downloading the bundle from 127.0.0.1:") {
			t.Errorf("error = %q", err)
		}
	})
}

func TestDownloadPermanentFailures(t *testing.T) {
	t.Parallel()
	t.Run("404 from the storage", func(t *testing.T) {
		t.Parallel()
		b := newDownloadBench(t, []downloadFault{storageError(http.StatusNotFound, "NoSuchKey", "The specified key does not exist.", 0)})
		d, err := b.c.DownloadBundle(t.Context(), b.completedJob(t), &memorySink{})
		if !IsNotFound(err) || d.Attempts != 1 || !strings.Contains(err.Error(), "NoSuchKey: The specified key does not exist.") {
			t.Errorf("err = %v after %d attempts, want the storage's 404 at once", err, d.Attempts)
		}
	})
	t.Run("the sink's own error", func(t *testing.T) {
		t.Parallel()
		b := newDownloadBench(t, nil)
		broken := errors.New("the archive is broken")
		d, err := b.c.DownloadBundle(t.Context(), b.completedJob(t), &memorySink{fail: broken})
		var de *DownloadError
		if err != broken || errors.As(err, &de) || d.Attempts != 1 {
			t.Errorf("err = %#v after %d attempts, want the sink's error as it is, at once", err, d.Attempts)
		}
	})
	t.Run("a job that has not completed", func(t *testing.T) {
		t.Parallel()
		c, fake, _ := newFake(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{Never: true} }}))
		_, err := c.DownloadBundle(t.Context(), mustStart(t, c).JobID, &memorySink{})
		if !IsConflict(err) || fake.Count(http.MethodGet, "/bundles/") != 0 {
			t.Errorf("err = %v, want the API's 409 and no download", err)
		}
	})
}

// TestDownloadRefusesABodyLargerThanAnnounced stops a download as soon as it
// passes the bundle's sizeBytes, or before it starts when the answer's
// Content-Length exceeds it, and never retries it.
func TestDownloadRefusesABodyLargerThanAnnounced(t *testing.T) {
	t.Parallel()
	// The fake announces 1 KiB and streams 8 MiB without a Content-Length.
	oversized := fakeapi.Archive{Size: 8 << 20, Defect: fakeapi.ArchiveOversized}
	withContentLength := func(w http.ResponseWriter, r *http.Request, serve http.Handler) {
		rec := httptest.NewRecorder()
		serve.ServeHTTP(rec, r)
		w.Header().Set("Content-Length", strconv.Itoa(rec.Body.Len()))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}
	cases := []struct {
		name          string
		fault         downloadFault
		contentLength int64 // of the SizeError
		received      int   // bytes the sink may see
	}{
		{"streamed past sizeBytes", nil, -1, 1<<10 + 1},
		{"a Content-Length over sizeBytes", withContentLength, 8 << 20, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := newDownloadBench(t, []downloadFault{tc.fault})
			b.archive = oversized
			var sink memorySink
			d, err := b.c.DownloadBundle(t.Context(), b.completedJob(t), &sink)
			var de *DownloadError
			var se *SizeError
			if !errors.As(err, &de) || !errors.As(err, &se) || se.Announced != 1<<10 || d.Attempts != 1 || d.Links != 1 {
				t.Fatalf("err = %v, Download %+v: want a SizeError of 1 KiB announced, at the first attempt", err, d)
			}
			if tc.contentLength > 0 && (se.ContentLength < tc.contentLength-1024 || se.ContentLength > tc.contentLength) {
				t.Errorf("SizeError.ContentLength = %d, want about %d", se.ContentLength, tc.contentLength)
			}
			if tc.contentLength < 0 && se.ContentLength != -1 {
				t.Errorf("SizeError.ContentLength = %d, want -1 (the body went past sizeBytes)", se.ContentLength)
			}
			if sink.buf.Len() > tc.received {
				t.Errorf("the sink received %d bytes, want at most %d", sink.buf.Len(), tc.received)
			}
			if !strings.Contains(err.Error(), "1024 bytes of the bundle's sizeBytes") {
				t.Errorf("error = %q", err)
			}
		})
	}
}

// stallTestTimeout is the request timeout of the stall tests: the stall itself
// is real time (a hung connection), so the tests wait this long once; it
// also bounds their API calls, which must not run into it on a loaded
// 2-core CI machine under -race (500 ms did once, and 3 s once, beside the
// acceptance tests of make test). The two tests wait side by side.
const stallTestTimeout = 10 * time.Second

func TestDownloadStalls(t *testing.T) {
	t.Parallel()
	t.Run("retried", func(t *testing.T) {
		t.Parallel()
		b := newDownloadBench(t, []downloadFault{hangAfter(1<<20, make(chan struct{}))}, WithRequestTimeout(stallTestTimeout))
		jobID := b.completedJob(t)
		var sink memorySink
		d, err := b.c.DownloadBundle(t.Context(), jobID, &sink)
		if err != nil || d.Attempts != 2 {
			t.Fatalf("err = %v, Download %+v: want success at the second attempt", err, d)
		}
		if want := b.want(t, jobID); !bytes.Equal(sink.buf.Bytes(), want) {
			t.Error("the archive differs")
		}
	})
	t.Run("without retries", func(t *testing.T) {
		t.Parallel()
		b := newDownloadBench(t, []downloadFault{hangAfter(1<<20, make(chan struct{}))}, WithRequestTimeout(stallTestTimeout), WithMaxRetries(0))
		_, err := b.c.DownloadBundle(t.Context(), b.completedJob(t), &memorySink{})
		var stall *StallError
		if !errors.As(err, &stall) || !strings.Contains(err.Error(), "reading the archive after 1048576 bytes: no data arrived for "+stallTestTimeout.String()) {
			t.Errorf("err = %v, want a stall after the first MiB", err)
		}
	})
}

func TestDownloadStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	hung := make(chan struct{})
	b := newDownloadBench(t, []downloadFault{hangAfter(1<<20, hung)})
	jobID := b.completedJob(t)
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-hung
		cancel()
	}()
	_, err := b.c.DownloadBundle(ctx, jobID, &memorySink{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n := len(b.downloadRequests()); n != 1 {
		t.Errorf("%d download requests, want 1", n)
	}
}

// TestDownloadKeepsTheLinkSecret runs downloads through every kind of
// failure with a logger that records everything: neither the logs nor the
// errors may hold any link's query or signature.
func TestDownloadKeepsTheLinkSecret(t *testing.T) {
	t.Parallel()
	var logs recordingLogger
	refuse := storageError(http.StatusForbidden, "SignatureDoesNotMatch", "The request signature we calculated does not match", 0)
	b := newDownloadBench(t, []downloadFault{
		storageError(http.StatusServiceUnavailable, "SlowDown", "Reduce your request rate.", 0), cutAfter(1000), dropConnection, nil,
		refuse, refuse, refuse,
	}, WithLogger(&logs))
	jobID := b.completedJob(t)
	var errs []string
	for range 2 {
		if _, err := b.c.DownloadBundle(t.Context(), jobID, &memorySink{}); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) != 1 || len(b.downloadRequests()) != 7 {
		t.Fatalf("errors %q after %d downloads, want one download to succeed and one to fail", errs, len(b.downloadRequests()))
	}
	out := logs.String() + "\n" + strings.Join(errs, "\n")
	for _, req := range b.downloadRequests() {
		q := req.URL.Query()
		for _, secret := range []string{req.URL.RawQuery, q.Get("X-Amz-Signature"), q.Get("X-Amz-Credential")} {
			if secret == "" || strings.Contains(out, secret) {
				t.Fatalf("a link's secret %q is in the logs or errors (or missing from the link):\n%s", secret, out)
			}
		}
	}
	for _, want := range []string{"performing request", "Retrying Mintlify API request", "503 Service Unavailable", "the answer was cut short", "refused the bundle link"} {
		if !strings.Contains(out, want) {
			t.Errorf("the logs lack %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "REDACTED") {
		t.Errorf("go-retryablehttp's entries do not show the link masked:\n%s", out)
	}
}

// TestDownloadCeilingWhenNoSizeIsAnnounced: when the bundle announces no
// size (sizeBytes 0) and the storage host no Content-Length, the download
// is bounded all the same, by MaxUnannouncedBundleBytes (lowered here to
// 1 MiB): a body past it stops at the first byte past it, with a
// *SizeError that says so, not retried; a Content-Length past it is
// refused before the first byte; an archive within it downloads whole.
func TestDownloadCeilingWhenNoSizeIsAnnounced(t *testing.T) {
	t.Parallel()
	const ceiling = 1 << 20
	withContentLength := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasPrefix(r.URL.Path, "/bundles/") {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			w.Header().Set("Content-Length", strconv.Itoa(rec.Body.Len()))
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		})
	}
	for _, tc := range []struct {
		name          string
		size          int64
		wrap          func(http.Handler) http.Handler
		contentLength bool // refused on its Content-Length
	}{
		{"streamed past the ceiling", 4 << 20, nil, false},
		{"a Content-Length past the ceiling", 4 << 20, withContentLength, true},
		{"within the ceiling", ceiling - 64<<10, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := []fakeapitest.Option{fakeapitest.Fake(fakeapi.WithHostile(fakeapi.HostileOptions{UnannouncedSize: true}),
				fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}),
				fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(fakeapi.StartRequest) fakeapi.Archive { return fakeapi.Archive{Size: tc.size} }}))}
			if tc.wrap != nil {
				opts = append(opts, fakeapitest.Handler(func(f *fakeapi.Server) http.Handler { return tc.wrap(f) }))
			}
			env := fakeapitest.New(t, opts...)
			c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock))
			if err != nil {
				t.Fatal(err)
			}
			c.maxUnannouncedBytes = ceiling
			job := mustStart(t, c)
			if b, err := c.GenerateBundle(t.Context(), job.JobID); err != nil || b.SizeBytes != 0 {
				t.Fatalf("GenerateBundle = %+v, %v; want a bundle that announces no size", b, err)
			}
			var sink memorySink
			d, err := c.DownloadBundle(t.Context(), job.JobID, &sink)
			if tc.size < ceiling {
				if err != nil || d.Bytes != int64(sink.buf.Len()) || d.Bytes < tc.size-1024 {
					t.Fatalf("err = %v, Download %+v, %d bytes received: want the whole archive", err, d, sink.buf.Len())
				}
				return
			}
			var de *DownloadError
			var se *SizeError
			if !errors.As(err, &de) || !errors.As(err, &se) || se.Announced != 0 || se.Limit != ceiling || d.Attempts != 1 {
				t.Fatalf("err = %v, Download %+v: want a SizeError at the 1 MiB ceiling, at the first attempt", err, d)
			}
			want, received := "the storage host sent more than the 1048576 bytes (1 MiB) the provider accepts when the "+
				"API announces no size (sizeBytes); the download stopped at byte 1048577", ceiling+1
			if tc.contentLength {
				want, received = "(Content-Length), more than the 1048576 bytes (1 MiB) the provider accepts when the "+
					"API announces no size (sizeBytes)", 0
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
			if sink.buf.Len() > received {
				t.Errorf("the sink received %d bytes, want at most %d", sink.buf.Len(), received)
			}
		})
	}
}
