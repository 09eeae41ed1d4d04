package fakeapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Presigned links imitate S3's query-string authentication (SigV4) closely
// enough that they look and fail like the real thing, but the signature is
// simply an HMAC over the job id, date and lifetime with a per-server key.
const (
	bundlePathPattern = "/bundles/{jobId}/bundle.tar.gz"
	exportPathPattern = "/exports/{jobId}/export.zip" // the next contract's ZIP archives
	signingAlgorithm  = "AWS4-HMAC-SHA256"
	fakeAccessKeyID   = "AKIAFAKEMINTLIFY0001"
	signingRegion     = "us-east-1"
	amzDateLayout     = "20060102T150405Z"
)

// The objects a link can point at: today's tar.gz bundles and the next
// contract's ZIP exports.
type object struct{ dir, name string }

var (
	bundleObject = object{"bundles", "bundle.tar.gz"}
	exportObject = object{"exports", "export.zip"}
)

// presign returns a link to job jobID's obj under base, signed at now, and
// the moment it expires.
func (s *Server) presign(base, jobID string, obj object, now time.Time) (string, time.Time) {
	date := now.UTC().Truncate(time.Second)
	expires := int64((s.linkTTL + time.Second - 1) / time.Second)
	amzDate := date.Format(amzDateLayout)
	expiresStr := strconv.FormatInt(expires, 10)
	credential := strings.Join([]string{fakeAccessKeyID, date.Format("20060102"), signingRegion, "s3", "aws4_request"}, "/")

	// Built by hand rather than with url.Values, to keep S3's parameter
	// order, in which the signature comes last.
	query := strings.Join([]string{
		"X-Amz-Algorithm=" + signingAlgorithm,
		"X-Amz-Credential=" + url.QueryEscape(credential),
		"X-Amz-Date=" + amzDate,
		"X-Amz-Expires=" + expiresStr,
		"X-Amz-SignedHeaders=host",
		"X-Amz-Signature=" + s.signature(obj, jobID, amzDate, expiresStr),
	}, "&")
	link := base + "/" + obj.dir + "/" + url.PathEscape(jobID) + "/" + obj.name + "?" + query
	return link, date.Add(time.Duration(expires) * time.Second)
}

// signature is the hex HMAC-SHA256 that binds a link to its object, job
// and lifetime.
func (s *Server) signature(obj object, jobID, amzDate, expires string) string {
	mac := hmac.New(sha256.New, s.signingKey)
	mac.Write([]byte(obj.dir + "\n" + jobID + "\n" + amzDate + "\n" + expires))
	return hex.EncodeToString(mac.Sum(nil))
}

// linkBase is where links generated for r point: the configured download
// host, or else the server r reached, including any prefix that
// http.StripPrefix removed on the way.
func (s *Server) linkBase(r *http.Request) string {
	if s.downloadBase != "" {
		return s.downloadBase
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + strippedPrefix(r)
}

// strippedPrefix returns the part of the path the client sent that is
// missing from r.URL, which is what http.StripPrefix removes.
func strippedPrefix(r *http.Request) string {
	sent, err := url.ParseRequestURI(r.RequestURI)
	if err != nil {
		return ""
	}
	full, rest := sent.EscapedPath(), r.URL.EscapedPath()
	if !strings.HasSuffix(full, rest) {
		return ""
	}
	return strings.TrimSuffix(full[:len(full)-len(rest)], "/")
}

// handleDownload serves GET /bundles/{jobId}/bundle.tar.gz: it checks the
// presigned query like S3 would, then streams the job's archive (see
// archive.go).
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	jobID, now, ok := s.admitDownload(w, r, bundleObject)
	if !ok {
		return
	}

	s.mu.Lock()
	var archive *archiveLayout
	if job, ok := s.jobs[jobID]; ok && job.stateAt(now).Status == statusCompleted {
		archive = job.layout(s.archiveFor)
	}
	s.mu.Unlock()

	if archive == nil {
		writeS3Error(w, http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
		return
	}
	w.Header().Set("Content-Type", "application/gzip")
	if n, ok := archive.contentLength(); ok && !s.hostile.unannounced {
		w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
	}
	w.Header().Set("Content-Disposition", `attachment; filename="bundle.tar.gz"`)
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	// Generated while it is sent, never held in memory. An error means the
	// client went away: the answer cannot be changed any more.
	_ = archive.writeTo(w)
}

// admitDownload answers a download of obj that a hostile scenario takes
// over, or whose presigned query does not check out, and reports false;
// otherwise it returns the link's job and the moment of the request, for
// the caller to serve.
func (s *Server) admitDownload(w http.ResponseWriter, r *http.Request, obj object) (jobID string, now time.Time, ok bool) {
	if s.hostileDownload(w, r) {
		return "", time.Time{}, false
	}
	jobID, now = r.PathValue("jobId"), s.clock.Now()
	if code, msg := s.checkLink(obj, jobID, r.URL.Query(), now); code != "" {
		writeS3Error(w, http.StatusForbidden, code, msg)
		return "", now, false
	}
	return jobID, now, true
}

// checkLink verifies a presigned query for jobID's obj. It returns an S3
// error code and message, or two empty strings when the link is valid at
// now.
func (s *Server) checkLink(obj object, jobID string, q url.Values, now time.Time) (code, message string) {
	amzDate, expiresStr, sig := q.Get("X-Amz-Date"), q.Get("X-Amz-Expires"), q.Get("X-Amz-Signature")
	if q.Get("X-Amz-Algorithm") != signingAlgorithm || q.Get("X-Amz-Credential") == "" ||
		amzDate == "" || expiresStr == "" || sig == "" || q.Get("X-Amz-SignedHeaders") == "" {
		return "AccessDenied", "Query-string authentication version 4 requires the X-Amz-Algorithm, " +
			"X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters."
	}
	if !hmac.Equal([]byte(sig), []byte(s.signature(obj, jobID, amzDate, expiresStr))) {
		return "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided. " +
			"Check your key and signing method."
	}
	// Both values were signed by us, so they parse.
	date, _ := time.Parse(amzDateLayout, amzDate)
	expires, _ := strconv.ParseInt(expiresStr, 10, 64)
	if !now.Before(date.Add(time.Duration(expires) * time.Second)) {
		return "AccessDenied", "Request has expired"
	}
	return "", ""
}

// s3Error is the XML error document S3 answers with.
type s3Error struct {
	XMLName xml.Name `xml:"Error"`
	Code    string   `xml:"Code"`
	Message string   `xml:"Message"`
}

// writeS3Error writes an S3-style XML error document.
func writeS3Error(w http.ResponseWriter, status int, code, message string) {
	body, _ := xml.Marshal(s3Error{Code: code, Message: message})
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	_, _ = w.Write(append([]byte(xml.Header), body...))
}
