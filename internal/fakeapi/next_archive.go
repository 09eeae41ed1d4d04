package fakeapi

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"strconv"
	"time"
)

// The next contract's bundle is a ZIP archive (export.zip), written with
// archive/zip: index.html and one page per JobPlan.Pages, deflated, dated
// when the job finished. It is small, so it is built once per job and kept;
// the same job always yields the same bytes.

// projectArchiveLocked returns the job's archive as served, defects
// included, building it on first use. The caller holds s.mu.
func (s *Server) projectArchiveLocked(job *projectJob) []byte {
	if job.archive == nil {
		var spec Archive
		if s.next.Archive != nil {
			spec = s.next.Archive(job.start)
		}
		job.archive = withDefect(buildProjectArchive(job, spec.Defect), spec.Defect)
	}
	return job.archive
}

// buildProjectArchive writes the job's pages into a ZIP archive, then the
// hostile entries that defect adds, if any (zipHostileEntries).
func buildProjectArchive(job *projectJob, defect ArchiveDefect) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	modified := job.finishedAt().UTC().Truncate(time.Second)
	site := "project " + job.start.ProjectID + job.start.BasePath
	write := func(name, body string) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: modified}
		h.SetMode(0o644) // made on Unix, with a mode, as the archive check requires
		w, _ := zw.CreateHeader(h)
		_, _ = w.Write([]byte(body)) // a bytes.Buffer does not fail
	}
	var links bytes.Buffer
	for i := 1; i <= job.plan.Pages; i++ {
		fmt.Fprintf(&links, "<li><a href=\"page-%03d.html\">page %d</a></li>\n", i, i)
	}
	write("index.html", htmlDoc(site, "Static export of "+site, "<ul>\n"+links.String()+"</ul>"))
	for i := 1; i <= job.plan.Pages; i++ {
		page := fmt.Sprintf("page %d", i)
		write(fmt.Sprintf("page-%03d.html", i), htmlDoc(page+" · "+site, page,
			"<p>Exported from "+html.EscapeString(site)+".</p>"))
	}
	zipHostileEntries(zw, defect, modified)
	_ = zw.Close()
	return buf.Bytes()
}

// zipHostileEntries adds to a well-formed ZIP archive the entries of a
// hostile defect that the next contract's archive honours:
// ArchiveEscapingEntry (../escape.html) and ArchiveSymlinkChain (d/up ->
// .., d/up/up -> .., d/up/up/pwned.txt, the links marked by their external
// attributes as Info-ZIP writes them).
func zipHostileEntries(zw *zip.Writer, defect ArchiveDefect, modified time.Time) {
	add := func(name string, mode fs.FileMode, body string) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: modified}
		h.SetMode(mode)
		w, _ := zw.CreateHeader(h)
		_, _ = w.Write([]byte(body)) // a bytes.Buffer does not fail
	}
	switch defect {
	case ArchiveEscapingEntry:
		add("../escape.html", 0o644, escapePage)
	case ArchiveSymlinkChain:
		add("d/up", fs.ModeSymlink|0o777, "..")
		add("d/up/up", fs.ModeSymlink|0o777, "..")
		add("d/up/up/pwned.txt", 0o644, pwnedPage)
	}
}

// withDefect breaks an archive as defect says: its first half
// (ArchiveTruncated), or its middle byte flipped (ArchiveCorrupt).
func withDefect(archive []byte, defect ArchiveDefect) []byte {
	switch defect {
	case ArchiveTruncated:
		return archive[:len(archive)/2]
	case ArchiveCorrupt:
		archive[len(archive)/2] ^= 0xff
	}
	return archive
}

// handleExportDownload serves GET /exports/{jobId}/export.zip: it checks
// the presigned query like S3 would, then sends the job's archive.
func (s *Server) handleExportDownload(w http.ResponseWriter, r *http.Request) {
	jobID, now, ok := s.admitDownload(w, r, exportObject)
	if !ok {
		return
	}

	s.mu.Lock()
	var archive []byte
	if job, ok := s.projectJobs[jobID]; ok && job.stateAt(now).Status == statusCompleted {
		archive = s.projectArchiveLocked(job)
	}
	s.mu.Unlock()

	if archive == nil {
		writeS3Error(w, http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	if !s.hostile.unannounced {
		w.Header().Set("Content-Length", strconv.Itoa(len(archive)))
	}
	w.Header().Set("Content-Disposition", `attachment; filename="export.zip"`)
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(archive)
	}
}
