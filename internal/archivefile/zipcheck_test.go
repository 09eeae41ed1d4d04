package archivefile_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// TestZipOfToolsAccepted checks that the ZIPs real tools write
// (testdata/tools/*.zip) are in the language, with their entries counted,
// when they give Unix modes and no owner (7-Zip, Python's zipfile); and
// that those that give owners (Info-ZIP zip and bsdtar by default, the ux
// field) or no Unix mode (git archive) are refused, naming why.
func TestZipOfToolsAccepted(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "tools", "*.zip"))
	if len(names) == 0 {
		t.Fatal("no ZIP in testdata/tools")
	}
	refused := map[string]string{
		"bsdtar.zip": "Info-ZIP's Unix owner (ux, 0x7875)", "infozip.zip": "Info-ZIP's Unix owner (ux, 0x7875)",
		"git-archive.zip": "it was made on MS-DOS, without a Unix mode",
	}
	c := newChecker(t, t.TempDir())
	for _, name := range names {
		archive, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := c.check(archive)
		if reason, ok := refused[filepath.Base(name)]; ok {
			if err == nil || !strings.Contains(err.Error(), reason) {
				t.Errorf("%s: %v, want it refused: %q", name, err, reason)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if entries < 3 {
			t.Errorf("%s: %d entries, want at least 3", name, entries)
		}
		if got := c.f.Summary().Format; got != "zip" {
			t.Errorf("%s: format %q, want zip", name, got)
		}
	}
}

// TestZipRefusals checks that each construct outside the ZIP language is
// refused with an error that names the entry (where one is to blame) and
// the rule.
func TestZipRefusals(t *testing.T) {
	index := func() zEntry { return zEntry{name: "index.html", data: []byte("<h1>Docs</h1>"), deflate: true} }
	with := func(change func(a *zArchive)) []byte {
		a := &zArchive{entries: []zEntry{{name: "guides/", external: 0x10}, index()}}
		change(a)
		return a.bytes()
	}
	last := func(change func(e *zEntry)) []byte {
		return with(func(a *zArchive) { change(&a.entries[len(a.entries)-1]) })
	}
	add := func(e zEntry) []byte { return with(func(a *zArchive) { a.entries = append(a.entries, e) }) }
	unix := func(name string, mode uint32) zEntry {
		return zEntry{name: name, data: []byte("x"), madeBy: 3 << 8, external: mode << 16}
	}
	other, twelve := "../index.html", uint16(12)
	var up bytes.Buffer
	up.WriteString("\x01\x00\x00\x00\x00../evil.html")
	cases := []struct {
		name, entry, reason string
		archive             []byte
	}{
		{"a symbolic link", "link.html", "its Unix mode makes it a symbolic link", add(unix("link.html", 0o120777))},
		{"7-Zip's link on MS-DOS", "l.html", "it was made on MS-DOS, without a Unix mode",
			add(zEntry{name: "l.html", data: []byte("x"), external: 0o120777<<16 | 0x8000, dos: true})},
		{"an MS-DOS directory", "d/", "it was made on MS-DOS, without a Unix mode", add(zEntry{name: "d/", external: 0x10, dos: true})},
		{"a mode without a kind", "k.html", "gives no kind of file", add(unix("k.html", 0o644))},
		{"a file others may write", "w.html", "may not be writable by its group or others (g+w, o+w; its mode is 0666)", add(unix("w.html", 0o100666))},
		{"a file of mode 0", "z.html", "a file's mode must let its owner read it (u+r; its mode is 0000)", add(unix("z.html", 0o100000))},
		{"a directory 0777", "open/", "may not be writable by its group or others", add(zEntry{name: "open/", madeBy: 3 << 8, external: 0o40777 << 16})},
		{"a root at 0700", "./", "the archive's root may not change the mode of the directory it is extracted into: its mode must be 0755 (it is 0700)",
			add(zEntry{name: "./", madeBy: 3 << 8, external: 0o40700 << 16})},
		{"an owner (ux)", "index.html", "Info-ZIP's Unix owner (ux, 0x7875)",
			last(func(e *zEntry) { e.extra = extraRecord(0x7875, []byte{1, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0}) })},
		{"an owner (Ux)", "index.html", "(Ux, 0x7855)", last(func(e *zEntry) { e.extra = extraRecord(0x7855, []byte{0, 0, 0, 0}) })},
		{"an owner (UX)", "index.html", "(UX, 0x5855)", last(func(e *zEntry) { e.extra = extraRecord(0x5855, make([]byte, 12)) })},
		{"an escape in the archive's comment", "", "its end record has a comment that holds the byte 0x1b at 0",
			with(func(a *zArchive) { a.comment = []byte("\x1b]0;pwned\x07") })},
		{"a workflow command in the archive's comment", "", "has a line that starts with \"::\"",
			with(func(a *zArchive) { a.comment = []byte("built by docs\n::add-mask::x") })},
		{"a bell in an entry's comment", "index.html", "its comment holds the byte 0x07",
			last(func(e *zEntry) { e.comment = []byte("ding\x07") })},
		{"a FIFO", "fifo", "makes it a device, FIFO or socket", add(unix("fifo", 0o010644))},
		{"set-user-ID", "s.html", "set-user-ID", add(unix("s.html", 0o104755))},
		{"a locked directory", "locked/", "a directory's mode must let its owner write", add(zEntry{name: "locked/", madeBy: 3 << 8, external: 0o40555 << 16})},
		{"a directory of mode 0", "empty/", "its Unix mode (000000) gives no kind of file", add(zEntry{name: "empty/", madeBy: 3 << 8})},
		{"a directory of mode 0500", "ro5/", "a directory's mode must let its owner write", add(zEntry{name: "ro5/", madeBy: 3 << 8, external: 0o40500 << 16})},
		{"a read-only directory", "ro/", "a directory may not be read-only", add(zEntry{name: "ro/", external: 0x11})},
		{"a name with ..", "../up.html", "a name may not have a . or .. segment", add(zEntry{name: "../up.html", data: []byte("x")})},
		{"an absolute name", "/etc/x", "a name may not be absolute", add(zEntry{name: "/etc/x", data: []byte("x")})},
		{"a backslash", `a\b.html`, "a name may not contain a backslash", add(zEntry{name: `a\b.html`, data: []byte("x")})},
		{"a case alias", "INDEX.html", "same name as an earlier entry's", add(zEntry{name: "INDEX.html", data: []byte("x")})},
		{"a Unicode path", "index.html", "Unicode path (0x7075)", last(func(e *zEntry) { e.extra = extraRecord(0x7075, up.Bytes()) })},
		{"another central name", "../index.html", "names it otherwise than its local header", last(func(e *zEntry) { e.centralName = &other })},
		{"another central size", "index.html", "its central record gives a CRC-32", last(func(e *zEntry) { e.centralSize = 1 })},
		{"another central CRC", "index.html", "its central record gives a CRC-32", last(func(e *zEntry) { e.centralCRC = 1 })},
		{"other central flags", "index.html", "its central record gives version", last(func(e *zEntry) { e.centralFlags = 0x800 })},
		{"a local size unlike the data", "index.html", "its data is 13 bytes long, where its header says 14",
			last(func(e *zEntry) { e.localSize = 1 })},
		{"encryption", "index.html", "it is encrypted", last(func(e *zEntry) { e.flags |= 1 })},
		{"bzip2", "index.html", "its compression method is 12", last(func(e *zEntry) { e.method, e.deflate = &twelve, false })},
		{"a stored entry with a descriptor", "index.html", "a stored entry may not have a data descriptor",
			last(func(e *zEntry) { e.deflate, e.descriptor = false, true })},
		{"a directory with data", "d/", "a directory's entry must be stored and empty", add(zEntry{name: "d/", data: []byte("x")})},
		{"a needless ZIP64 record", "index.html", "ZIP64 is accepted only where needed", last(func(e *zEntry) { e.zip64 = true })},
		{"an unknown extra field", "index.html", "a record of type 0x756e", last(func(e *zEntry) { e.localExtra = extraRecord(0x756e, []byte("link")) })},
		{"a non-ASCII name from MS-DOS", "café.html", "it was not made on Unix", add(zEntry{name: "café.html", data: []byte("x"), flags: 0x800, dos: true})},
		{"a non-ASCII name without the flag", "café.html", "its UTF-8 flag (bit 11) is not set",
			add(zEntry{name: "café.html", data: []byte("x"), madeBy: 3 << 8})},
		{"an NTFS entry", "n.html", "made on host 10", add(zEntry{name: "n.html", data: []byte("x"), madeBy: 10 << 8})},
		{"a newer version", "index.html", "needs version 6.3", last(func(e *zEntry) { e.version = 63 })},
		{"bytes before the first entry", "", "valid tar.gz or ZIP: it is not gzip-compressed nor a ZIP archive", with(func(a *zArchive) { a.prefix = []byte("MZ") })},
		{"an entry without its record", "", "1 records for 2 local entries", with(func(a *zArchive) { a.dropRecord = true })},
		{"overlapping entries", "", "more records than its 2 local entries", with(func(a *zArchive) { a.repeatRecord = true })},
		{"counts unlike the directory's", "", "counts 3 and 3 records", with(func(a *zArchive) { a.countDelta = 1 })},
		{"two end records", "", "it goes on after its end record", with(func(a *zArchive) { a.twoEnds = true })},
		{"bytes after the end", "", "it goes on after its end record", with(func(a *zArchive) { a.trailer = []byte("x") })},
		{"an end record in the comment", "", "its comment holds the end record's signature",
			with(func(a *zArchive) { a.comment = []byte("PK\x05\x06") })},
		{"a needless ZIP64 end record", "", "its ZIP64 end record is needless", with(func(a *zArchive) { a.zip64End = true })},
		{"an empty ZIP", "", "it holds no entry", with(func(a *zArchive) { a.entries = nil })},
	}
	c := newChecker(t, t.TempDir())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.check(tc.archive)
			var invalid *archivefile.InvalidError
			switch {
			case !errors.As(err, &invalid):
				t.Fatalf("got %v, want an *InvalidError", err)
			case !strings.Contains(err.Error(), tc.reason):
				t.Fatalf("got %q, want it to say %q", err, tc.reason)
			case invalid.Entry != tc.entry:
				t.Fatalf("got the entry %q, want %q (%v)", invalid.Entry, tc.entry, err)
			case invalid.Format() != map[bool]string{true: "", false: "zip"}[tc.name == "bytes before the first entry"]:
				t.Fatalf("the error's format is %q", invalid.Format())
			case !invalid.Unsafe() && tc.name != "bytes before the first entry": // as a web page instead of an archive
				t.Fatalf("%v is not marked unsafe", err)
			}
		})
	}
}

// TestZipOfGoWriterAccepted checks that what Go's archive/zip writes, as a
// fake API would serve a ZIP bundle, is in the language: entries made with
// CreateHeader and SetMode (Unix, with a mode, which every entry needs),
// deflated with data descriptors,
// and large enough to need several buffers of the pipeline. A stored
// entry must be written with CreateRaw, its CRC and sizes known: the
// writer's streamed Store puts them in a data descriptor, after data
// whose end a streaming reader cannot find.
func TestZipOfGoWriterAccepted(t *testing.T) {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, name := range []string{"index.html", "guides/", "guides/intro.html"} {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o644)
		if strings.HasSuffix(name, "/") {
			h.SetMode(fs.ModeDir | 0o755)
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(name, "/") {
			_, _ = fw.Write([]byte(strings.Repeat("<p>"+name+"</p>", 5000)))
		}
	}
	for _, name := range []string{"guides/café.html", "日本語/"} {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o644)
		if strings.HasSuffix(name, "/") {
			h.SetMode(fs.ModeDir | 0o755)
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = fw.Write([]byte(strings.Repeat("x", len(name))))
	}
	big := make([]byte, 3<<20)
	rnd := seeded(1, 1)
	for i := range big {
		big[i] = byte(rnd.Uint32())
	}
	bigHeader := &zip.FileHeader{Name: "img/big.bin", Method: zip.Deflate}
	bigHeader.SetMode(0o644)
	fw, err := w.CreateHeader(bigHeader)
	if err == nil {
		_, err = fw.Write(big)
	}
	if err != nil || w.Close() != nil {
		t.Fatal(err)
	}
	c := newChecker(t, t.TempDir())
	entries, err := c.check(b.Bytes())
	if err != nil || entries != 6 {
		t.Fatalf("got %d entries, %v; want 6 entries", entries, err)
	}
	if want, problem := judgeZip(b.Bytes()); problem != "" || len(want) != entries {
		t.Fatalf("the oracle reads %d entries (%s)", len(want), problem)
	}
}

// TestZipRefusedNeverReachesItsPath checks that a ZIP the check refuses,
// even at its very end (its end record), never appears at the path, and
// that an accepted one does, with its format.
func TestZipRefusedNeverReachesItsPath(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "export.bin")
	for _, tc := range []struct {
		archive []byte
		ok      bool
	}{
		{(&zArchive{entries: siteZip().entries, trailer: []byte("x")}).bytes(), false},
		{siteZip().bytes(), true},
	} {
		f, err := archivefile.Create(dest, archivefile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, readErr := f.ReadFrom(bytes.NewReader(tc.archive))
		sum, _, err := f.Commit(nil)
		_, statErr := os.Stat(dest)
		switch {
		case tc.ok && (readErr != nil || err != nil || statErr != nil || sum.Format != archivefile.FormatZip || sum.Entries != 4):
			t.Fatalf("a valid ZIP: %v, %v, %v, %+v", readErr, err, statErr, sum)
		case !tc.ok && (readErr == nil || err == nil || !errors.Is(statErr, fs.ErrNotExist)):
			t.Fatalf("a refused ZIP: ReadFrom %v, Commit %v, the path: %v", readErr, err, statErr)
		}
	}
}

// TestZipNeededZip64EndRecord checks that a ZIP64 end record is accepted
// where the end record cannot hold the count (65,536 entries), as
// archive/zip reads it.
func TestZipNeededZip64EndRecord(t *testing.T) {
	a := &zArchive{zip64End: true}
	for i := range 1 << 16 {
		a.entries = append(a.entries, zEntry{name: fmt.Sprintf("p/%05d.html", i)})
	}
	archive := a.bytes()
	c := newChecker(t, t.TempDir())
	if entries, err := c.check(archive); err != nil || entries != 1<<16 {
		t.Fatalf("got %d entries, %v; want %d", entries, err, 1<<16)
	}
	r, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil || len(r.File) != 1<<16 {
		t.Fatalf("archive/zip: %v", err)
	}
	a.countDelta = -1
	if _, err := c.check(a.bytes()); err == nil || !strings.Contains(err.Error(), "its ZIP64 end record counts") {
		t.Fatalf("a ZIP64 end record with a wrong count: got %v", err)
	}
}

// TestFormatOf: the format is told by the first bytes alone.
func TestFormatOf(t *testing.T) {
	t.Parallel()
	for head, want := range map[string]string{
		"\x1f\x8b\x08\x00": archivefile.FormatTarGz, "PK\x03\x04": archivefile.FormatZip, "PK\x05\x06": archivefile.FormatZip,
		"PK\x07\x08": "", "PK": "", "": "", "ustar": "", "\x1f": "",
	} {
		if got := archivefile.FormatOf([]byte(head)); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", head, got, want)
		}
	}
}
