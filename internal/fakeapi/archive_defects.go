package fakeapi

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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

// The hostile archives of a second review: each extracted by at
// least one of GNU tar, bsdtar, BusyBox tar and Python's tarfile to a file
// outside the extraction directory, a link out of it, or a file that a
// reader of archive/tar never saw. The ones archive/tar cannot write are
// written byte by byte.
const (
	// ArchiveLinkBeforeLink adds p -> d0/d1/d2, then d0/d1/d2 ->
	// ../../../../etc and p/passwd.html: the first link is declared before
	// the link it goes through.
	ArchiveLinkBeforeLink ArchiveDefect = "link-before-link"
	// ArchiveBackslashName adds b\b\passwd.html: one name on Linux,
	// directories on Windows.
	ArchiveBackslashName ArchiveDefect = "backslash-name"
	// ArchiveCaseAlias adds the directory b/, a symbolic link B ->
	// ../../etc and b/passwd.html: on a case-insensitive file system, B is b.
	ArchiveCaseAlias ArchiveDefect = "case-alias"
	// ArchiveRedefinedLink adds l -> sub, then l again -> ../../etc, and
	// l/passwd.html.
	ArchiveRedefinedLink ArchiveDefect = "redefined-link"
	// ArchiveHardLinkToSymlink adds s -> /etc/passwd and h, a hard link to
	// s.
	ArchiveHardLinkToSymlink ArchiveDefect = "hard-link-to-symlink"
	// ArchivePAXSparseName adds a PAX header with GNU.sparse.name =
	// /tmp/pwned.html before the file sparse.html.
	ArchivePAXSparseName ArchiveDefect = "pax-sparse-name"
	// ArchiveStackedPAX adds two PAX headers (path = stacked.html, then
	// path = ../../tmp/pwned.html) before one file.
	ArchiveStackedPAX ArchiveDefect = "stacked-pax"
	// ArchivePAXBeforeLongName adds a PAX header (path = safe.html), then a
	// GNU long name (../../tmp/pwned.html), then the file.
	ArchivePAXBeforeLongName ArchiveDefect = "pax-before-long-name"
	// ArchiveV7Prefix adds a V7 header (no magic) named pwned.html with
	// /tmp in its prefix field, which some readers join to the name.
	ArchiveV7Prefix ArchiveDefect = "v7-prefix"
	// ArchiveGlobalPath adds a global PAX header that sets path =
	// /tmp/pwned.html, then the file global.html.
	ArchiveGlobalPath ArchiveDefect = "global-path"
	// ArchiveAfterEnd adds an end-of-archive marker, then the file
	// after-the-end.html.
	ArchiveAfterEnd ArchiveDefect = "after-end"
	// ArchiveLongLinkTarget adds a PAX header whose linkpath has 64,000
	// components, then the symbolic link it names.
	ArchiveLongLinkTarget ArchiveDefect = "long-link-target"
	// ArchiveLongNames adds files with GNU long names of 64 KiB each.
	ArchiveLongNames ArchiveDefect = "long-names"
	// ArchiveSparseEntry adds a GNU sparse file (type S) whose real size
	// is 1 TiB.
	ArchiveSparseEntry ArchiveDefect = "sparse-entry"
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
		mode := int64(0o644)
		if typ == tar.TypeDir {
			mode = 0o755
		}
		raw.Write(ustarEntry(&tar.Header{Typeflag: typ, Name: name, Linkname: link, Mode: mode, ModTime: modTime}))
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
	default:
		return reviewedEntries(defect, modTime)
	}
	return raw.Bytes()
}

// reviewedEntries returns the raw tar entries of the defects of the second
// review, or nil.
func reviewedEntries(defect ArchiveDefect, modTime time.Time) []byte {
	var raw bytes.Buffer
	add := func(typ byte, name, link string, data string) {
		raw.Write(rawTarHeader(ustarMagic, typ, name, "", link, int64(len(data)), modTime))
		raw.WriteString(data)
		raw.Write(make([]byte, padded(int64(len(data)))-int64(len(data))))
	}
	switch defect {
	case ArchiveLinkBeforeLink:
		add(tar.TypeSymlink, "p", "d0/d1/d2", "")
		add(tar.TypeDir, "d0/d1/", "", "")
		add(tar.TypeSymlink, "d0/d1/d2", "../../../../etc", "")
		add(tar.TypeReg, "p/passwd.html", "", pwnedPage)
	case ArchiveBackslashName:
		add(tar.TypeReg, `b\b\passwd.html`, "", pwnedPage)
	case ArchiveCaseAlias:
		add(tar.TypeDir, "b/", "", "")
		add(tar.TypeSymlink, "B", "../../etc", "")
		add(tar.TypeReg, "b/passwd.html", "", pwnedPage)
	case ArchiveRedefinedLink:
		add(tar.TypeDir, "sub/", "", "")
		add(tar.TypeSymlink, "l", "sub", "")
		add(tar.TypeSymlink, "l", "../../etc", "")
		add(tar.TypeReg, "l/passwd.html", "", pwnedPage)
	case ArchiveHardLinkToSymlink:
		add(tar.TypeSymlink, "s", "/etc/passwd", "")
		add(tar.TypeLink, "h", "s", "")
	case ArchivePAXSparseName:
		add(tar.TypeXHeader, "PaxHeaders/sparse.html", "", paxRecord("GNU.sparse.name", "/tmp/pwned.html"))
		add(tar.TypeReg, "sparse.html", "", pwnedPage)
	case ArchiveStackedPAX:
		add(tar.TypeXHeader, "PaxHeaders/stacked.html", "", paxRecord("path", "stacked.html"))
		add(tar.TypeXHeader, "PaxHeaders/stacked.html", "", paxRecord("path", "../../tmp/pwned.html"))
		add(tar.TypeReg, "stacked.html", "", pwnedPage)
	case ArchivePAXBeforeLongName:
		add(tar.TypeXHeader, "PaxHeaders/safe.html", "", paxRecord("path", "safe.html"))
		add(tar.TypeGNULongName, "././@LongLink", "", "../../tmp/pwned.html\x00")
		add(tar.TypeReg, "safe.html", "", pwnedPage)
	case ArchiveV7Prefix:
		raw.Write(rawTarHeader("", tar.TypeReg, "pwned.html", "/tmp", "", int64(len(pwnedPage)), modTime))
		raw.WriteString(pwnedPage)
		raw.Write(make([]byte, padded(int64(len(pwnedPage)))-int64(len(pwnedPage))))
	case ArchiveGlobalPath:
		add(tar.TypeXGlobalHeader, "pax_global_header", "", paxRecord("path", "/tmp/pwned.html"))
		add(tar.TypeReg, "global.html", "", pwnedPage)
	case ArchiveAfterEnd:
		raw.Write(make([]byte, 2*tarBlock))
		add(tar.TypeReg, "after-the-end.html", "", pwnedPage)
	case ArchiveLongLinkTarget:
		add(tar.TypeXHeader, "PaxHeaders/long", "", paxRecord("linkpath", strings.Repeat("a/", 64000)))
		add(tar.TypeSymlink, "long", "a", "")
	case ArchiveLongNames:
		for i := range 3 {
			add(tar.TypeGNULongName, "././@LongLink", "", fmt.Sprintf("%d/%s\x00", i, strings.Repeat("n", 64<<10)))
			add(tar.TypeReg, fmt.Sprintf("%d", i), "", "")
		}
	case ArchiveSparseEntry:
		raw.Write(sparseHeader("sparse.bin", modTime))
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

// The magic and version fields of a header, by format; a V7 header has
// none.
const (
	ustarMagic = "ustar\x0000"
	gnuMagic   = "ustar  \x00"
)

// rawTarHeader is a tar header block written byte by byte, for headers
// archive/tar does not write (a V7 header with a prefix, stacked extended
// headers).
func rawTarHeader(magic string, typ byte, name, prefix, link string, size int64, modTime time.Time) []byte {
	b := make([]byte, tarBlock)
	copy(b[0:100], name)
	copy(b[100:108], "0000644\x00")
	if typ == tar.TypeDir {
		copy(b[100:108], "0000755\x00")
	}
	copy(b[108:116], "0000000\x00")
	copy(b[116:124], "0000000\x00")
	copy(b[124:136], fmt.Sprintf("%011o\x00", size))
	copy(b[136:148], fmt.Sprintf("%011o\x00", modTime.Unix()))
	b[156] = typ
	copy(b[157:257], link)
	copy(b[257:265], magic)
	copy(b[345:500], prefix)
	return withChecksum(b)
}

// withChecksum fills in a header block's checksum.
func withChecksum(b []byte) []byte {
	copy(b[148:156], "        ")
	sum := 0
	for _, c := range b {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return b
}

// sparseHeader is a GNU sparse entry (type S) of one 1-byte chunk at the
// end of a 1 TiB file, followed by that byte.
func sparseHeader(name string, modTime time.Time) []byte {
	const realSize int64 = 1 << 40
	b := rawTarHeader(gnuMagic, tar.TypeGNUSparse, name, "", "", tarBlock, modTime)
	copy(b[386:398], fmt.Sprintf("%011o\x00", realSize-1)) // the chunk's offset
	copy(b[398:410], fmt.Sprintf("%011o\x00", 1))          // and size
	copy(b[483:495], fmt.Sprintf("%011o\x00", realSize))   // the real size
	return append(withChecksum(b), make([]byte, tarBlock)...)
}

// paxRecord is one PAX extended header record, "<length> key=value\n".
func paxRecord(key, value string) string {
	rest := " " + key + "=" + value + "\n"
	n := len(rest) + 1
	for len(strconv.Itoa(n))+len(rest) != n {
		n++
	}
	return strconv.Itoa(n) + rest
}
