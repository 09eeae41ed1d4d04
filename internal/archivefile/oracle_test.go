package archivefile_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// The oracle: an independent reading of a tar.gz, block by block, the way
// GNU tar reads one, and a judgement of whether it is in the language a
// static export is made of (regular files and directories with plain
// names, modes others may read but not change). It knows where the
// extractors read otherwise: BusyBox tar takes a header block with an empty
// name and prefix for an end block and reads the next block as a header;
// Python's tarfile reads PAX records on into an extended header's padding,
// and it and GNU tar read a GNU long name on into its padding. It shares no code with the check, so that the two can disagree;
// the differential test and the fuzz targets fail when the check accepts
// what the oracle calls outside the language.

// oEntry is an entry as the oracle reads it.
type oEntry struct {
	path string // cleaned: no leading "./", no trailing "/"
	dir  bool
	size int64
	sum  [sha256.Size]byte
}

// oracleLimit bounds what the oracle decompresses: the test inputs are
// small, and a larger one is outside what the test means to accept.
const oracleLimit = 64 << 20

// judge reads a tar.gz and returns its entries, or why it is outside the
// language ("" when inside).
func judge(archive []byte) ([]oEntry, string) {
	if len(archive) > 3 && archive[3]&0xe0 != 0 { // the first member's: GNU gzip stops there
		return nil, "GNU gzip refuses the reserved flag bits of a gzip header"
	}
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return nil, "not gzip: " + err.Error()
	}
	tarball, err := io.ReadAll(io.LimitReader(zr, oracleLimit+1))
	if err != nil {
		return nil, "gzip: " + err.Error()
	}
	if len(tarball) > oracleLimit {
		return nil, "decompresses to more than the oracle reads"
	}
	return judgeTar(tarball)
}

// pending is what extended headers said about the next entry.
type pending struct {
	records  map[string]string
	longName string
	count    int
}

// judgeTar reads an uncompressed tar.
func judgeTar(tarball []byte) ([]oEntry, string) {
	j := &tarJudge{tarball: tarball, seen: map[string]bool{}, implied: map[string]bool{}}
	for pos := 0; ; {
		if pos+512 > len(tarball) && pos != len(tarball) {
			return nil, "ends inside a block"
		}
		if pos == len(tarball) || allZero(tarball[pos:pos+512]) { // the end marker, or the end
			if problem := j.end(pos); problem != "" {
				return nil, problem
			}
			return j.entries, ""
		}
		next, problem := j.block(pos)
		if problem != "" {
			return nil, problem
		}
		pos = next
	}
}

// tarJudge is judgeTar's reading of one tar, up to where it has read.
type tarJudge struct {
	tarball []byte
	entries []oEntry
	ext     pending
	seen    map[string]bool // folded path -> is a directory
	implied map[string]bool
	global  bool // the last header was a global one
}

// end judges the end marker at pos, what follows it, and what was pending
// there.
func (j *tarJudge) end(pos int) string {
	b := j.tarball[pos:]
	switch {
	case !allZero(b):
		return fmt.Sprintf("non-zero bytes after the end marker at %d", pos)
	case len(b)%512 != 0: // BusyBox tar: "short read"
		return "a partial block after the end marker"
	case j.ext.count > 0 || j.global:
		// Python's tarfile fails on an extended header, even a global one,
		// that the end marker follows.
		return "an extended header without its entry"
	}
	return ""
}

// block judges the header at pos with its data, and returns where the next
// header starts.
func (j *tarJudge) block(pos int) (int, string) {
	b := j.tarball[pos : pos+512]
	if b[0] == 0 && b[345] == 0 {
		return 0, fmt.Sprintf("BusyBox tar reads the header at %d, with no name nor prefix, as an end block and the next block as a header", pos)
	}
	h, problem := parseHeader(b)
	if problem != "" {
		return 0, fmt.Sprintf("header at %d: %s", pos, problem)
	}
	start := pos + 512
	dataLen := (h.size + 511) &^ 511
	if h.size < 0 || int64(start)+dataLen > int64(len(j.tarball)) {
		return 0, fmt.Sprintf("header at %d: data runs past the end", pos)
	}
	body := j.tarball[start : start+int(h.size)]
	full := j.tarball[start : start+int(dataLen)] // with its padding, as Python and GNU tar read extended headers
	j.global = h.typ == 'g'
	return start + int(dataLen), j.header(h, body, full)
}

// header judges one header by its type.
func (j *tarJudge) header(h rawHeader, body, full []byte) string {
	switch h.typ {
	case 'x', 'L':
		return j.extended(h.typ, body, full)
	case 'g':
		return globalProblem(body, full)
	case '0', 0, '5':
		return j.entry(h, body)
	default:
		return fmt.Sprintf("entry type %q", h.typ)
	}
}

// extended notes what a PAX ('x') or GNU long name ('L') header says about
// the next entry.
func (j *tarJudge) extended(typ byte, body, full []byte) string {
	j.ext.count++
	if j.ext.count > 1 {
		return "more than one extended header for an entry"
	}
	var problem string
	if typ == 'L' {
		j.ext.longName, problem = longNameOf(body, full)
		return problem
	}
	j.ext.records, problem = extendedRecords(body, full)
	return problem
}

// globalProblem judges a global header: it may hold a comment only.
func globalProblem(body, full []byte) string {
	recs, problem := extendedRecords(body, full)
	if problem != "" {
		return problem
	}
	for k := range recs {
		if k != "comment" {
			return "a global header sets " + k
		}
	}
	return ""
}

// extendedRecords are the PAX records of an extended header's data, with
// nothing Python's tarfile reads as a record in its padding.
func extendedRecords(body, full []byte) (map[string]string, string) {
	recs, problem := paxRecords(body)
	if problem == "" {
		problem = pythonPadding(full, len(body))
	}
	return recs, problem
}

// entry judges a file or directory, with what extended headers said about
// it, and counts it.
func (j *tarJudge) entry(h rawHeader, body []byte) string {
	e, problem := j.ext.apply(h, body)
	if problem != "" {
		return problem
	}
	j.ext = pending{}
	if problem := place(e, j.seen, j.implied); problem != "" {
		return problem
	}
	if problem := modeProblem(e, h.mode); problem != "" {
		return problem
	}
	if e.path != "" { // the root ("./") is no entry on disk, nor counted
		j.entries = append(j.entries, e)
	}
	return ""
}

// longNameOf is a GNU long name as GNU tar and Python's tarfile read it,
// up to the first NUL of its data and padding, if archive/tar, which
// reads its size only, reads the same.
func longNameOf(body, full []byte) (string, string) {
	name := cstring(full)
	if name != cstring(body) || bytes.IndexByte(body, 0) < 0 {
		return "", fmt.Sprintf("GNU tar and Python read the long name %q, archive/tar %q", name, cstring(body))
	}
	if strings.Trim(string(body[len(name):]), "\x00") != "" {
		return "", "a NUL inside a GNU long name"
	}
	return name, ""
}

// pythonPadding says whether Python's tarfile, which matches records with
// the pattern `(\d+) ([^=]+)=` until one fails, finds one in the padding
// after an extended header's size bytes.
func pythonPadding(full []byte, size int) string {
	pad := full[size:]
	digits := 0
	for digits < len(pad) && '0' <= pad[digits] && pad[digits] <= '9' {
		digits++
	}
	if digits == 0 || digits == len(pad) || pad[digits] != ' ' {
		return ""
	}
	key := pad[digits+1:]
	if eq := bytes.IndexByte(key, '='); eq > 0 {
		return "Python's tarfile reads a PAX record in an extended header's padding"
	}
	return ""
}

// modeProblem says why an entry's mode is outside the language: others
// may read the site but not change it, and the root leaves the directory
// it is extracted into as a directory usually is.
func modeProblem(e oEntry, mode int64) string {
	switch {
	case mode&0o022 != 0:
		return fmt.Sprintf("%q is writable by its group or others (%04o)", e.path, mode)
	case !e.dir && mode&0o400 == 0:
		return fmt.Sprintf("%q is a file its owner cannot read (%04o)", e.path, mode)
	case e.path == "" && mode&0o7777 != 0o755:
		return fmt.Sprintf("the root changes the mode of the directory it is extracted into to %04o", mode)
	}
	return ""
}

// apply makes the entry of header h from the extended headers before it.
func (p pending) apply(h rawHeader, body []byte) (oEntry, string) {
	name := h.name
	if h.prefix != "" {
		name = h.prefix + "/" + h.name
	}
	if p.longName != "" {
		name = p.longName
	}
	size := h.size
	for k, v := range p.records {
		switch k {
		case "path":
			name = v
		case "size":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return oEntry{}, "a bad pax size"
			}
			size = n
		case "uname", "gname":
			if !printable(v) {
				return oEntry{}, "a pax " + k + " that is not printable ASCII"
			}
		case "mtime", "atime", "ctime", "uid", "gid", "comment":
		default:
			return oEntry{}, "the pax key " + strconv.Quote(k)
		}
	}
	if size != h.size {
		return oEntry{}, "a pax size that differs from the header's"
	}
	if h.typ != '5' && strings.HasSuffix(name, "/") {
		return oEntry{}, "a file whose name ends in a slash"
	}
	dir := h.typ == '5'
	if dir && h.size != 0 {
		return oEntry{}, "a directory with data"
	}
	clean, problem := cleanName(name)
	if problem != "" {
		return oEntry{}, fmt.Sprintf("name %q: %s", name, problem)
	}
	if clean == "" && !dir {
		return oEntry{}, "a file at the root"
	}
	return oEntry{path: clean, dir: dir, size: size, sum: sha256.Sum256(body)}, ""
}

// cleanName strips a leading "./" and a trailing "/" from a name in the
// language, or says why it is not in it.
func cleanName(name string) (string, string) {
	switch {
	case !utf8.ValidString(name):
		return "", "not UTF-8"
	case !norm.NFC.IsNormalString(name):
		return "", "not NFC"
	case strings.ContainsRune(name, '\\'):
		return "", "a backslash"
	case strings.HasPrefix(name, "/"):
		return "", "absolute"
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return "", "a control character"
		}
	}
	name = strings.TrimSuffix(name, "/")
	if name == "." {
		return "", ""
	}
	name = strings.TrimPrefix(name, "./")
	if len(name) > 1024 {
		return "", "longer than 1024 bytes"
	}
	for seg := range strings.SplitSeq(name, "/") {
		switch {
		case seg == "" || seg == "." || seg == "..":
			return "", fmt.Sprintf("the segment %q", seg)
		case len(seg) > 255:
			return "", "a segment longer than 255 bytes"
		}
	}
	return name, ""
}

// fold is the strictest comparison of names among file systems: full case
// folding of the NFC form (NFD-normalising file systems compare canonically
// equivalent names equal, which NFC already makes byte-equal), with NTFS's
// upcase table, which makes the dotless ı an I.
var folder = cases.Fold()

func fold(s string) string {
	return strings.ReplaceAll(norm.NFC.String(folder.String(norm.NFC.String(s))), "ı", "i")
}

// printable reports a text of printable ASCII.
func printable(s string) bool {
	for _, r := range s {
		if r < ' ' || r > '~' {
			return false
		}
	}
	return true
}

// place records e among the entries before it: no two entries with the
// same folded path, none under a file, none where a directory is implied.
func place(e oEntry, seen, implied map[string]bool) string {
	if e.path == "" {
		if seen[""] {
			return "the root twice"
		}
		seen[""] = true
		return ""
	}
	key := fold(e.path)
	if _, dup := seen[key]; dup {
		return fmt.Sprintf("%q twice (after folding)", e.path)
	}
	if !e.dir && implied[key] {
		return fmt.Sprintf("%q is a file, and earlier entries are under it", e.path)
	}
	segs := strings.Split(key, "/")
	for i := 1; i < len(segs); i++ {
		parent := strings.Join(segs[:i], "/")
		if isDir, ok := seen[parent]; ok && !isDir {
			return fmt.Sprintf("%q is under a file", e.path)
		}
		implied[parent] = true
	}
	seen[key] = e.dir
	return ""
}

// rawHeader is a header block's fields.
type rawHeader struct {
	name, prefix string
	typ          byte
	size, mode   int64
}

// parseHeader reads a header block in ustar or GNU format.
func parseHeader(b []byte) (rawHeader, string) {
	if !checksumOK(b) {
		return rawHeader{}, "a bad checksum"
	}
	magic := string(b[257:265])
	h := rawHeader{name: cstring(b[0:100]), typ: b[156]}
	switch magic {
	case "ustar\x0000":
		h.prefix = cstring(b[345:500])
	case "ustar  \x00":
		if !allZero(b[345:500]) && (h.typ == '0' || h.typ == 0 || h.typ == '5') {
			return rawHeader{}, "GNU fields (atime, sparse map) set on a plain entry"
		}
	default:
		return rawHeader{}, fmt.Sprintf("neither ustar nor GNU (magic %q)", magic)
	}
	if cstring(b[157:257]) != "" && (h.typ == '0' || h.typ == 0 || h.typ == '5') {
		return rawHeader{}, "a link name" // an extended header's is read by no one
	}
	if !printable(cstring(b[265:297])) || !printable(cstring(b[297:329])) {
		return rawHeader{}, "a user or group name that is not printable ASCII" // tar -tv prints it
	}
	size, ok := parseOctal(b[124:136])
	if !ok {
		return rawHeader{}, "a size that is not octal"
	}
	h.size = size
	if h.mode, ok = parseOctal(b[100:108]); !ok {
		return rawHeader{}, "a mode that is not octal"
	}
	if h.typ == '5' && h.mode&0o300 != 0o300 {
		// GNU tar and BusyBox, not run as root, fail to fill it.
		return rawHeader{}, "a directory its owner cannot write or enter"
	}
	return h, ""
}

// checksumOK checks a header's checksum, unsigned as POSIX says: BusyBox
// tar refuses the signed sum that some old tars wrote.
func checksumOK(b []byte) bool {
	want, ok := parseOctal(b[148:156])
	return ok && want == int64(checksumOf(b))
}

// parseOctal reads a numeric field: octal digits, optionally led by
// spaces and ended by a space or NUL. Base-256 is outside the language.
func parseOctal(f []byte) (int64, bool) {
	s := strings.TrimLeft(string(f), " ")
	if i := strings.IndexAny(s, " \x00"); i >= 0 {
		if strings.Trim(s[i:], " \x00") != "" {
			return 0, false
		}
		s = s[:i]
	}
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(s, 8, 64)
	return n, err == nil && n >= 0
}

// paxRecords parses an extended header's records.
func paxRecords(body []byte) (map[string]string, string) {
	recs := map[string]string{}
	s := string(body)
	for s != "" {
		sp := strings.IndexByte(s, ' ')
		if sp <= 0 {
			return nil, "a malformed pax record"
		}
		n, err := strconv.Atoi(s[:sp])
		if err != nil || n <= sp+1 || n > len(s) || s[n-1] != '\n' {
			return nil, "a malformed pax record"
		}
		kv := s[sp+1 : n-1]
		s = s[n:]
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, "a malformed pax record"
		}
		if _, dup := recs[k]; dup {
			return nil, "a pax key twice"
		}
		if strings.Contains(v, "\x00") {
			return nil, "a NUL in a pax value"
		}
		recs[k] = v
	}
	return recs, ""
}

func cstring(b []byte) string {
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
