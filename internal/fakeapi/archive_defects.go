package fakeapi

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"time"
)

// The hostile archives: each is a well-formed tar.gz, served whole, that an
// extraction (tar -x, Python's tarfile.extractall) must not be trusted with,
// or a body larger than the bundle announces. The entries a defect adds
// come after every other entry.
const (
	// ArchiveEscapingEntry adds a file named ../escape.html, which an
	// extraction would write outside its directory.
	ArchiveEscapingEntry ArchiveDefect = "escaping-entry"
	// ArchiveSymlinkChain adds the chain d/up -> .., d/up/up -> .. and the
	// file d/up/up/pwned.txt: each path is harmless on its own text, but
	// extracted in order the file lands two directories above.
	ArchiveSymlinkChain ArchiveDefect = "symlink-chain"
	// ArchiveDeviceEntry adds dev/console, a character device.
	ArchiveDeviceEntry ArchiveDefect = "device-entry"
	// ArchiveFIFOEntry adds run/pipe, a FIFO (named pipe).
	ArchiveFIFOEntry ArchiveDefect = "fifo-entry"
	// ArchiveHardLinkOut adds root -> . and passwd, a hard link to
	// root/../etc/passwd: inside the archive on its text, outside it through
	// the symbolic link.
	ArchiveHardLinkOut ArchiveDefect = "hard-link-out"
	// ArchiveOversized announces 1 KiB as the bundle's sizeBytes and serves
	// the whole archive (Size bytes) without a Content-Length, as a storage
	// host streaming more than it promised would.
	ArchiveOversized ArchiveDefect = "oversized"
)

// oversizedAnnounced is the sizeBytes of an ArchiveOversized bundle.
const oversizedAnnounced = 1 << 10

var escapePage = htmlDoc("escape", "escape", "<p>This entry's path leaves the archive's directory.</p>")

var pwnedPage = htmlDoc("pwned", "pwned", "<p>Extracted through a chain of symbolic links, this file lands outside.</p>")

// hostileEntries returns the raw tar entries (headers and padded bodies)
// that defect adds, or nil.
func hostileEntries(defect ArchiveDefect, modTime time.Time) []byte {
	var raw bytes.Buffer
	header := func(typ byte, name, link string) {
		raw.Write(ustarEntry(&tar.Header{Typeflag: typ, Name: name, Linkname: link, Mode: 0o644, ModTime: modTime}))
	}
	file := func(name, body string) {
		raw.Write(ustarHeader(name, int64(len(body)), modTime))
		raw.WriteString(body)
		raw.Write(make([]byte, padded(int64(len(body)))-int64(len(body))))
	}
	switch defect {
	case ArchiveEscapingEntry:
		file("../escape.html", escapePage)
	case ArchiveSymlinkChain:
		header(tar.TypeDir, "d/", "")
		header(tar.TypeSymlink, "d/up", "..")
		header(tar.TypeSymlink, "d/up/up", "..")
		file("d/up/up/pwned.txt", pwnedPage)
	case ArchiveDeviceEntry:
		header(tar.TypeChar, "dev/console", "")
	case ArchiveFIFOEntry:
		header(tar.TypeFifo, "run/pipe", "")
	case ArchiveHardLinkOut:
		header(tar.TypeSymlink, "root", ".")
		header(tar.TypeLink, "passwd", "root/../etc/passwd")
	}
	return raw.Bytes()
}

// served is the size of what a download sends.
func (l *archiveLayout) served() int64 {
	if l.defect == ArchiveTruncated {
		return l.size / 2
	}
	return l.size
}

// announced is the bundle's sizeBytes.
func (l *archiveLayout) announced() int64 {
	if l.defect == ArchiveOversized {
		return min(oversizedAnnounced, l.served())
	}
	return l.served()
}

// contentLength is the download's Content-Length, and false when it is
// sent without one.
func (l *archiveLayout) contentLength() (int64, bool) {
	return l.served(), l.defect != ArchiveOversized
}

// errServed stops generation once a truncated archive has been sent.
var errServed = errors.New("fakeapi: the truncated archive is served")

// writeTo generates the archive, as served, into w.
func (l *archiveLayout) writeTo(w io.Writer) error {
	switch l.defect {
	case ArchiveTruncated:
		w = &limitWriter{w: w, left: l.served()}
	case ArchiveCorrupt:
		w = &flipWriter{w: w, at: l.size / 2}
	}
	err := l.generate(w)
	if errors.Is(err, errServed) {
		return nil
	}
	return err
}

// limitWriter passes on the first left bytes, then stops with errServed.
type limitWriter struct {
	w    io.Writer
	left int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if int64(len(p)) <= l.left {
		l.left -= int64(len(p))
		return l.w.Write(p)
	}
	n, err := l.w.Write(p[:l.left])
	l.left = 0
	if err == nil {
		err = errServed
	}
	return n, err
}

// flipWriter inverts the byte at offset at of what passes through.
type flipWriter struct {
	w   io.Writer
	off int64
	at  int64
}

func (f *flipWriter) Write(p []byte) (int, error) {
	if i := f.at - f.off; i >= 0 && i < int64(len(p)) {
		p = bytes.Clone(p)
		p[i] ^= 0xff
	}
	f.off += int64(len(p))
	return f.w.Write(p)
}
