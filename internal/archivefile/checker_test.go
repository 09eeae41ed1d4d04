package archivefile_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// checker runs the archive check the way the resource does: through a
// File, whose Summary gives the resource's file_count. One File serves
// many archives (Reset between them), so that its buffers are made once.
type checker struct {
	f *archivefile.File
}

func newChecker(tb testing.TB, dir string) *checker {
	tb.Helper()
	f, err := archivefile.Create(dir+"/bundle.tar.gz", archivefile.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = f.Discard() })
	return &checker{f: f}
}

// check returns the number of entries of an archive the check accepts, or
// its error.
func (c *checker) check(archive []byte) (int, error) {
	if err := c.f.Reset(); err != nil {
		return 0, err
	}
	if _, err := c.f.ReadFrom(bytes.NewReader(archive)); err != nil {
		return 0, err
	}
	return c.f.Summary().Entries, nil
}

// diffSeed is MINTLIFY_ARCHIVE_SEED, or a new seed for each run.
func diffSeed(t *testing.T) uint64 {
	t.Helper()
	if s := os.Getenv("MINTLIFY_ARCHIVE_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MINTLIFY_ARCHIVE_SEED=%q is not a number", s)
		}
		return seed
	}
	return rand.Uint64()
}

// diffCount is MINTLIFY_ARCHIVE_COUNT, or 300.
func diffCount(t *testing.T) int {
	t.Helper()
	if s := os.Getenv("MINTLIFY_ARCHIVE_COUNT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("MINTLIFY_ARCHIVE_COUNT=%q is not a positive number", s)
		}
		return n
	}
	return 300
}

func seeded(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// TestRefusesWhatAnExtractorMishandles holds the archives that the
// differential test or the fuzz targets found accepted by the check and
// mishandled by an extractor; each must now be refused, naming the rule.
func TestRefusesWhatAnExtractorMishandles(t *testing.T) {
	site := func(tail func(w *rawTar)) []byte {
		var w rawTar
		w.entry(header{name: "index.html", typ: '0'}, []byte("<h1>Docs</h1>"))
		tail(&w)
		return gz(w.bytes())
	}
	cases := []struct {
		name    string
		archive []byte
		reason  string
	}{
		{
			// Python's tarfile raises ReadError("empty header") after
			// extracting the files; GNU tar, bsdtar and BusyBox succeed.
			name:    "a global header, then the end marker",
			archive: site(func(w *rawTar) { w.pax('g', [2]string{"comment", "hi"}); w.end() }),
			reason:  "its global header is the last header",
		},
		{
			// BusyBox tar fails with "short read" after extracting the
			// files; the others ignore the partial block.
			name:    "zeros after the end marker that end inside a block",
			archive: site(func(w *rawTar) { w.end(); w.buf.Write(make([]byte, 100)) }),
			reason:  "ends inside a 512-byte block",
		},
		{
			// Not run as root, GNU tar sets the mode once it leaves
			// the directory and BusyBox at once: a later entry into
			// it fails ("Cannot mkdir: Permission denied").
			name: "a directory its owner cannot write",
			archive: site(func(w *rawTar) {
				w.entry(header{name: "img/", typ: '5', mode: 0o555}, nil)
				w.entry(header{name: "other.html", typ: '0'}, []byte("x"))
				w.entry(header{name: "img/logo.png", typ: '0'}, []byte("x"))
			}),
			reason: "a directory's mode must let its owner write and enter it",
		},
		{
			// BusyBox tar skips the empty-named extended header
			// as an end block and reads its data block as a header: a
			// hard link (or a symbolic link, a device) that GNU tar,
			// bsdtar and Python never see.
			name: "an empty-named extended header smuggling a header to BusyBox",
			archive: site(func(w *rawTar) {
				rec := paxRecord("comment", "c")
				w.padded(header{typ: 'g'}, len(rec), withRecord(header{name: "x", typ: '1', link: "index.html", format: "gnu"}.block(), rec))
				w.entry(header{name: "p.html", typ: '0'}, []byte("x"))
				w.end()
			}),
			reason: "has an empty name and prefix, which BusyBox tar reads as the end of the archive",
		},
		{
			// Python's tarfile reads PAX records on into the
			// padding, and extracts p.html to the path found there.
			name: "a PAX record in an extended header's padding",
			archive: site(func(w *rawTar) {
				rec := paxRecord("path", "p.html")
				w.padded(header{name: "PaxHeaders/p", typ: 'x'}, len(rec), []byte(rec+paxRecord("path", "../../pwned")))
				w.entry(header{name: "p.html", typ: '0'}, []byte("x"))
				w.end()
			}),
			reason: "its extended header's padding (after its data, to the end of the block) is not zeros",
		},
		{
			// GNU tar fails: "gzip: stdin has flags 0x80 -- not
			// supported"; the others extract.
			name: "a gzip reserved flag bit",
			archive: func() []byte {
				a := site(func(w *rawTar) { w.end() })
				a[3] |= 0x80
				return a
			}(),
			reason: "it sets reserved flag bits (0x80)",
		},
		{
			name:    "a global header, then the end of the stream",
			archive: site(func(w *rawTar) { w.pax('g', [2]string{"comment", "hi"}) }),
			reason:  "its global header is the last header",
		},
	}
	c := newChecker(t, t.TempDir())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.check(tc.archive)
			if err == nil || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("got %v, want an error saying %q", err, tc.reason)
			}
		})
	}
}
