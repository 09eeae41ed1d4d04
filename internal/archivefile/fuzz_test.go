package archivefile_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// The fuzz targets of the archive check. Their seed corpus is committed in
// testdata/fuzz/<target>/ (one archive of each construct the generator
// knows, with a one-file site) and runs in `go test` like any test;
// `make fuzz` fuzzes each target for its budget of executions. The
// invariants, for every input: the check returns (it never panics), when
// fuzzing within a generous time and allocating a bounded amount; it
// refuses with an *InvalidError; and what it accepts is in the language
// by the oracle's independent reading, with as many entries as the check
// counted, and archive/tar reads the same entries.

// FuzzCheckTar fuzzes the tar inside the gzip: the input is an
// uncompressed tar, compressed before the check reads it, so that the
// fuzzer's changes reach the headers rather than break gzip's checksum.
func FuzzCheckTar(f *testing.F) {
	f.Add(siteTar())
	for _, archive := range toolArchives(f) {
		if zr, err := gzip.NewReader(bytes.NewReader(archive)); err == nil {
			if tarball, err := io.ReadAll(zr); err == nil {
				f.Add(tarball)
			}
		}
	}
	c := fuzzChecker(f)
	f.Fuzz(func(t *testing.T, tarball []byte) { checkInvariants(t, c, gz(tarball)) })
}

// FuzzCheckGzip fuzzes the compressed stream itself: several members,
// trailing bytes, corrupt deflate data, archives that decompress to many
// times their size.
func FuzzCheckGzip(f *testing.F) {
	f.Add(gz(siteTar()))
	f.Add(gz(siteTar(), 700))
	for _, archive := range toolArchives(f) {
		f.Add(archive)
	}
	c := fuzzChecker(f)
	f.Fuzz(func(t *testing.T, archive []byte) { checkInvariants(t, c, archive) })
}

// toolArchives are the archives real tools wrote (testdata/tools).
func toolArchives(f *testing.F) [][]byte {
	names, _ := filepath.Glob(filepath.Join("testdata", "tools", "*.tar.gz"))
	var archives [][]byte
	for _, name := range names {
		archive, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		archives = append(archives, archive)
	}
	return archives
}

// siteTar is a small valid archive.
func siteTar() []byte {
	var w rawTar
	w.entry(header{name: "./", typ: '5'}, nil)
	w.entry(header{name: "./index.html", typ: '0'}, []byte("<h1>Docs</h1>"))
	w.entry(header{name: "./guides/", typ: '5'}, nil)
	w.pax('x', [2]string{"path", "./guides/café.html"})
	w.entry(header{name: "./guides/cafe.html", typ: '0'}, []byte("<h1>Café</h1>"))
	w.end()
	return w.bytes()
}

// fuzzChecker is one checker for a fuzzing process: a File's buffers are
// 8 MiB, too many to make for every input.
func fuzzChecker(f *testing.F) *lockedChecker {
	return &lockedChecker{c: newChecker(f, f.TempDir())}
}

type lockedChecker struct {
	mu sync.Mutex
	c  *checker
}

// Bounds of one input's check: far above what it takes (a few
// milliseconds, a few hundred KiB besides the File's own buffers), so
// that only a hang or a blow-up trips them, never a slow machine.
const (
	fuzzTimeBound  = 10 * time.Second
	fuzzAllocBound = 64 << 20
)

// fuzzing reports whether the test runs with -fuzz.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

// checkInvariants checks one tar.gz.
func checkInvariants(t *testing.T, lc *lockedChecker, archive []byte) {
	checkArchive(t, lc, archive, judge, sameAsArchiveTar)
}

// checkArchive checks one archive, with the oracle of its format (judge)
// and a reading by Go's library of it (sameAsGo, nil for none).
func checkArchive(t *testing.T, lc *lockedChecker, archive []byte, judge func([]byte) ([]oEntry, string),
	sameAsGo func([]byte, []oEntry) string) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	entries, err := lc.c.check(archive)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	// Only while fuzzing: as a test, the corpus is judged on what the
	// check says, never on how fast (the check's costs are measured by
	// its benchmark).
	if fuzzing() && took > fuzzTimeBound {
		t.Errorf("the check of %d bytes took %v", len(archive), took)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; fuzzing() && alloc > fuzzAllocBound {
		t.Errorf("the check of %d bytes allocated %d MiB", len(archive), alloc>>20)
	}
	if err != nil {
		var invalid *archivefile.InvalidError
		if !errors.As(err, &invalid) || invalid.Reason == "" {
			t.Fatalf("refused without an explanation: %v", err)
		}
		return
	}
	want, problem := judge(archive)
	if problem != "" {
		t.Fatalf("the check accepted it with %d entries, but it is outside the language: %s", entries, problem)
	}
	if len(want) != entries {
		t.Fatalf("the check counted %d entries, the oracle reads %d", entries, len(want))
	}
	if sameAsGo == nil {
		return
	}
	if problem := sameAsGo(archive, want); problem != "" {
		t.Fatalf("accepted, but Go's library reads it otherwise: %s", problem)
	}
}

// sameAsArchiveTar reads an accepted archive with archive/tar and compares
// its entries with the oracle's.
func sameAsArchiveTar(archive []byte, want []oEntry) string {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return err.Error()
	}
	tr := tar.NewReader(zr)
	i := 0
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err.Error()
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		name := strings.TrimPrefix(strings.TrimSuffix(hdr.Name, "/"), "./")
		if name == "." || name == "" {
			continue
		}
		if i >= len(want) {
			return fmt.Sprintf("more entries than the oracle: %q", hdr.Name)
		}
		w := want[i]
		dir := hdr.Typeflag == tar.TypeDir
		if name != w.path || dir != w.dir || hdr.Size != w.size || hdr.Linkname != "" ||
			(hdr.Typeflag != tar.TypeReg && !dir) {
			return fmt.Sprintf("entry %d: %q (type %q, %d bytes) where the oracle reads %q (directory %v, %d bytes)",
				i, hdr.Name, hdr.Typeflag, hdr.Size, w.path, w.dir, w.size)
		}
		i++
	}
	if i != len(want) {
		return fmt.Sprintf("%d entries where the oracle reads %d", i, len(want))
	}
	return ""
}

// FuzzCheckGenerated fuzzes the generator's archives: the seed picks a
// site and its hostile constructs, edits (offset high, offset low, byte)
// change bytes of the tar, whose header checksums are then fixed, so that
// the changes reach the check's rules rather than its checksum test.
func FuzzCheckGenerated(f *testing.F) {
	for seed := range uint64(16) {
		f.Add(seed, []byte{})
		f.Add(seed, []byte{0, 156, '5', 0, 124, '7'})
	}
	c := fuzzChecker(f)
	f.Fuzz(func(t *testing.T, seed uint64, edits []byte) {
		g := &generator{rnd: seeded(seed, 0), canary: "/nonexistent/canary"}
		zr, err := gzip.NewReader(bytes.NewReader(g.next().archive))
		if err != nil {
			return
		}
		tarball, err := io.ReadAll(zr)
		if err != nil || len(tarball) == 0 {
			return
		}
		for i := 0; i+2 < len(edits); i += 3 {
			tarball[(int(edits[i])<<8|int(edits[i+1]))%len(tarball)] = edits[i+2]
		}
		fixChecksums(tarball)
		checkInvariants(t, c, gz(tarball))
	})
}

// fixChecksums walks a tar's headers by their sizes and sets each one's
// checksum.
func fixChecksums(tarball []byte) {
	for pos := 0; pos+512 <= len(tarball); {
		b := tarball[pos : pos+512]
		if allZero(b) {
			return
		}
		setChecksum(b)
		size, ok := parseOctal(b[124:136])
		if !ok || size < 0 || size > int64(len(tarball)) {
			return
		}
		pos += 512 + int((size+511)&^511)
	}
}
