package archivefile

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rawHdr is a tar header block written byte by byte, so that a test can
// build what archive/tar never writes. Zero fields take a plain regular
// file's values.
type rawHdr struct {
	name, prefix, link string
	typ                byte
	size               int64
	magic              string // ustar by default; "gnu", or "v7" for none
	sizeField          string // the raw size field, instead of size
	mode               string // the raw mode field
	at                 map[int]string
}

const (
	posixMagic = "ustar\x0000"
	gnuMagic   = "ustar  \x00"
)

func (h rawHdr) block() []byte {
	b := make([]byte, blockSize)
	copy(b[0:], h.name)
	mode := h.mode
	switch {
	case mode == "" && h.typ == '5':
		mode = "0000755\x00"
	case mode == "":
		mode = "0000644\x00"
	}
	copy(b[100:], mode)
	copy(b[108:], "0001750\x00")
	copy(b[116:], "0001750\x00")
	size := h.sizeField
	if size == "" {
		size = fmt.Sprintf("%011o\x00", h.size)
	}
	copy(b[124:136], size)
	copy(b[136:], fmt.Sprintf("%011o\x00", 1700000000))
	b[156] = h.typ
	if h.typ == 0 {
		b[156] = '0'
	}
	copy(b[157:], h.link)
	switch h.magic {
	case "":
		copy(b[257:], posixMagic)
	case "gnu":
		copy(b[257:], gnuMagic)
	}
	copy(b[345:500], h.prefix)
	for off, s := range h.at {
		copy(b[off:], s)
	}
	return sum(b)
}

// sum fills in a header block's checksum.
func sum(b []byte) []byte {
	copy(b[148:156], "        ")
	n := 0
	for _, c := range b {
		n += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", n))
	return b
}

// withData is a header and its data, padded to whole blocks; the header's
// size is the data's unless set.
func withData(h rawHdr, data string) []byte {
	if h.size == 0 && h.sizeField == "" {
		h.size = int64(len(data))
	}
	out := append(h.block(), data...)
	return append(out, make([]byte, padded(int64(len(data)))-int64(len(data)))...)
}

func reg(name, data string) []byte { return withData(rawHdr{name: name}, data) }
func dir(name string) []byte       { return rawHdr{name: name, typ: '5'}.block() }

// pax is a PAX extended header of typ ('x' or 'g') with the records kv
// (key, value, key, value...), in order.
func pax(typ byte, kv ...string) []byte {
	var data strings.Builder
	for i := 0; i < len(kv); i += 2 {
		data.WriteString(record(kv[i], kv[i+1]))
	}
	return withData(rawHdr{name: "PaxHeaders/x", typ: typ}, data.String())
}

func record(key, value string) string {
	rest := " " + key + "=" + value + "\n"
	n := len(rest) + 1
	for len(strconv.Itoa(n))+len(rest) != n {
		n++
	}
	return strconv.Itoa(n) + rest
}

// longName is a GNU long name header for name.
func longName(name string) []byte {
	return withData(rawHdr{name: "././@LongLink", typ: 'L', magic: "gnu"}, name+"\x00")
}

// archive gzips the blocks, then the end-of-archive marker.
func archive(parts ...[]byte) []byte {
	return gzipRaw(append(parts, make([]byte, 2*blockSize))...)
}

// gzipRaw gzips the blocks as they are.
func gzipRaw(parts ...[]byte) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	for _, p := range parts {
		_, _ = gz.Write(p)
	}
	_ = gz.Close()
	return buf.Bytes()
}

// goTar is an archive that archive/tar writes.
func goTar(t *testing.T, hdrs ...*tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range hdrs {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(make([]byte, h.Size)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return gzipRaw(buf.Bytes())
}

func TestAcceptsTheLanguage(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("directory/", 20) + "page.html" // over 100 bytes: a prefix, a PAX path or a GNU long name
	cases := []struct {
		name    string
		archive []byte
		entries int
	}{
		{"files and directories", archive(dir("assets/"), reg("assets/a.css", "a{}"), reg("index.html", "<h1>")), 3},
		{"a leading ./ and the root", archive(dir("./"), reg("./index.html", "x"), dir("./guides")), 2},
		{"the root as .", archive(dir("."), reg("index.html", "x")), 1},
		{"directories implied, then named", archive(reg("a/b/c.html", "x"), dir("a/b/"), dir("a")), 3},
		{"a POSIX prefix", archive(withData(rawHdr{name: "page.html", prefix: "guides/deep"}, "x")), 1},
		{"a POSIX prefix in UTF-8", archive(withData(rawHdr{name: "page.html", prefix: "guides/café"}, "x")), 1},
		{"a PAX path", archive(pax('x', "path", long, "mtime", "1700000000.5", "size", "1"), reg("short", "x")), 1},
		{"PAX times and owners", archive(pax('x', "atime", "1.25", "ctime", "1", "uid", "1000", "gid", "0", "uname", "u", "gname", "g"), reg("a.html", "")), 1},
		{"a GNU long name", archive(longName(long), withData(rawHdr{name: long[:100], magic: "gnu"}, "x")), 1},
		{"a comment in a global header", archive(pax('g', "comment", "0123abcd"), reg("a.html", "")), 1},
		{"record padding after the marker", gzipRaw(reg("a.html", "x"), make([]byte, 20*blockSize)), 1},
		{"no end marker", gzipRaw(reg("a.html", "x")), 1},
		{"an NFC name", archive(reg("café/naïve.html", "")), 1},
		{"names alike in other scripts", archive(reg("ß.html", ""), reg("s.html", "")), 2},
		{"archive/tar's own", goTar(t,
			&tar.Header{Typeflag: tar.TypeDir, Name: "assets/", Mode: 0o755},
			&tar.Header{Typeflag: tar.TypeReg, Name: "assets/" + strings.Repeat("x", 120), Mode: 0o644, Size: 3},
			&tar.Header{Typeflag: tar.TypeReg, Name: "ünï/" + long, Mode: 0o644, Size: 700, Format: tar.FormatPAX},
			&tar.Header{Typeflag: tar.TypeReg, Name: "gnu/" + long, Mode: 0o644, Size: 1, Format: tar.FormatGNU},
		), 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n, err := verify(t.Context(), bytes.NewReader(tc.archive))
			if err != nil || n != tc.entries {
				t.Errorf("verify = %d, %v; want %d entries", n, err, tc.entries)
			}
		})
	}
}

// TestAcceptsWhatCommonToolsWrite checks archives of the same small site
// (ten files and directories, one with a non-ASCII name, one with a name
// over 100 bytes) written by GNU tar 1.34 (its own format, and POSIX with
// "tar --format=posix"), bsdtar 3.6, BusyBox tar, Python 3's tarfile and
// git archive with tar.umask 0022, kept in testdata/tools. git archive's
// default (tar.umask 0002, group-writable entries) is refused.
func TestAcceptsWhatCommonToolsWrite(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"gnu-tar", "gnu-tar-posix", "bsdtar", "busybox-tar", "python-tarfile", "git-archive-umask022"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, err := os.ReadFile(filepath.Join("testdata", "tools", name+".tar.gz"))
			if err != nil {
				t.Fatal(err)
			}
			if n, err := verify(t.Context(), bytes.NewReader(a)); err != nil || n != 10 {
				t.Errorf("verify = %d, %v; want 10 entries", n, err)
			}
		})
	}
}

// refusal is an archive the check refuses: the error names entry (when
// not "") and says reason.
type refusal struct {
	name    string
	archive []byte
	entry   string
	reason  string
}

func TestRefusesNames(t *testing.T) {
	t.Parallel()
	runRefusals(t, []refusal{
		{"a backslash", archive(reg(`b\b\passwd.html`, "")), `b\b\passwd.html`, `entry "b\\b\\passwd.html": a name may not contain a backslash`},
		{"an absolute name", archive(reg("/etc/passwd", "")), "/etc/passwd", "a name may not be absolute (start with /)"},
		{"a drive letter", archive(reg("c:x", "")), "c:x", "a name may not start with a drive letter"},
		{"a .. segment", archive(reg("a/../../x", "")), "a/../../x", "a name may not have a . or .. segment"},
		{"a . segment inside", archive(reg("a/./x", "")), "a/./x", "a name may not have a . or .. segment"},
		{"an empty segment", archive(reg("a//x", "")), "a//x", "a name may not have an empty segment (//)"},
		{"a control character", archive(reg("a\tb", "")), "a\tb", "a name may not contain a control character (U+0009)"},
		{"a C1 control character", archive(reg("a\u0085b", "")), "a\u0085b", "(U+0085)"},
		{"a bidi override", archive(reg("evil\u202elmth.exe", "")), "evil\u202elmth.exe", "invisible formatting character (U+202E)"},
		{"invalid UTF-8", archive(reg("a\xffb", "")), "a\xffb", "a name must be valid UTF-8"},
		{"NFD", archive(reg("cafe\u0301.html", "")), "cafe\u0301.html", "a name must be in Unicode normal form NFC"},
		{"too long", archive(pax('x', "path", strings.Repeat("a/", 512)+"b"), reg("x", "")), strings.Repeat("a/", 512) + "b", "a name may not be longer than 1024 bytes"},
		{"a long segment", archive(pax('x', "path", strings.Repeat("a", 256)), reg("x", "")), strings.Repeat("a", 256), "a name's segment may not be longer than 255 bytes"},
		{"too deep", archive(reg(strings.Repeat("d/", 32)+"x", "")), strings.Repeat("d/", 32) + "x", "a name may not have more than 32 segments (directories and the file)"},
		{"a file ending in /", archive(reg("x/", "")), "x/", "only a directory's name may end with /"},
		{"a file named ./", archive(reg("./", "")), "./", "a file may not be named after the archive's root"},
		{"an empty name", archive(reg("", "")), "", "entry 1 (unnamed): its header (type '0') has an empty name and prefix"},
	})
}

func TestRefusesTwoEntriesAlike(t *testing.T) {
	t.Parallel()
	runRefusals(t, []refusal{
		{"the same path", archive(reg("a.html", ""), reg("a.html", "")), "a.html", "an earlier entry has the same path"},
		{"the same path, in another case", archive(reg("A.html", ""), reg("a.html", "")), "a.html", `"a.html" has the same name as an earlier entry's, ignoring case and Unicode form`},
		{"a ligature", archive(reg("ﬁle", ""), reg("file", "")), "file", "ignoring case and Unicode form"},
		{"ß and SS", archive(reg("straße", ""), reg("STRASSE", "")), "STRASSE", "ignoring case and Unicode form"},
		{"a directory twice", archive(dir("d/"), dir("d")), "d", "an earlier entry has the same path"},
		{"a file, then a path through it", archive(reg("a", ""), reg("a/b", "")), "a/b", `its directory "a" is a file earlier in the archive`},
		{"a path, then a file where it went through", archive(reg("a/b", ""), reg("a", "")), "a", "an earlier entry's path goes through it as a directory"},
		{"a directory in another case", archive(dir("b/"), reg("B/passwd.html", "")), "B/passwd.html", `"B" has the same name as an earlier entry's`},
		{"the root twice", archive(dir("./"), dir(".")), ".", "the archive's root (. or ./) may be an entry once only"},
	})
}

func TestRefusesWhatIsNotAFileOrADirectory(t *testing.T) {
	t.Parallel()
	kinds := map[byte]string{'1': "a hard link", '2': "a symbolic link", '3': "a character device", '4': "a block device",
		'6': "a FIFO (named pipe)", 'S': "a GNU sparse file", 'K': "a GNU long link target", '7': "of the type '7'",
		'D': "of the type 'D'", 'V': "of the type 'V'", 0: "an old-style entry (type NUL)"}
	var cases []refusal
	for typ, kind := range kinds {
		h := rawHdr{name: "x", typ: typ, link: "index.html"}
		if typ == 0 {
			h.at = map[int]string{156: "\x00"}
		}
		cases = append(cases, refusal{kind, archive(reg("index.html", ""), h.block()), "x",
			`entry "x": an archive may hold regular files and directories only; this entry is ` + kind})
	}
	cases = append(cases,
		refusal{"a link target on a file", archive(withData(rawHdr{name: "x", link: "/etc/passwd"}, "")), "x", "its header has a link target"},
		refusal{"set-user-ID", archive(withData(rawHdr{name: "x", mode: "0004755\x00"}, "")), "x", "an entry may not be set-user-ID, set-group-ID or sticky (its mode is 4755)"},
		refusal{"a directory with a size", archive(withData(rawHdr{name: "d/", typ: '5'}, "data")), "d/", "a directory's header may not give it a size"},
	)
	runRefusals(t, cases)
}

func TestRefusesHeadersReadersDisagreeOn(t *testing.T) {
	t.Parallel()
	runRefusals(t, []refusal{
		{"a V7 header with a prefix", archive(withData(rawHdr{name: "passwd.html", prefix: "/tmp", magic: "v7"}, "")), "passwd.html",
			"its header is neither POSIX ustar nor GNU format"},
		{"a GNU header with a prefix", archive(withData(rawHdr{name: "passwd.html", prefix: "/tmp", magic: "gnu"}, "")), "passwd.html",
			"its GNU header has data in its prefix area"},
		{"a star trailer", archive(withData(rawHdr{name: "x", at: map[int]string{508: "tar\x00"}}, "")), "x", "the star format"},
		{"leading NULs in the size", archive(withData(rawHdr{name: "x", sizeField: "\x00\x00\x0000000001\x00"}, "x")), "x", "its header's size is not an octal number"},
		{"an underscore in the size", archive(withData(rawHdr{name: "x", sizeField: "0000000_001"}, "x")), "x", "its header's size is not an octal number"},
		{"a base-256 size", archive(withData(rawHdr{name: "x", sizeField: "\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01"}, "x")), "x", "the base-256 form"},
		{"a signed mode", archive(withData(rawHdr{name: "x", mode: "+000644\x00"}, "")), "x", "its header's mode is not an octal number"},
		{"two stacked PAX headers", archive(pax('x', "path", "a.html"), pax('x', "path", "../../tmp/pwned.html"), reg("a.html", "")), "PaxHeaders/x",
			"its extended header (type 'x') follows another (type 'x'): an entry may have one at most"},
		{"a PAX header before a GNU long name", archive(pax('x', "path", "a.html"), longName("../../tmp/pwned.html"), reg("a.html", "")), "././@LongLink",
			"its extended header (type 'L') follows another (type 'x')"},
		{"a GNU long name before a PAX header", archive(longName("a.html"), pax('x', "path", "b.html"), reg("a.html", "")), "PaxHeaders/x",
			"(type 'x') follows another (type 'L')"},
		{"a global header between", archive(pax('x', "path", "a.html"), pax('g'), reg("a.html", "")), "PaxHeaders/x", "(type 'g') follows another (type 'x')"},
		{"an extended header last", archive(pax('x', "path", "a.html")), "PaxHeaders/x", "its extended header is the last header: no entry follows it"},
		{"PAX GNU.sparse.name", archive(pax('x', "GNU.sparse.name", "/tmp/pwned.html"), reg("sparse.html", "")), "sparse.html",
			`its extended header sets "GNU.sparse.name", which the archive may not use (allowed: path, size, mtime, atime, ctime, uid, gid, uname, gname)`},
		{"PAX GNU.sparse.major", archive(pax('x', "GNU.sparse.major", "1"), reg("sparse.html", "")), "sparse.html", `sets "GNU.sparse.major"`},
		{"a PAX linkpath", archive(pax('x', "linkpath", "/etc"), reg("x", "")), "x", `sets "linkpath"`},
		{"a PAX key twice", archive(pax('x', "path", "a", "path", "b"), reg("x", "")), "x", `its extended header sets "path" twice`},
		{"a PAX record of the wrong length", archive(withData(rawHdr{name: "p", typ: 'x'}, "99 path=a\n"), reg("x", "")), "x", "a record's length does not match it"},
		{"a PAX length with a leading zero", archive(withData(rawHdr{name: "p", typ: 'x'}, "012 path=ab\n"), reg("x", "")), "x", "does not start with its length"},
		{"PAX data after the records", archive(withData(rawHdr{name: "p", typ: 'x'}, record("path", "a")+"\x00\x00"), reg("x", "")), "x", "malformed"},
		{"a PAX size that is not the header's", archive(pax('x', "size", "0"), reg("x", "data")), "x", `its extended header's size "0" is not the size in its tar header (4)`},
		{"a PAX mtime that is not a time", archive(pax('x', "mtime", "1e9"), reg("x", "")), "x", `its extended header's mtime "1e9" is not a time in seconds`},
		{"a PAX path with ..", archive(pax('x', "path", "../x"), reg("x", "")), "../x", "a name may not have a . or .. segment"},
		{"a harmful name under a PAX path", archive(pax('x', "path", "x"), reg("../x", "")), "../x",
			`the name "../x" in its tar header, which its extended header replaces, climbs out with ..`},
		{"an absolute name under a GNU long name", archive(longName("x"), withData(rawHdr{name: "/x", magic: "gnu"}, "")), "/x", "is absolute"},
		{"a GNU long name with more after its end", archive(withData(rawHdr{name: "././@LongLink", typ: 'L', magic: "gnu"}, "a\x00../../x\x00"), reg("a", "")), "a",
			"its GNU long name has data after the name's end"},
		{"a global path", archive(pax('g', "path", "/tmp/pwned.html"), reg("global.html", "")), "PaxHeaders/x",
			`a global header may set nothing: its extended header sets "path", which the archive may not use (allowed: comment)`},
		{"a PAX length with a sign", archive(withData(rawHdr{name: "p", typ: 'x'}, "+20 path=other.html\n"), reg("index.html", "")), "index.html",
			`does not start with its length in decimal digits: it starts "+20 "`},
		{"a PAX length after a space", archive(withData(rawHdr{name: "p", typ: 'x'}, " 20 path=other.html\n"), reg("index.html", "")), "index.html",
			"does not start with its length"},
		{"a PAX uid of 2^32", archive(pax('x', "uid", "4294967296"), reg("x", "")), "x", `its extended header's uid "4294967296" is not a decimal number from 0 to 2097151`},
		{"a PAX gid past 2^21", archive(pax('x', "gid", "2097152"), reg("x", "")), "x", `its extended header's gid "2097152"`},
		{"a negative PAX time", archive(pax('x', "mtime", "-1.25"), reg("x", "")), "x", `its extended header's mtime "-1.25" is not a time in seconds from 0`},
		{"a header uid of eight digits", archive(withData(rawHdr{name: "x", at: map[int]string{108: "77777777"}}, "")), "x", "its header's user ID is 16777215, past 2097151"},
		{"a header uid of spaces", archive(withData(rawHdr{name: "x", at: map[int]string{108: "        "}}, "")), "x", "its header's user ID is not an octal number"},
		{"an escape under a PAX path", archive(pax('x', "path", "index.html"), reg("x\x1b]2;pwned\x07.html", "")), "x\x1b]2;pwned\x07.html",
			"which its extended header replaces, holds a control character"},
		{"a C1 control under a PAX path", archive(pax('x', "path", "index.html"), reg("x\u009b31m.html", "")), "x\u009b31m.html",
			"holds a control or invisible formatting character (U+009B)"},
		{"a backslash under a GNU long name", archive(longName("x"), withData(rawHdr{name: `..\\x`, magic: "gnu"}, "")), `..\\x`, "holds a backslash"},
		{"a control character in an extended header's own name", archive(withData(rawHdr{name: "p\n", typ: 'x'}, record("path", "a")), reg("x", "")), "p\n",
			"its extended header's own name \"p\\n\" holds a control character"},
		{"an entry after the end marker", archive(reg("a.html", ""), make([]byte, 2*blockSize), reg("after.html", "")), "after.html",
			`entry "after.html": it comes after the end-of-archive marker, where only zeros may be`},
		{"a byte after the end marker", gzipRaw(reg("a.html", ""), make([]byte, 2*blockSize), []byte{0, 1}), "", "entry 2 (unnamed): it comes after the end-of-archive marker"},
	})
}

func TestRefusesCraftedLengths(t *testing.T) {
	t.Parallel()
	// The 304-byte archive of the review: a link target of 64,000
	// components, refused before its header's data is read.
	target := archive(pax('x', "linkpath", strings.Repeat("../", 64000)), rawHdr{name: "l", typ: '2', link: "x"}.block())
	names := make([][]byte, 0, 20)
	for i := range 10 {
		names = append(names, longName(fmt.Sprintf("%d/%s", i, strings.Repeat("n", 64<<10))), reg(strconv.Itoa(i), ""))
	}
	runRefusals(t, []refusal{
		{"a long link target", target, "PaxHeaders/x", "its extended header holds 192017 bytes, more than the 8192 allowed"},
		{"long names", archive(names...), "././@LongLink", "its extended header holds 65539 bytes, more than the 8192 allowed"},
		{"a decompression bomb", archive(reg("zeros.bin", string(make([]byte, 20<<20)))), "zeros.bin",
			"decompressed, the archive may not be larger than 100 times its size plus 1 MiB"},
	})
	if len(target) > 1024 {
		t.Errorf("the long link target's archive is %d bytes, want a small one", len(target))
	}
}

func TestBoundsTheArchive(t *testing.T) {
	t.Parallel()
	small := defaultLimits
	small.ceiling, small.paths = 1<<20, 3
	check := func(name string, a []byte, want string) {
		t.Run(name, func(t *testing.T) {
			_, err := verifyWithin(t.Context(), bytes.NewReader(a), small)
			var invalid *InvalidError
			if !errors.As(err, &invalid) || !invalid.Unsafe() || !strings.Contains(invalid.Reason, want) {
				t.Errorf("err = %v, want an unsafe archive: %q", err, want)
			}
		})
	}
	check("the ceiling", archive(reg("a", ""), withData(rawHdr{name: "big"}, string(make([]byte, 1<<20)))),
		`entry "big": its size (1048576 bytes) takes the archive past 1 MiB decompressed, the most allowed`)
	check("the paths", archive(reg("a/b/c", ""), reg("d", "")), "the archive may not hold more than 3 files and directories")
}

func TestStopsAtTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	n, err := verify(ctx, bytes.NewReader(archive(reg("a.html", ""))))
	if n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("verify = %d, %v; want context.Canceled before the first entry", n, err)
	}
	// Cancelled while the check reads: it stops at the next entry.
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	parts := make([][]byte, 0, 200)
	for i := range 200 {
		parts = append(parts, reg(fmt.Sprintf("%03d.html", i), "x"))
	}
	r := &cancelAfter{r: bytes.NewReader(archive(parts...)), left: 2000, cancel: cancel}
	n, err = verify(ctx, r)
	if !errors.Is(err, context.Canceled) || n >= 200 {
		t.Errorf("verify = %d, %v; want context.Canceled before the last entry", n, err)
	}
}

// cancelAfter cancels once left bytes are read.
type cancelAfter struct {
	r      *bytes.Reader
	left   int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p[:min(len(p), 64)])
	if c.left -= n; c.left <= 0 {
		c.cancel()
	}
	return n, err
}

func TestHeaderDamageIsCorruption(t *testing.T) {
	t.Parallel()
	b := rawHdr{name: "x"}.block()
	b[0] = 'y' // after the checksum
	_, err := verify(t.Context(), bytes.NewReader(archive(b)))
	var invalid *InvalidError
	if !errors.As(err, &invalid) || invalid.Unsafe() || !strings.Contains(invalid.Reason, "its header's checksum does not match: the archive is corrupt") {
		t.Errorf("err = %#v, want a corrupt archive", err)
	}
}

func runRefusals(t *testing.T, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := verify(t.Context(), bytes.NewReader(tc.archive))
			var invalid *InvalidError
			switch {
			case !errors.As(err, &invalid):
				t.Fatalf("err = %v, want an InvalidError", err)
			case !invalid.Unsafe() || !strings.Contains(invalid.Reason, tc.reason):
				t.Errorf("reason %q (unsafe: %v), want an unsafe archive: %q", invalid.Reason, invalid.Unsafe(), tc.reason)
			case tc.entry != "" && (invalid.Entry != tc.entry || !strings.HasPrefix(invalid.Reason, "entry "+strconv.Quote(tc.entry)+": ")):
				t.Errorf("entry %q, reason %q: want it to name entry %q", invalid.Entry, invalid.Reason, tc.entry)
			}
		})
	}
}

// BenchmarkCraftedLengths times the check on the crafted archives of the
// review and on the longest names the language allows: each must take time
// in proportion to its size (the review's took minutes, or ran out of
// memory).
func BenchmarkCraftedLengths(b *testing.B) {
	deep := make([][]byte, 0, 20000)
	for i := range cap(deep) / 2 {
		name := fmt.Sprintf("%05d/%s%s", i, strings.Repeat("d/", 30), strings.Repeat("n", 200))
		deep = append(deep, pax('x', "path", name), reg("x", ""))
	}
	var names [][]byte
	for i := 0; ; i++ {
		names = append(names, pax('x', "path", fmt.Sprintf("%s%05d", strings.Repeat("n", 250), i)), reg("x", ""))
		if len(archive(names...)) > 10<<10 {
			break
		}
	}
	archives := map[string][]byte{
		"link target of 64,000 components": archive(pax('x', "linkpath", strings.Repeat("../", 64000)), rawHdr{name: "l", typ: '2'}.block()),
		"10 KB of long names":              archive(names...),
		"10,000 names of 1 KB, 32 deep":    archive(deep...),
	}
	for name, a := range archives {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(a)))
			for b.Loop() {
				_, _ = verify(b.Context(), bytes.NewReader(a))
			}
		})
	}
}

// An archive without an end-of-archive marker ends where its last entry
// does, and the check's last read asks for exactly its last bytes: what
// follows them in the gzip stream is still read and held to the rules.
func TestReadsTheGzipStreamPastTheLastEntry(t *testing.T) {
	t.Parallel()
	site := bytes.Join([][]byte{dir("./"), reg("index.html", "<h1>Docs</h1>")}, nil)
	twoMembers := append(gzipRaw(site[:581]), gzipRaw(site[581:])...)
	badTrailer := gzipRaw(site)
	badTrailer[len(badTrailer)-5] ^= 0xff // in the CRC-32 of the only member
	cases := []struct {
		name, archive string
		want          string
	}{
		{"junk after the only member", string(gzipRaw(site)) + "trailing junk", "it goes on after its end with data that is not gzip"},
		{"junk after the second member", string(twoMembers) + "trailing junk", "it goes on after its end with data that is not gzip"},
		{"a wrong checksum in the last trailer", string(badTrailer), "its gzip checksum does not match its content"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n, err := verify(t.Context(), strings.NewReader(tc.archive))
			var invalid *InvalidError
			if !errors.As(err, &invalid) || !strings.Contains(invalid.Reason, tc.want) {
				t.Errorf("verify = %d entries, %v; want %q", n, err, tc.want)
			}
		})
	}
	if n, err := verify(t.Context(), bytes.NewReader(twoMembers)); n != 1 || err != nil {
		t.Errorf("without the junk: verify = %d, %v; want the entry", n, err)
	}
}
