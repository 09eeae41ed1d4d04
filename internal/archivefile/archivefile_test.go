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
		if e.typ == tar.TypeDir {
			hdr.Mode = 0o755
		}
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
		file("guides/index.html", []byte("<h1>Guides</h1>")),
		file("about.html", []byte("<h1>About</h1>")),
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
	want := Summary{SHA256: sha256.Sum256(archive), MD5: md5.Sum(archive), Size: int64(len(archive)), Entries: 6, Format: FormatTarGz} //nolint:gosec
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
		{"truncated", good[:len(good)/2], `it ends early (in entry "assets/video.mp4"): the archive is truncated`, ""},
		{"truncated in the gzip header", good[:5], "it ends early (at its start): the archive is truncated", ""},
		{"corrupt", flipped, "its gzip checksum does not match its content: the archive is corrupt", ""},
		{"corrupt deflate stream", flippedHeader, "its compressed data is corrupt", ""},
		{"empty", nil, "it is empty", ""},
		{"not gzip", []byte("<html>Access Denied</html>"), "it is not gzip-compressed", ""},
		{"trailing garbage", append(bytes.Clone(small), "and then some bytes that are not gzip"...), "it goes on after its end with data that is not gzip", ""},
		{"a ../ entry", tarGz(t, file("index.html", nil), file("../escape.html", nil)), `entry "../escape.html": a name may not have a . or .. segment`, "../escape.html"},
		{"a deeper escape", tarGz(t, file("a/../../x", nil)), `entry "a/../../x": a name may not have a . or .. segment`, "a/../../x"},
		{"a backslash", tarGz(t, file(`b\b\passwd.html`, nil)), `entry "b\\b\\passwd.html": a name may not contain a backslash`, `b\b\passwd.html`},
		{"an absolute path", tarGz(t, file("/etc/cron.d/x", nil)), `entry "/etc/cron.d/x": a name may not be absolute (start with /)`, "/etc/cron.d/x"},
		{"a drive letter", tarGz(t, file("C:/x", nil)), `entry "C:/x": a name may not start with a drive letter`, "C:/x"},
		{"a symbolic link", tarGz(t, file("index.html", nil), symlinkTo("assets/x", "../index.html")),
			`entry "assets/x": an archive may hold regular files and directories only; this entry is a symbolic link`, "assets/x"},
		{"a hard link", tarGz(t, file("index.html", nil), entry{name: "x", link: "index.html", typ: tar.TypeLink}),
			`entry "x": an archive may hold regular files and directories only; this entry is a hard link`, "x"},
		{"a character device", tarGz(t, file("index.html", nil), entry{name: "tty", typ: tar.TypeChar}),
			`entry "tty": an archive may hold regular files and directories only; this entry is a character device`, "tty"},
		{"a block device", tarGz(t, entry{name: "sda", typ: tar.TypeBlock}), `this entry is a block device`, "sda"},
		{"a FIFO", tarGz(t, entry{name: "pipe", typ: tar.TypeFifo}), `this entry is a FIFO (named pipe)`, "pipe"},
		{"an unknown type", tarGz(t, entry{name: "v", typ: 'V'}), `entry "v": an archive may hold regular files and directories only; this entry is of the type 'V'`, "v"},
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
