package mintlify

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// maxBundleLinks bounds the links one DownloadBundle generates: the first,
// and a fresh one each time the storage host refuses a link (HTTP 403, as
// S3 answers an expired one).
const maxBundleLinks = 3

// MaxUnannouncedBundleBytes is the most a bundle download accepts when the
// API announces no size (a sizeBytes of 0 and no Content-Length): 8 GiB. A
// static export is pages and their assets, megabytes to a few hundred; a
// body past this is a storage host streaming without end, and stops at its
// first byte past the ceiling.
const MaxUnannouncedBundleBytes int64 = 8 << 30

// DownloadSink receives the archive of a bundle download.
type DownloadSink interface {
	// Reset discards whatever an earlier attempt delivered. Every attempt
	// calls it before its first byte, so that an attempt cut short leaves
	// nothing behind.
	Reset() error
	// ReadFrom reads the answer's body to its end. An error of the sink's
	// own (an archive it finds invalid, a full disk) ends the download at
	// once and is returned as it is, never retried. Errors reading the body
	// belong to the client, which tells them apart and retries them.
	io.ReaderFrom
}

// Download describes a bundle download that succeeded.
type Download struct {
	JobID string
	// Bytes is the size of the archive received.
	Bytes int64
	// Attempts counts the download requests; Links the bundle links
	// generated for them.
	Attempts, Links int
	// ExpiresAt is when the link that served the archive expires.
	ExpiresAt time.Time
}

// DownloadError is a failure to fetch an archive from its bundle link, as
// opposed to a failure of the API that generates links. Err is an *APIError
// for an answer from the storage host (its Message holds the storage's own
// error code and message, such as "AccessDenied: Request has expired") or a
// *TransportError, either possibly inside a *RetryError. Neither the link
// nor its signature appears in it.
type DownloadError struct {
	// Host is the storage host the link points at, escaped for printing
	// (ShowHost).
	Host string
	Err  error
}

func (e *DownloadError) Error() string {
	return fmt.Sprintf("downloading the bundle from %s: %v", e.Host, e.Err)
}
func (e *DownloadError) Unwrap() error { return e.Err }

// SizeError is an archive larger than announced: by the bundle's sizeBytes,
// or by the answer's Content-Length when it exceeds sizeBytes; or, when the
// API announced no size, larger than MaxUnannouncedBundleBytes. The
// download stops as soon as the body passes the limit (or before reading
// it, for a Content-Length over the limit), and is not retried.
type SizeError struct {
	// Announced is the bundle's sizeBytes, 0 when the API announced none.
	Announced int64
	// Limit is the size the body may not pass: Announced, or
	// MaxUnannouncedBundleBytes when the API announced none.
	Limit int64
	// ContentLength is the answer's Content-Length when it is larger than
	// Limit; otherwise -1, and the body went past Limit.
	ContentLength int64
}

func (e *SizeError) Error() string {
	limit := fmt.Sprintf("the %d bytes of the bundle's sizeBytes", e.Announced)
	if e.Announced <= 0 {
		limit = fmt.Sprintf("the %d bytes (%s) the provider accepts when the API announces no size (sizeBytes)",
			e.Limit, formatBytes(e.Limit))
	}
	if e.ContentLength >= 0 {
		return fmt.Sprintf("the storage host announced a body of %d bytes (Content-Length), more than %s",
			e.ContentLength, limit)
	}
	return fmt.Sprintf("the storage host sent more than %s; the download stopped at byte %d", limit, e.Limit+1)
}

// formatBytes renders a size in the largest binary unit that divides it,
// such as 8 GiB.
func formatBytes(n int64) string {
	for _, u := range []struct {
		unit string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.unit)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// DownloadBundle generates a fresh bundle link for a completed job and
// streams the archive it points to into sink. The link is never reused from
// anywhere else, and never logged or put in an error: its query is a
// credential. The download goes to the link's host without the API key.
//
// It is retried like every idempotent call (see RetryPolicy): connection
// errors, an answer cut short, a stall of the request timeout, 429 and
// 500/502/503/504 from the storage host start the download again from the
// first byte, after sink.Reset. A link the storage host refuses (403, as
// for an expired link) is replaced by a fresh one, up to three links in
// all. Memory does not grow with the archive: the body goes straight to the
// sink. A body larger than the bundle's sizeBytes, or than
// MaxUnannouncedBundleBytes when the API announces none, is a *SizeError
// (inside a *DownloadError), never retried, and no more than one byte past
// the limit reaches the sink.
//
// Errors: the API's own (an *APIError, such as 409 for a job that has not
// completed), a *DownloadError, the sink's errors as they are, and ctx's.
func (c *Client) DownloadBundle(ctx context.Context, jobID string, sink DownloadSink) (*Download, error) {
	return c.downloadFrom(ctx, jobID, sink, func(ctx context.Context) (*Bundle, error) {
		return c.GenerateBundle(ctx, jobID)
	})
}

// DownloadProjectExport streams the archive of a completed project-scoped
// job into sink, from the link that job (the read that found it completed)
// carries, through the same download as DownloadBundle: retried the same
// way, bounded by the announced size, the link never logged nor put in an
// error. A link the storage host refuses (403) is replaced by the link of
// a new read of the job (GetProjectExportJob: every read of a completed
// job carries a fresh one), up to three links in all.
//
// Errors: an error when job carries no link (it has not completed), the
// API's errors of the new reads, a *DownloadError, the
// sink's errors as they are, and ctx's.
func (c *Client) DownloadProjectExport(ctx context.Context, job *ProjectExportJob, sink DownloadSink) (*Download, error) {
	projectID, jobID := job.ProjectID, job.JobID
	next := job
	return c.downloadFrom(ctx, jobID, sink, func(ctx context.Context) (*Bundle, error) {
		if next == nil {
			read, err := c.GetProjectExportJob(ctx, projectID, jobID)
			if err != nil {
				return nil, err
			}
			next = read
		}
		bundle, ok := next.Bundle()
		if !ok {
			return nil, fmt.Errorf("static export job %s of project %s is %s, not completed: it has no archive to "+
				"download yet", jobID, projectID, next.Status)
		}
		next = nil // a refused link is replaced by a new read's
		return bundle, nil
	})
}

// downloadFrom streams the archive behind the links that link gives into
// sink: the first, and another each time the storage host refuses one
// (HTTP 403), up to maxBundleLinks in all.
func (c *Client) downloadFrom(ctx context.Context, jobID string, sink DownloadSink, link func(context.Context) (*Bundle, error)) (*Download, error) {
	d := &Download{JobID: jobID}
	for {
		bundle, err := link(ctx)
		if err != nil {
			return d, err
		}
		d.Links++
		dl := c.newDownload(ctx, bundle.BundleURL, bundle.SizeBytes, sink)
		err = dl.run()
		d.Attempts += dl.state.n
		if err == nil {
			d.Bytes, d.ExpiresAt = dl.bytes, bundle.ExpiresAt
			if bundle.SizeBytes > 0 && bundle.SizeBytes != dl.bytes {
				c.logger.Warn(ctx, "The archive's size differs from the bundle's sizeBytes", map[string]any{
					"job_id": jobID, "size_bytes": dl.bytes, "announced_size_bytes": bundle.SizeBytes,
				})
			}
			c.logger.Info(ctx, "Bundle downloaded", map[string]any{
				"job_id": jobID, "size_bytes": dl.bytes, "attempts": d.Attempts, "links": d.Links,
			})
			return d, nil
		}
		if StatusCode(err) != http.StatusForbidden || d.Links >= maxBundleLinks || ctx.Err() != nil {
			return d, err
		}
		c.logger.Warn(ctx, "The storage host refused the bundle link; getting a fresh one", map[string]any{
			"job_id": jobID, "reason": err.Error(), "links": d.Links,
		})
	}
}

// download is one link's download, which may take several attempts.
type download struct {
	c       *Client
	ctx     context.Context
	link    *url.URL
	size    int64 // the bundle's sizeBytes; 0 when it announced none
	limit   int64 // size, or the client's ceiling when size is 0
	sink    DownloadSink
	secrets []string // the link's query and credentials, masked wherever they might show
	state   *callState
	bytes   int64
}

// newDownload prepares the download of link, which GenerateBundle has
// checked: an absolute http(s) URL.
func (c *Client) newDownload(ctx context.Context, link string, size int64, sink DownloadSink) *download {
	u, _ := url.Parse(link) // checked by checkBundleLink
	limit := size
	if limit <= 0 {
		limit = c.maxUnannouncedBytes
	}
	d := &download{c: c, ctx: ctx, link: u, size: size, limit: limit, sink: sink}
	if u.RawQuery != "" {
		d.secrets = append(d.secrets, u.RawQuery)
	}
	for key, values := range u.Query() {
		if isSignedQueryKey(key) {
			d.secrets = append(d.secrets, values...)
		}
	}
	route := http.MethodGet + " " + u.Scheme + "://" + ShowHost(u.Host) + u.EscapedPath()
	d.state = &callState{c: c, ctx: ctx, call: call{method: http.MethodGet, idempotent: true}, route: route}
	return d
}

// run downloads through go-retryablehttp with the client's retry policy
// (callState.checkRetry), reading each answer into the sink inside the
// retry loop, so that a body cut short is a failed attempt like a 502.
func (d *download) run() error {
	req, err := retryablehttp.NewRequestWithContext(d.ctx, http.MethodGet, d.link.String(), nil)
	if err != nil {
		return d.failed(errors.New("building the request failed"))
	}
	// No Authorization: the link carries its own credentials, and the API
	// key is for the API host only. identity keeps net/http from
	// decompressing a body the storage serves gzip-encoded: the archive is
	// stored, hashed and checked byte for byte as served.
	req.Header.Set("User-Agent", d.c.userAgent)
	req.Header.Set("Accept", "*/*")
	req.Header.Set("Accept-Encoding", "identity")
	req.SetResponseHandler(d.handleResponse)
	rc := &retryablehttp.Client{
		HTTPClient:     d.c.downloadHTTPClient(),
		Logger:         leveledLogger{ctx: d.ctx, l: d.c.logger, secrets: d.secrets},
		RetryMax:       d.c.retryPolicy.MaxRetries,
		RequestLogHook: d.logRequest,
		CheckRetry:     d.checkRetry,
		Backoff:        func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 },
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
	}
	_, err = rc.Do(req)
	var he *haltError
	switch {
	case err == nil:
		return nil
	case errors.As(d.state.final, &he):
		return he.err
	case d.state.final != nil:
		err = d.state.final
	case d.state.last != nil:
		err = &RetryError{Attempts: d.state.n, Err: d.state.last, Stop: err}
	default:
		err = &TransportError{Route: d.state.route, Err: unwrapURLError(err)}
	}
	return d.failed(maskError(err, d.secrets))
}

// failed is a *DownloadError of this download.
func (d *download) failed(err error) *DownloadError {
	return &DownloadError{Host: ShowHost(d.link.Host), Err: err}
}

func (d *download) logRequest(_ retryablehttp.Logger, _ *http.Request, i int) {
	d.state.n = i + 1
	d.c.logger.Debug(d.ctx, "Bundle download request", map[string]any{"route": d.state.route, "attempt": d.state.n})
}

// checkRetry is callState.checkRetry, the rule of every API call, except
// that an error of the sink, or an archive larger than announced, ends the
// download at once.
func (d *download) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	var he *haltError
	if errors.As(err, &he) {
		return d.state.fail(err)
	}
	return d.state.checkRetry(ctx, resp, err)
}

// haltError carries an error that ends the download at once (the sink's,
// or a *DownloadError of a body larger than announced) through
// go-retryablehttp.
type haltError struct{ err error }

func (e *haltError) Error() string { return e.err.Error() }
func (e *haltError) Unwrap() error { return e.err }

// handleResponse reads one answer: the archive into the sink, or the
// storage host's error document into an *APIError.
func (d *download) handleResponse(resp *http.Response) error {
	defer func() { _ = resp.Body.Close() }()
	d.c.logger.Debug(d.ctx, "Bundle download response", map[string]any{
		"route": d.state.route, "attempt": d.state.n, "status": resp.StatusCode, "content_length": resp.ContentLength,
	})
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
		apiErr := &APIError{Route: d.state.route, StatusCode: resp.StatusCode, Message: serverText(storageMessage(raw), append(d.secrets, d.c.apiKey))}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			apiErr.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), d.c.clock.Now())
		}
		return apiErr
	}
	if resp.ContentLength > d.limit {
		return &haltError{d.failed(&SizeError{Announced: d.size, Limit: d.limit, ContentLength: resp.ContentLength})}
	}
	if err := d.sink.Reset(); err != nil {
		return &haltError{err}
	}
	body := &bodyReader{r: resp.Body, limit: d.limit}
	_, err := d.sink.ReadFrom(body)
	switch {
	case body.tooLarge:
		return &haltError{d.failed(&SizeError{Announced: d.size, Limit: d.limit, ContentLength: -1})}
	case body.err != nil:
		readErr := body.err
		if errors.Is(readErr, io.ErrUnexpectedEOF) {
			readErr = errors.New("the answer was cut short")
		}
		return &TransportError{Route: d.state.route, Err: fmt.Errorf("reading the archive after %d bytes: %w", body.n, readErr)}
	case err != nil:
		return &haltError{err}
	}
	d.bytes = body.n
	return nil
}

// storageMessage reads an S3-style XML error document ("Code: Message"),
// or describes a body that is not one. Other elements of the document (S3
// puts the canonical request, with the link's credential, in some) are
// never shown.
func storageMessage(raw []byte) string {
	var doc struct {
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil || (doc.Code == "" && doc.Message == "") {
		return "the storage host's answer carried no error message"
	}
	if doc.Code == "" {
		return doc.Message
	}
	if doc.Message == "" {
		return doc.Code
	}
	return doc.Code + ": " + doc.Message
}

// bodyReader remembers the first error reading the body, and its length.
// It reads at most one byte past its limit, and then fails: the body is
// larger than announced.
type bodyReader struct {
	r        io.Reader
	n        int64
	limit    int64
	tooLarge bool
	err      error
}

// errTooLarge is what the sink reads from a body past its limit.
var errTooLarge = errors.New("the body is larger than announced")

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.n > b.limit {
		b.tooLarge = true
		return 0, errTooLarge
	}
	p = p[:min(int64(len(p)), b.limit+1-b.n)]
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}
