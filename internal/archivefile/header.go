package archivefile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A tar header block, read from its raw bytes rather than through
// archive/tar, so that what is checked is what GNU tar, bsdtar, BusyBox tar
// and Python's tarfile read. Every field that one of them reads otherwise
// than another is refused rather than interpreted: a V7 header (no magic),
// text in a GNU header's prefix area, a number with leading NULs, a
// checksum that matches only when bytes count as signed.
const (
	blockSize = 512

	offName     = 0
	offMode     = 100
	offUID      = 108
	offGID      = 116
	offSize     = 124
	offMtime    = 136
	offChksum   = 148
	offTypeflag = 156
	offLinkname = 157
	offMagic    = 257
	offUname    = 265
	offGname    = 297
	offDevMajor = 329
	offDevMinor = 337
	offPrefix   = 345 // POSIX ustar; in a GNU header, where atime, ctime and the sparse map begin
	offPadding  = 500 // POSIX ustar: unused (star puts "tar\x00" at 508)
)

// The entry types of a tar header that the language knows.
const (
	typeReg    = '0'
	typeDir    = '5'
	typePAX    = 'x'
	typeGlobal = 'g'
	typeLongNm = 'L'
)

// rawHeader is what the language reads of a header block.
type rawHeader struct {
	name  string // the name field, joined to the prefix in a POSIX header
	typ   byte
	size  int64
	mode  int64
	gnu   bool // GNU magic rather than POSIX ustar
	links bool // the linkname field is not empty
}

// headerError is a header the language refuses; corrupt marks a header
// whose checksum does not match (damage, not design).
type headerError struct {
	rule    string
	corrupt bool
}

func (e *headerError) Error() string { return e.rule }

// parseHeader reads a header block that is not all zeros. Every byte of
// it is either read and held to the language or required to be zero, as
// every writer leaves it: no reader may find in it what the check did not.
func parseHeader(b *[blockSize]byte) (rawHeader, *headerError) {
	if err := checkChecksum(b); err != nil {
		return rawHeader{}, err
	}
	h := rawHeader{name: cString(b[offName:offMode]), typ: b[offTypeflag]}
	switch h.typ {
	case typeReg, typeDir, typePAX, typeGlobal, typeLongNm:
	default:
		return h, &headerError{rule: kindRule(h.typ)}
	}
	switch magic := string(b[offMagic : offMagic+8]); magic {
	case "ustar\x0000":
		if !allZero(b[offPadding:]) {
			return h, &headerError{rule: "its header has data in the unused bytes at its end (the star format, which readers disagree on)"}
		}
	case "ustar  \x00":
		h.gnu = true
		if !allZero(b[offPrefix:]) {
			return h, &headerError{rule: "its GNU header has data in its prefix area (access times, a sparse map or a name prefix, which readers disagree on)"}
		}
	default:
		return h, &headerError{rule: "its header is neither POSIX ustar nor GNU format (an old V7 header or an unknown one, which readers disagree on)"}
	}
	prefix := ""
	if !h.gnu {
		prefix = cString(b[offPrefix:offPadding])
	}
	if h.name == "" && prefix == "" { // BusyBox tar skips it as an end block and reads the next block as a header
		return h, &headerError{rule: fmt.Sprintf("its header (type %q) has an empty name and prefix, which BusyBox tar reads as "+
			"the end of the archive, reading the next block as a header", h.typ)}
	}
	if prefix != "" {
		h.name = prefix + "/" + h.name
	}
	if h.typ != typeReg && h.typ != typeDir && hasControl(h.name) { // an entry's own name is held to checkName
		return h, &headerError{rule: fmt.Sprintf("its extended header's own name %q holds a control character", h.name)}
	}
	h.links = !allZero(b[offLinkname:offMagic])
	if err := checkTexts(b, h.gnu); err != nil {
		return h, err
	}
	return h, parseNumbers(b, &h)
}

// checkTexts checks the header's text fields: the name and prefix hold
// zeros after their NUL, uname and gname printable ASCII (tar -tv prints
// them, escapes included) then zeros.
func checkTexts(b *[blockSize]byte, gnu bool) *headerError {
	fields := []struct {
		what       string
		start, end int
	}{{"name", offName, offMode}, {"user name", offUname, offGname}, {"group name", offGname, offDevMajor}}
	if !gnu {
		fields = append(fields, struct {
			what       string
			start, end int
		}{"prefix", offPrefix, offPadding})
	}
	for _, f := range fields {
		field := b[f.start:f.end]
		text := cString(field)
		if !allZero(field[min(len(text)+1, len(field)):]) {
			return &headerError{rule: fmt.Sprintf("its header's %s field has data after the NUL that ends it", f.what)}
		}
		if (f.start == offUname || f.start == offGname) && !isPrintableASCII(text) {
			return &headerError{rule: fmt.Sprintf("its header's %s %q is not printable ASCII", f.what, text)}
		}
	}
	return nil
}

// hasControl reports a byte below space, or DEL.
func hasControl(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// isPrintableASCII reports text of the bytes from space to tilde only.
func isPrintableASCII(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// parseNumbers reads the header's numeric fields into h.
func parseNumbers(b *[blockSize]byte, h *rawHeader) *headerError {
	var ok bool
	if h.mode, ok = octal(b[offMode:offUID], false); !ok {
		return &headerError{rule: "its header's mode is not an octal number"}
	}
	if h.size, ok = octal(b[offSize:offMtime], false); !ok {
		return &headerError{rule: "its header's size is not an octal number (the base-256 form for sizes of 8 GiB and more is refused)"}
	}
	for _, f := range []struct {
		what       string
		start, end int
		empty      bool
		most       int64
	}{
		{"user ID", offUID, offGID, true, maxID}, {"group ID", offGID, offSize, true, maxID},
		{"modification time", offMtime, offChksum, false, maxTime},
		{"device major number", offDevMajor, offDevMinor, true, 0}, {"device minor number", offDevMinor, offPrefix, true, 0},
	} {
		n, ok := octal(b[f.start:f.end], f.empty)
		switch {
		case !ok:
			return &headerError{rule: fmt.Sprintf("its header's %s is not an octal number", f.what)}
		case f.start >= offDevMajor && n != 0:
			return &headerError{rule: fmt.Sprintf("its header's %s is %d, where only a device has one", f.what, n)}
		case n > f.most:
			return &headerError{rule: fmt.Sprintf("its header's %s is %d, past %d, the most every extractor reads alike", f.what, n, f.most)}
		}
	}
	return nil
}

// The ranges every extractor reads alike: an ID of seven octal digits
// (the ustar field without base-256; GNU tar fails on a PAX uid of 2^32
// and more, bsdtar wraps it to root), a time of eleven (the ustar field,
// up to the year 2242), not before 1970.
const (
	maxID   = 0o7777777
	maxTime = 0o77777777777
)

// checkChecksum checks the header's checksum: the sum of its bytes, as
// unsigned numbers, with the checksum field counted as spaces.
func checkChecksum(b *[blockSize]byte) *headerError {
	want, ok := octal(b[offChksum:offTypeflag], false)
	if !ok {
		return &headerError{rule: "its header's checksum is not an octal number", corrupt: true}
	}
	sum := int64(8 * ' ')
	for i, c := range b {
		if i < offChksum || i >= offTypeflag {
			sum += int64(c)
		}
	}
	if sum != want {
		return &headerError{rule: "its header's checksum does not match", corrupt: true}
	}
	return nil
}

// octal reads a numeric field as every reader does alike: optional leading
// spaces, octal digits, then only spaces and NULs. A field of optional
// spaces then NULs is zero where empty allows it. Leading NULs, signs, base-256
// and anything else are refused.
func octal(field []byte, empty bool) (int64, bool) {
	s := bytes.TrimLeft(field, " ")
	end := 0
	for end < len(s) && '0' <= s[end] && s[end] <= '7' {
		end++
	}
	for _, c := range s[end:] {
		if c != ' ' && c != 0 {
			return 0, false
		}
	}
	if end == 0 { // GNU tar fails on a field of spaces only ("Blanks in header")
		return 0, empty && len(s) > 0 && s[0] == 0
	}
	if end > 21 { // more than 63 bits
		return 0, false
	}
	n, err := strconv.ParseInt(string(s[:end]), 8, 64)
	return n, err == nil
}

// cString is a name field up to its first NUL, as every reader reads it.
func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// paxRecords are the records of a PAX extended header.
type paxRecords map[string]string

// paxKeys are the PAX keys an entry's extended header may hold: those of
// POSIX that describe a regular file or a directory. Links, sparse files
// (GNU.sparse.*), character sets and vendor keys are refused.
var paxKeys = map[string]bool{
	"path": true, "size": true, "mtime": true, "atime": true, "ctime": true,
	"uid": true, "gid": true, "uname": true, "gname": true,
}

// globalKeys are the keys a global header may hold: a comment, as git
// archive writes, which sets nothing.
var globalKeys = map[string]bool{"comment": true}

// parsePAX reads the records of an extended header's data, "<length>
// <key>=<value>\n" each, strictly: a length in decimal without leading
// zeros that is the record's own, a key in allowed, each key once, values
// in UTF-8 without NUL, and nothing after the last record.
func parsePAX(data []byte, allowed map[string]bool) (paxRecords, string) {
	recs := paxRecords{}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 || sp > 7 || data[0] == '0' || !isDecimal(string(data[:sp])) { // strconv.Atoi takes "+23", tar does not
			return nil, fmt.Sprintf("its extended header is malformed (a record does not start with its length in "+
				"decimal digits: it starts %q)", data[:min(sp+1, 8, len(data))])
		}
		n, err := strconv.Atoi(string(data[:sp]))
		if err != nil || n <= sp+2 || n > len(data) || data[n-1] != '\n' {
			return nil, "its extended header is malformed (a record's length does not match it)"
		}
		key, value, ok := strings.Cut(string(data[sp+1:n-1]), "=")
		switch {
		case !ok || key == "":
			return nil, "its extended header is malformed (a record has no key)"
		case !allowed[key]:
			return nil, fmt.Sprintf("its extended header sets %q, which the archive may not use (allowed: %s)", key, keyList(allowed))
		case hasKey(recs, key):
			return nil, fmt.Sprintf("its extended header sets %q twice", key)
		case !utf8.ValidString(value) || strings.IndexByte(value, 0) >= 0:
			return nil, fmt.Sprintf("its extended header's %q is not UTF-8 text", key)
		}
		recs[key] = value
		data = data[n:]
	}
	return recs, ""
}

func hasKey(m paxRecords, k string) bool { _, ok := m[k]; return ok }

// keyList spells the allowed keys for an error, in a fixed order.
func keyList(allowed map[string]bool) string {
	var keys []string
	for _, k := range []string{"path", "size", "mtime", "atime", "ctime", "uid", "gid", "uname", "gname", "comment"} {
		if allowed[k] {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, ", ")
}

// checkPAXValues checks the values of an entry's records that readers
// parse as numbers: size must equal the header's own size field (so that
// a reader that ignores the record reads the same), the others must be
// decimal as POSIX spells them; uname and gname, which tar -tv prints,
// printable ASCII.
func checkPAXValues(recs paxRecords, headerSize int64) string {
	for key, v := range recs {
		switch key {
		case "size":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n != headerSize || strconv.FormatInt(n, 10) != v {
				return fmt.Sprintf("its extended header's size %q is not the size in its tar header (%d)", v, headerSize)
			}
		case "uname", "gname":
			if !isPrintableASCII(v) {
				return fmt.Sprintf("its extended header's %s %q is not printable ASCII", key, v)
			}
		case "uid", "gid":
			if n, err := strconv.ParseInt(v, 10, 64); !isDecimal(v) || err != nil || n > maxID {
				return fmt.Sprintf("its extended header's %s %q is not a decimal number from 0 to %d (the range every extractor reads alike)", key, v, maxID)
			}
		case "mtime", "atime", "ctime":
			whole, frac, dot := strings.Cut(v, ".")
			n, err := strconv.ParseInt(whole, 10, 64)
			if !isDecimal(whole) || err != nil || n > maxTime || (dot && (!isDecimal(frac) || len(frac) > 9)) {
				return fmt.Sprintf("its extended header's %s %q is not a time in seconds from 0 to %d, digits only "+
					"(and at most 9 after the point)", key, v, int64(maxTime))
			}
		}
	}
	return ""
}

func isDecimal(s string) bool {
	if s == "" || len(s) > 19 {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// kindRule says why an entry of the type typ is refused.
func kindRule(typ byte) string {
	kind := ""
	switch typ {
	case '1':
		kind = "a hard link"
	case '2':
		kind = "a symbolic link"
	case '3':
		kind = "a character device"
	case '4':
		kind = "a block device"
	case '6':
		kind = "a FIFO (named pipe)"
	case 'S':
		kind = "a GNU sparse file"
	case 'K':
		kind = "a GNU long link target"
	case 0:
		kind = "an old-style entry (type NUL), which readers disagree on"
	default:
		kind = fmt.Sprintf("of the type %q", typ)
	}
	return "an archive may hold regular files and directories only; this entry is " + kind
}
