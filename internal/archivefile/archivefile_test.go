package archivefile

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/md5" //nolint:gosec // see archivefile.go
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// entry is one tar entry of a test archive.
type entry struct {
	name, link string
	typ        byte
	body       []byte
}

func file(name string, body []byte) entry { return entry{name: name, typ: tar.TypeReg, body: body} }

func symlinkTo(name, target string) entry {
	return entry{name: name, link: target, typ: tar.TypeSymlink}
}

// tarGz builds a tar.gz the way tar(1) and gzip(1) would.
func tarGz(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		hdr := &tar.Header{Typeflag: e.typ, Name: e.name, Linkname: e.link, Mode: 0o644, Size: int64(len(e.body))}
		if e.typ == tar.TypeXGlobalHeader {
			hdr = &tar.Header{Typeflag: e.typ, PAXRecords: map[string]string{"comment": "made by a test"}}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// random returns n incompressible bytes, the same for the same seed.
func random(seed uint64, n int) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{byte(seed)}).Read(b)
	return b
}

// siteArchive is a realistic archive of several chunks, built once.
func siteArchive(t *testing.T) []byte {
	t.Helper()
	siteOnce.Do(func() { site = buildSite(t) })
	if site == nil {
		t.Fatal("building the site archive failed")
	}
	return site
}

var (
	siteOnce sync.Once
	site     []byte
)

func buildSite(t *testing.T) []byte {
	return tarGz(t,
		entry{typ: tar.TypeXGlobalHeader},
		entry{name: "./", typ: tar.TypeDir},
		file("./index.html", []byte("<!doctype html><h1>Docs</h1>")),
		entry{name: "assets/", typ: tar.TypeDir},
		file("assets/video.mp4", random(1, 1500<<10)),
		file("assets/logo.png", random(2, 300<<10)),
		entry{name: "assets/latest.mp4", link: "video.mp4", typ: tar.TypeSymlink},
		entry{name: "guides/home.html", link: "../index.html", typ: tar.TypeSymlink},
		entry{name: "guides/index.html", link: "index.html", typ: tar.TypeLink},
		symlinkTo("current", "assets/"), // a link to a directory, with nothing under it
		file("guides/../about.html", []byte("<h1>About</h1>")),
	)
}

// onlyFiles lists dir's entries.
func onlyFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWritesAVerifiedArchive(t *testing.T) {
	t.Parallel()
	archive := siteArchive(t)
	dest := filepath.Join(t.TempDir(), "out", "nested", "bundle.tar.gz")
	f, err := Create(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	// Small, uneven reads, as from a network.
	n, err := f.ReadFrom(iotest.HalfReader(bytes.NewReader(archive)))
	if err != nil || n != int64(len(archive)) {
		t.Fatalf("ReadFrom = %d, %v; want %d bytes", n, err, len(archive))
	}
	if !strings.HasPrefix(filepath.Base(f.TempPath()), ".bundle.tar.gz.") || filepath.Dir(f.TempPath()) != filepath.Dir(dest) {
		t.Errorf("temporary file %s is not a hidden file beside %s", f.TempPath(), dest)
	}
	sum, id, err := f.Commit(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Summary{SHA256: sha256.Sum256(archive), MD5: md5.Sum(archive), Size: int64(len(archive)), Entries: 10} //nolint:gosec
	if sum != want {
		t.Errorf("summary = %+v, want %+v", sum, want)
	}
	written, err := os.ReadFile(dest)
	if err != nil || !bytes.Equal(written, archive) {
		t.Fatalf("the file holds %d bytes (%v), want the archive's %d", len(written), err, len(archive))
	}
	if found, err := Identify(dest); err != nil || found != id || id.IsZero() {
		t.Errorf("Identify = %+v, %v; Commit said %+v", found, err, id)
	}
	if files := onlyFiles(t, filepath.Dir(dest)); !slices.Equal(files, []string{"bundle.tar.gz"}) {
		t.Errorf("the directory holds %v, want the archive alone", files)
	}
	if err := f.Discard(); err != nil {
		t.Errorf("Discard after Commit: %v", err)
	}

	sha, size, err := HashFile(dest)
	if err != nil || sha != want.SHA256 || size != want.Size {
		t.Errorf("HashFile = %x, %d, %v", sha, size, err)
	}
	digest, err := DigestFile(dest)
	if err != nil || digest.SHA256 != want.SHA256 || digest.MD5 != want.MD5 || digest.Size != want.Size {
		t.Errorf("DigestFile = %+v, %v", digest, err)
	}
}

func TestRefusesInvalidArchives(t *testing.T) {
	t.Parallel()
	good := siteArchive(t)
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0xff
	small := tarGz(t, file("index.html", []byte("<h1>Docs</h1>")))
	flippedHeader := bytes.Clone(small)
	flippedHeader[12] ^= 0x55 // inside the first deflate block's header

	cases := []struct {
		name    string
		archive []byte
		reason  string
		entry   string
	}{
		{"truncated", good[:len(good)/2], "it ends early (after 4 entries): the archive is truncated", ""},
		{"truncated in the gzip header", good[:5], "it ends early (at its start): the archive is truncated", ""},
		{"corrupt", flipped, "its gzip checksum does not match its content: the archive is corrupt", ""},
		{"corrupt deflate stream", flippedHeader, "its compressed data is corrupt", ""},
		{"empty", nil, "it is empty", ""},
		{"not gzip", []byte("<html>Access Denied</html>"), "it is not gzip-compressed", ""},
		{"trailing garbage", append(bytes.Clone(small), "and then some bytes that are not gzip"...), "it goes on after its end with data that is not gzip", ""},
		{"a ../ entry", tarGz(t, file("index.html", nil), file("../escape.html", nil)), `entry "../escape.html" climbs out of the archive's directory with ".."`, "../escape.html"},
		{"a deeper escape", tarGz(t, file("a/../../x", nil)), `entry "a/../../x" climbs out`, "a/../../x"},
		{"a backslash escape", tarGz(t, file(`..\x`, nil)), `entry "..\\x" climbs out`, `..\x`},
		{"an absolute path", tarGz(t, file("/etc/cron.d/x", nil)), `entry "/etc/cron.d/x" has an absolute path`, "/etc/cron.d/x"},
		{"a drive letter", tarGz(t, file("C:/x", nil)), `entry "C:/x" has an absolute path`, "C:/x"},
		{"a symbolic link out", tarGz(t, entry{name: "assets/x", link: "../../etc/passwd", typ: tar.TypeSymlink}),
			`entry "assets/x" is a symbolic link to "../../etc/passwd", which points outside the archive`, "assets/x"},
		{"an absolute symbolic link", tarGz(t, entry{name: "x", link: "/etc/passwd", typ: tar.TypeSymlink}),
			`entry "x" is a symbolic link to "/etc/passwd"`, "x"},
		{"a hard link out", tarGz(t, entry{name: "x", link: "../y", typ: tar.TypeLink}),
			`entry "x" is a hard link to "../y", which climbs out`, "x"},
		{"a symbolic link chain", tarGz(t, entry{name: "d/", typ: tar.TypeDir}, symlinkTo("d/up", ".."), symlinkTo("d/up/up", ".."), file("d/up/up/pwned.txt", nil)),
			`entry "d/up/up" goes through "d/up", a symbolic link earlier in the archive`, "d/up/up"},
		{"a file through a link inside", tarGz(t, entry{name: "v2/", typ: tar.TypeDir}, symlinkTo("latest", "v2"), file("latest/index.html", nil)),
			`entry "latest/index.html" goes through "latest", a symbolic link earlier in the archive`, "latest/index.html"},
		{"a link through a link, spelt in another case", tarGz(t, symlinkTo("d/up", ".."), symlinkTo("D/UP/up", "..")),
			`entry "D/UP/up" goes through "d/up"`, "D/UP/up"},
		{"a .. after a link", tarGz(t, entry{name: "sub/", typ: tar.TypeDir}, symlinkTo("l", "sub"), file("l/../x", nil)),
			`entry "l/../x" goes through "l"`, "l/../x"},
		{"a link out through an earlier link", tarGz(t, symlinkTo("root", "."), symlinkTo("x", "root/../etc")),
			`entry "x" is a symbolic link to "root/../etc", which points outside the archive`, "x"},
		{"a hard link out through a symbolic link", tarGz(t, symlinkTo("root", "."), entry{name: "h", link: "root/../etc/passwd", typ: tar.TypeLink}),
			`entry "h" is a hard link to "root/../etc/passwd", which leads outside the archive through a symbolic link`, "h"},
		{"a link that a later link would send out", tarGz(t, symlinkTo("x", "y/.."), symlinkTo("y", ".")),
			`entry "y" is a symbolic link, but an earlier link leads through "y" as a directory`, "y"},
		{"an absolute hard link", tarGz(t, entry{name: "h", link: "/etc/passwd", typ: tar.TypeLink}),
			`entry "h" is a hard link to "/etc/passwd", which has an absolute path`, "h"},
		{"a character device", tarGz(t, file("index.html", nil), entry{name: "tty", typ: tar.TypeChar}),
			`entry "tty" is a character device, not a regular file, a directory or a link`, "tty"},
		{"a block device", tarGz(t, entry{name: "sda", typ: tar.TypeBlock}), `entry "sda" is a block device`, "sda"},
		{"a FIFO", tarGz(t, entry{name: "pipe", typ: tar.TypeFifo}), `entry "pipe" is a FIFO (named pipe)`, "pipe"},
		{"an unknown type", tarGz(t, entry{name: "v", typ: 'V'}), `entry "v" is of the special type "V"`, "v"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			dest := filepath.Join(dir, "bundle.tar.gz")
			f, err := Create(dest, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.ReadFrom(bytes.NewReader(tc.archive))
			var invalid *InvalidError
			if !errors.As(err, &invalid) || !strings.Contains(invalid.Reason, tc.reason) || invalid.Entry != tc.entry {
				t.Fatalf("err = %#v, want an InvalidError saying %q about entry %q", err, tc.reason, tc.entry)
			}
			if invalid.Unsafe() != (tc.entry != "") {
				t.Errorf("Unsafe() = %v", invalid.Unsafe())
			}
			if _, _, err := f.Commit(nil); err == nil {
				t.Error("Commit of an invalid archive succeeded")
			}
			if err := f.Discard(); err != nil {
				t.Error(err)
			}
			if files := onlyFiles(t, dir); len(files) != 0 {
				t.Errorf("left behind: %v", files)
			}
		})
	}
}

// failingReader delivers the first n bytes of data, then err.
type failingReader struct {
	data []byte
	n    int
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, r.err
	}
	n := copy(p, r.data[:min(len(p), r.n)])
	r.data, r.n = r.data[n:], r.n-n
	return n, nil
}

func TestResetStartsOver(t *testing.T) {
	t.Parallel()
	archive := siteArchive(t)
	dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
	f, err := Create(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	cut := errors.New("connection reset")
	for _, at := range []int{len(archive) - 100, 1 << 20, 10} {
		if err := f.Reset(); err != nil {
			t.Fatal(err)
		}
		// A read error is the reader's, even though the archive is cut short.
		if _, err := f.ReadFrom(&failingReader{data: archive, n: at, err: cut}); !errors.Is(err, cut) {
			t.Fatalf("cut after %d bytes: err = %v, want the read error", at, err)
		}
	}
	if err := f.Reset(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFrom(bytes.NewReader(archive)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Commit(nil); err != nil {
		t.Fatal(err)
	}
	if written, _ := os.ReadFile(dest); !bytes.Equal(written, archive) {
		t.Errorf("after three failed attempts the file holds %d bytes, want the archive's %d", len(written), len(archive))
	}
}

func TestCreateRefusesWhatCannotHoldAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "a-file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(filepath.Join(blocker, "bundle.tar.gz"), Options{}); err == nil {
		t.Error("Create under a regular file succeeded")
	}
}
