package archivefile

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// One reading: an archive the check accepts is read as one format, the
// one it was checked in, by every extractor the documentation names (GNU
// tar, bsdtar/libarchive, BusyBox tar and unzip, Python's tarfile and
// zipfile, Info-ZIP unzip, 7-Zip). This file models how each of them
// chooses a format, and holds the bytes each looks at to those that choose
// only the format checked.
//
// The choosers, read from their sources:
//
//   - libarchive (bsdtar -xf) runs its filter bidders on the file, then
//     again on what a filter put out, until none bids; then every format
//     bidder bids on the result and the highest wins. Its tar bidder bids
//     106 on a block whose checksum passes (as unsigned or as signed bytes)
//     and that has the ustar magic, 50 without it; ISO 9660 bids 48 when
//     the descriptor at byte 32768 says "CD001" at 32769; ZIP bids 32 (29
//     streaming); cpio, ar, 7z, CAB, RAR, XAR, WARC, LHA and mtree want
//     their magic at byte 0 (or, for 7z, RAR and LHA, an "MZ" or ELF
//     executable there), and bid at most 64.
//   - GNU tar (-x with -z, or -x alone, which tells gzip by its magic) and
//     BusyBox tar (-z, or its magic sniffing) decompress once, by the first
//     bytes of the file, and read tar; without a compression magic they
//     read tar headers, checking a header's checksum.
//   - Python's tarfile.open tries gzip, bzip2, xz (and zstd) first, then
//     plain tar, whose first header must pass its checksum.
//   - Info-ZIP unzip, BusyBox unzip and Python's zipfile (is_zipfile, and
//     ZipFile) look for the end record's signature, PK\x05\x06, from the
//     end backwards, within the last 65,557 bytes (the record and the
//     longest comment).
//   - 7-Zip opens a file by its extension first (.zip, .gz), and only when
//     that handler fails looks for other signatures.
//
// What the check holds, so that no second reading exists:
//
//   - A ZIP starts with a local header (PK\x03\x04), which no filter bidder
//     takes (their magics differ at byte 0; LZMA's heuristic wants its
//     dictionary size, bytes 1 to 4, to be a power of two, where a ZIP has
//     'K'); its first 512 bytes may not pass a tar checksum as any tar
//     reader parses the checksum field (tarChecksumReadable); the volume
//     descriptors of ISO 9660 and UDF, at byte 32769 and every 2048 bytes
//     after it for eight sectors, may not hold their identifiers.
//   - A tar.gz starts with gzip's magic, which only the gzip bidder takes
//     (LZMA's heuristic would need byte 1, 0x8b, to be zero). Its last
//     65,557 bytes may hold no ZIP end record's signature, and neither may
//     the last 65,557 bytes of the tar inside it (which gunzip or 7-Zip
//     leaves on disk for unzip). The decompressed stream may not start
//     with any compression magic libarchive bids on (filterMagic); and it
//     starts with a ustar or GNU header whose checksum passes, so that
//     libarchive's tar bidder (104 or more) outbids every other format.
//     Every header's name field is free of control characters and ends in
//     zeros (header.go), which is why the bidders that need a control byte
//     or a NUL followed by more data cannot fire at all: uuencode (a line
//     ending before any control byte), lzop, lrzip, grzip, lzip, rpm and
//     LZMA. filterMagic lists them all the same.

// headLen is how much of an archive's start the readings look at: the
// first header block, and the volume descriptors of ISO 9660 and UDF,
// eight sectors of 2048 bytes from byte 32768.
const (
	isoStart   = 32768
	isoSector  = 2048
	isoSectors = 8
	headLen    = isoStart + isoSectors*isoSector
)

// endSearch is how far from a file's end unzip, BusyBox unzip and Python's
// zipfile look for a ZIP end record: the record (22 bytes) and the longest
// comment.
const endSearch = 22 + 65535

// zipEndSig is the signature of a ZIP end record.
var zipEndSig = []byte("PK\x05\x06")

// isoIdentifiers are the identifiers of ISO 9660 (CD001) and UDF (ECMA-167
// volume structure descriptors) that libarchive and 7-Zip look for at
// byte 1 of a sector from byte 32768.
var isoIdentifiers = [][]byte{[]byte("CD001"), []byte("BEA01"), []byte("NSR02"), []byte("NSR03"), []byte("TEA01"),
	[]byte("BOOT2"), []byte("CDW02")}

// filterMagic names the compression whose magic libarchive's filter
// bidders would find at the start of b, the decompressed stream, or "".
// Each magic is the shortest prefix its bidder requires, so that the list
// refuses at least what the bidder takes.
func filterMagic(b []byte) string {
	for _, m := range []struct{ name, magic string }{
		{"gzip", "\x1f\x8b"}, {"compress", "\x1f\x9d"}, {"xz", "\xfd7zXZ\x00"}, {"zstd", "\x28\xb5\x2f\xfd"},
		{"lzip", "LZIP"}, {"lz4", "\x04\x22\x4d\x18"}, {"lz4 (legacy)", "\x02\x21\x4c\x18"}, {"lzop", "\x89LZO"},
		{"lrzip", "LRZI"}, {"grzip", "GRZipII"}, {"rpm", "\xed\xab\xee\xdb"}, {"uuencode", "begin "},
	} {
		if bytes.HasPrefix(b, []byte(m.magic)) {
			return m.name
		}
	}
	if len(b) >= 4 && bytes.HasPrefix(b, []byte("BZh")) && '1' <= b[3] && b[3] <= '9' {
		return "bzip2"
	}
	return ""
}

// zipHeadRule says why a ZIP's first bytes have a second reading, or "".
func zipHeadRule(head []byte) string {
	if len(head) >= blockSize && tarChecksumReadable(head[:blockSize]) {
		return "its first 512 bytes pass a tar header's checksum, so bsdtar, GNU tar and Python's tarfile would read it as a tar archive"
	}
	for i := range isoSectors {
		at := isoStart + i*isoSector + 1
		for _, id := range isoIdentifiers {
			if len(head) >= at+len(id) && bytes.Equal(head[at:at+len(id)], id) {
				return fmt.Sprintf("it holds the volume descriptor identifier %q at byte %d, so bsdtar and 7-Zip could read it as "+
					"a disc image (ISO 9660 or UDF)", id, at)
			}
		}
	}
	return ""
}

// endRecordRule says why a ZIP end record's signature found at byte at of
// a stream of size bytes (what names the stream) gives it a second
// reading, or "".
func endRecordRule(what string, at, size int64) string {
	if at < 0 || at < size-endSearch {
		return ""
	}
	return fmt.Sprintf("%s holds a ZIP end record's signature (PK\\x05\\x06) at byte %d, within its last %d bytes, "+
		"where unzip, BusyBox unzip and Python's zipfile look for one: they would read it as a ZIP archive", what, at, endSearch)
}

// tarChecksumReadable reports whether a block passes a tar header's
// checksum as any of the tar readers parses its checksum field and sums
// the block (with the field as spaces, its bytes unsigned or signed).
func tarChecksumReadable(block []byte) bool {
	unsigned, signed := int64(8*' '), int64(8*' ')
	for i, c := range block[:blockSize] {
		if i < offChksum || i >= offTypeflag {
			unsigned += int64(c)
			signed += int64(int8(c))
		}
	}
	for _, v := range checksumReadings(block[offChksum:offTypeflag]) {
		if v == unsigned || v == signed {
			return true
		}
	}
	return false
}

// checksumReadings returns the values that libarchive, GNU tar, BusyBox
// tar and Python's tarfile read from a checksum field (none for a reader
// that refuses it).
func checksumReadings(field []byte) []int64 {
	var values []int64
	for _, read := range []func([]byte) (int64, bool){libarchiveOctal, gnuOctal, busyboxOctal, pythonNumber} {
		if v, ok := read(field); ok {
			values = append(values, v)
		}
	}
	return values
}

// leadingOctal reads octal digits from the start of b, and returns the
// value and the rest.
func leadingOctal(b []byte) (int64, []byte) {
	var v int64
	for len(b) > 0 && '0' <= b[0] && b[0] <= '7' && v < 1<<40 {
		v = v*8 + int64(b[0]-'0')
		b = b[1:]
	}
	return v, b
}

// libarchiveOctal: only spaces, NULs and octal digits; leading spaces and
// tabs skipped, then digits up to the first other byte.
func libarchiveOctal(f []byte) (int64, bool) {
	for _, c := range f {
		if c != ' ' && c != 0 && (c < '0' || c > '7') {
			return 0, false
		}
	}
	v, _ := leadingOctal(bytes.TrimLeft(f, " \t"))
	return v, true
}

// gnuOctal: one leading NUL allowed, then white space, octal digits, and
// the field's end, a NUL or white space after them.
func gnuOctal(f []byte) (int64, bool) {
	if len(f) > 0 && f[0] == 0 {
		f = f[1:]
	}
	f = bytes.TrimLeft(f, " \t\n\v\f\r")
	if len(f) == 0 || f[0] < '0' || f[0] > '7' {
		return 0, false
	}
	v, rest := leadingOctal(f)
	if len(rest) > 0 && rest[0] != 0 && !isCSpace(rest[0]) {
		return 0, false
	}
	return v, true
}

// busyboxOctal: strtoull(field, 8): white space, a sign, digits, then a
// NUL or a space.
func busyboxOctal(f []byte) (int64, bool) {
	f = bytes.TrimLeft(f, " \t\n\v\f\r")
	neg := len(f) > 0 && f[0] == '-'
	if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
		f = f[1:]
	}
	v, rest := leadingOctal(f)
	if len(rest) > 0 && rest[0] != 0 && rest[0] != ' ' {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// pythonNumber: tarfile's nti: base-256 after 0x80 or 0xff; otherwise the
// ASCII text up to the first NUL, stripped, read by int(text or "0", 8).
func pythonNumber(f []byte) (int64, bool) {
	if f[0] == 0x80 || f[0] == 0xff {
		var v int64
		for _, c := range f[1:] {
			v = v<<8 | int64(c)
		}
		if f[0] == 0xff {
			v -= 1 << (8 * (len(f) - 1))
		}
		return v, true
	}
	text := string(bytes.TrimFunc([]byte(cString(f)), func(r rune) bool { return r < 0x80 && isPySpace(byte(r)) }))
	if text == "" {
		return 0, true
	}
	return pythonInt(text)
}

// pythonInt is Python's int(text, 8) for ASCII text: a sign, a 0o prefix
// and underscores between digits.
func pythonInt(text string) (int64, bool) {
	t, neg := text, false
	if t[0] == '+' || t[0] == '-' {
		neg, t = t[0] == '-', t[1:]
	}
	if len(t) < 2 || (t[:2] != "0o" && t[:2] != "0O") {
		t = "0o" + t // strconv reads a prefix and underscores with base 0
	}
	for i := range len(t) {
		if t[i] >= 0x80 || t[i] == '+' || t[i] == '-' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// isCSpace is C's isspace.
func isCSpace(c byte) bool { return c == ' ' || ('\t' <= c && c <= '\r') }

// isPySpace is what Python's str.strip removes of ASCII.
func isPySpace(c byte) bool { return isCSpace(c) || (0x1c <= c && c <= 0x1f) }

// watch is what the readings see of a stream as it is read: its first
// headLen bytes, and where the last ZIP end record's signature starts.
type watch struct {
	head []byte
	n    int64   // bytes seen
	last int64   // where the last signature starts; -1 for none
	tail [3]byte // the last bytes seen, for a signature across two reads
	keep bool    // keep the head
}

func newWatch(keepHead bool) *watch { return &watch{last: -1, keep: keepHead} }

// see takes the next bytes of the stream.
func (w *watch) see(p []byte) {
	if w.keep && w.n < headLen {
		w.head = append(w.head, p[:min(int64(len(p)), headLen-w.n)]...)
	}
	if k := min(w.n, 3); k > 0 && len(p) > 0 {
		var joint [6]byte
		j := append(append(joint[:0], w.tail[3-k:]...), p[:min(len(p), 3)]...)
		for i := range int(k) {
			if i+4 <= len(j) && bytes.Equal(j[i:i+4], zipEndSig) {
				w.last = w.n - k + int64(i)
			}
		}
	}
	for off := 0; ; {
		i := bytes.Index(p[off:], zipEndSig)
		if i < 0 {
			break
		}
		w.last, off = w.n+int64(off+i), off+i+1
	}
	if len(p) >= 3 {
		copy(w.tail[:], p[len(p)-3:])
	} else {
		copy(w.tail[:], append(w.tail[len(p):], p...))
	}
	w.n += int64(len(p))
}

// watched passes a reader's bytes to a watch.
type watched struct {
	r io.Reader
	w *watch
}

func (w watched) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	w.w.see(p[:n])
	return n, err
}
