package archivefile_test

import (
	"os"
	"path/filepath"
	"testing"
)

// The fuzz targets of the ZIP check, with the invariants of the tar ones
// (fuzz_test.go, checkArchive) and the ZIP oracle; `make fuzz` runs them
// with the others.

// FuzzCheckZip fuzzes the ZIPs real tools write (testdata/tools) and a
// small site: the seed picks one, edits (offset high, offset low, byte)
// change its bytes.
func FuzzCheckZip(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "tools", "*.zip"))
	archives := [][]byte{siteZip().bytes()}
	for _, name := range names {
		archive, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		archives = append(archives, archive)
	}
	for i := range archives {
		f.Add(uint8(i), []byte{})
		f.Add(uint8(i), []byte{0, 8, 0, 0, 20, 0xff})
	}
	c := fuzzChecker(f)
	f.Fuzz(func(t *testing.T, which uint8, edits []byte) {
		checkArchive(t, c, edited(archives[int(which)%len(archives)], edits), judgeZip, nil)
	})
}

// FuzzCheckZipGenerated fuzzes the generator's ZIPs: the seed picks a site
// and its hostile constructs, edits change its bytes.
func FuzzCheckZipGenerated(f *testing.F) {
	for seed := range uint64(16) {
		f.Add(seed, []byte{})
		f.Add(seed, []byte{0, 7, 0, 0, 6, 8})
	}
	c := fuzzChecker(f)
	f.Fuzz(func(t *testing.T, seed uint64, edits []byte) {
		g := &generator{rnd: seeded(seed, 0), canary: "/nonexistent/canary"}
		checkArchive(t, c, edited(g.zipNext().archive, edits), judgeZip, nil)
	})
}

// edited is a copy of archive with edits (offset high, offset low, byte)
// made.
func edited(archive, edits []byte) []byte {
	archive = append([]byte{}, archive...)
	for i := 0; i+2 < len(edits); i += 3 {
		archive[(int(edits[i])<<8|int(edits[i+1]))%len(archive)] = edits[i+2]
	}
	return archive
}

// siteZip is a small valid ZIP: a directory, a stored file, a deflated one
// with a data descriptor, a Unix one with a UTF-8 name.
func siteZip() *zArchive {
	return &zArchive{entries: []zEntry{
		{name: "guides/", external: 0x10},
		{name: "index.html", data: []byte("<h1>Docs</h1>")},
		{name: "guides/intro.html", data: []byte("<h1>Intro</h1><p>Intro</p><p>Intro</p>"), deflate: true, descriptor: true},
		{name: "guides/café.html", data: []byte("<h1>Café</h1>"), deflate: true, flags: 0x800, madeBy: 3 << 8, external: 0o100644 << 16},
	}}
}
