package fakeapi_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// readArchive reads a tar.gz to its very end (so that gzip checks its
// CRC-32 and length) and returns the entry names.
func readArchive(body []byte) ([]string, error) {
	gz, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return names, err
		}
		names = append(names, hdr.Name)
	}
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return names, err
	}
	return names, gz.Close()
}

func TestArchiveOfAChosenSize(t *testing.T) {
	const mib = 1 << 20
	sizes := map[string]int64{
		"pages.example.com":  0,
		"small.example.com":  40 << 10,
		"sized.example.com":  3*mib + 12345,
		"blocks.example.com": 2 * (fakeapi.StoredBlockMax + fakeapi.StoredBlockHead) * 10,
	}
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{Pages: 5} }}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(req fakeapi.StartRequest) fakeapi.Archive { return fakeapi.Archive{Size: sizes[req.Domain]} }}))
	for domain, size := range sizes {
		t.Run(domain, func(t *testing.T) {
			job := h.completedJob(t, map[string]any{"domain": domain})
			b := h.bundle(t, job.JobID)
			r := doURL(t, http.MethodGet, b.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
			if got := int64(len(r.body)); got != b.SizeBytes || r.header.Get("Content-Length") != strconv.FormatInt(got, 10) {
				t.Errorf("served %d bytes, Content-Length %s, sizeBytes %d", got, r.header.Get("Content-Length"), b.SizeBytes)
			}
			if size > 0 && (b.SizeBytes > size || b.SizeBytes <= size-1024) {
				t.Errorf("archive is %d bytes, want at most %d and within 1 KiB of it", b.SizeBytes, size)
			}
			names, err := readArchive(r.body)
			if err != nil {
				t.Fatalf("the archive does not read as tar.gz: %v", err)
			}
			want := []string{"index.html", "page-001.html", "page-002.html", "page-003.html", "page-004.html", "page-005.html"}
			if len(names) < len(want) || fmt.Sprint(names[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("entries start %v, want %v", names, want)
			}
			assets := names[len(want):]
			if size == 0 && len(assets) > 0 {
				t.Errorf("an archive of no chosen size holds assets %v", assets)
			}
			if size > 3*mib && (len(assets) != 4 || assets[0] != "assets/blob-00001.bin" || assets[3] != "assets/blob-00004.bin") {
				t.Errorf("a 3 MiB archive holds assets %v, want assets/blob-00001.bin to assets/blob-00004.bin", assets)
			}

			// The same job yields the same bytes; HEAD sends none.
			again := doURL(t, http.MethodGet, h.bundle(t, job.JobID).BundleURL, noKey, nil).body
			if sha256.Sum256(again) != sha256.Sum256(r.body) {
				t.Error("a second download of the same job differs")
			}
			head := doURL(t, http.MethodHead, h.bundle(t, job.JobID).BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
			if len(head.body) != 0 || head.header.Get("Content-Length") != strconv.FormatInt(b.SizeBytes, 10) {
				t.Errorf("HEAD: %d body bytes, Content-Length %s", len(head.body), head.header.Get("Content-Length"))
			}
		})
	}
}

func TestArchivesDifferBetweenJobs(t *testing.T) {
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(fakeapi.StartRequest) fakeapi.Archive { return fakeapi.Archive{Size: 2 << 20} }}))
	var sums [2][32]byte
	for i := range sums {
		job := h.completedJob(t, map[string]any{"domain": "docs.example.com"})
		sums[i] = sha256.Sum256(doURL(t, http.MethodGet, h.bundle(t, job.JobID).BundleURL, noKey, nil).body)
	}
	if sums[0] == sums[1] {
		t.Error("two jobs of the same request served the same archive")
	}
}

func TestArchiveDefects(t *testing.T) {
	h := newHarness(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{Pages: 3} }}),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(req fakeapi.StartRequest) fakeapi.Archive {
			return fakeapi.Archive{Size: 300 << 10, Defect: fakeapi.ArchiveDefect(req.Version)}
		}}))
	tests := []struct {
		defect fakeapi.ArchiveDefect
		check  func(t *testing.T, names []string, err error)
		raw    func(t *testing.T, body []byte) // instead of check, for what archive/tar reads otherwise
	}{
		{defect: fakeapi.ArchiveTruncated, check: func(t *testing.T, _ []string, err error) {
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("reading a truncated archive: err = %v, want unexpected EOF", err)
			}
		}},
		{defect: fakeapi.ArchiveCorrupt, check: func(t *testing.T, _ []string, err error) {
			if !errors.Is(err, gzip.ErrChecksum) {
				t.Errorf("reading a corrupt archive: err = %v, want a gzip checksum error", err)
			}
		}},
		{fakeapi.ArchiveEscapingEntry, lastEntries("../escape.html"), nil},
		{fakeapi.ArchiveSymlinkChain, lastEntries("d/", "d/up", "d/up/up", "d/up/up/pwned.txt"), nil},
		{fakeapi.ArchiveDeviceEntry, lastEntries("dev/console"), nil},
		{fakeapi.ArchiveFIFOEntry, lastEntries("run/pipe"), nil},
		{fakeapi.ArchiveHardLinkOut, lastEntries("root", "passwd"), nil},
		{fakeapi.ArchiveOversized, lastEntries("assets/blob-00001.bin"), nil},
		{fakeapi.ArchiveLinkBeforeLink, lastEntries("p", "d0/d1/", "d0/d1/d2", "p/passwd.html"), nil},
		{fakeapi.ArchiveBackslashName, lastEntries(`b\b\passwd.html`), nil},
		{fakeapi.ArchiveCaseAlias, lastEntries("b/", "B", "b/passwd.html"), nil},
		{fakeapi.ArchiveRedefinedLink, lastEntries("sub/", "l", "l", "l/passwd.html"), nil},
		{fakeapi.ArchiveHardLinkToSymlink, lastEntries("s", "h"), nil},
		{fakeapi.ArchivePAXSparseName, nil, holds("GNU.sparse.name=/tmp/pwned.html\n")},
		{fakeapi.ArchiveStackedPAX, nil, holds("path=stacked.html\n", "path=../../tmp/pwned.html\n")},
		{fakeapi.ArchivePAXBeforeLongName, nil, holds("path=safe.html\n", "././@LongLink")},
		{fakeapi.ArchiveV7Prefix, nil, holds("pwned.html")},
		{fakeapi.ArchiveGlobalPath, nil, holds("path=/tmp/pwned.html\n")},
		{fakeapi.ArchiveAfterEnd, nil, holds("after-the-end.html")},
		{fakeapi.ArchiveLongLinkTarget, nil, holds(" linkpath=" + strings.Repeat("a/", 64000) + "\n")},
		{fakeapi.ArchiveLongNames, nil, holds("2/" + strings.Repeat("n", 64<<10) + "\x00")},
		{fakeapi.ArchiveSparseEntry, nil, holds("sparse.bin")},
	}
	for _, tt := range tests {
		t.Run(string(tt.defect), func(t *testing.T) {
			job := h.completedJob(t, map[string]any{"domain": "docs.example.com", "version": string(tt.defect)})
			b := h.bundle(t, job.JobID)
			r := doURL(t, http.MethodGet, b.BundleURL, noKey, nil).wantStatus(t, http.StatusOK)
			switch length := r.header.Get("Content-Length"); {
			case tt.defect == fakeapi.ArchiveOversized:
				if b.SizeBytes != 1<<10 || len(r.body) < 200<<10 || length != "" {
					t.Errorf("sizeBytes %d, %d bytes served, Content-Length %q: want 1 KiB announced, the whole archive "+
						"served without a Content-Length", b.SizeBytes, len(r.body), length)
				}
			case int64(len(r.body)) != b.SizeBytes || length != strconv.Itoa(len(r.body)):
				t.Errorf("served %d bytes, sizeBytes %d, Content-Length %q: a defect must be a complete answer",
					len(r.body), b.SizeBytes, length)
			}
			if tt.raw != nil {
				tt.raw(t, r.body)
				return
			}
			names, err := readArchive(r.body)
			tt.check(t, names, err)
		})
	}
}

// lastEntries checks that an archive is valid and ends with the entries
// names.
func lastEntries(names ...string) func(t *testing.T, got []string, err error) {
	return func(t *testing.T, got []string, err error) {
		t.Helper()
		if err != nil || len(got) < len(names) || fmt.Sprint(got[len(got)-len(names):]) != fmt.Sprint(names) {
			t.Errorf("entries %v, err %v: want a valid archive whose last entries are %v", got, err, names)
		}
	}
}

// holds checks that an archive is valid gzip whose tar stream holds each of
// the raw texts, for the defects archive/tar does not read as written.
func holds(texts ...string) func(t *testing.T, body []byte) {
	return func(t *testing.T, body []byte) {
		t.Helper()
		gz, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(gz)
		if err != nil {
			t.Fatalf("the archive is not valid gzip: %v", err)
		}
		for _, text := range texts {
			if !bytes.Contains(raw, []byte(text)) {
				t.Errorf("the archive does not hold %.60q", text)
			}
		}
	}
}
