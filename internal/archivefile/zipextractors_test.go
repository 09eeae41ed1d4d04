//go:build unix

package archivefile_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// findZipExtractors returns the ZIP extractors on this machine: Info-ZIP
// unzip, bsdtar, BusyBox unzip, Python's zipfile and 7-Zip, and the names
// of those missing.
func findZipExtractors(t *testing.T) (found []extractor, missing []string) {
	t.Helper()
	command := func(name string, args ...string) func(archive, dest string) error {
		return func(archive, dest string) error {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var argv []string
			for _, a := range args {
				argv = append(argv, strings.NewReplacer("ARCHIVE", archive, "DEST", dest).Replace(a))
			}
			cmd := exec.CommandContext(ctx, name, argv...)
			cmd.Dir = dest
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%s: %w: %s", name, err, out)
			}
			return nil
		}
	}
	var set extractorSet
	onPath := func(name string) bool { _, err := exec.LookPath(name); return err == nil }
	set.add(onPath("unzip"), extractor{name: "Info-ZIP unzip", install: "Debian: unzip",
		extract: command("unzip", "-q", "-o", "ARCHIVE", "-d", "DEST")})
	set.add(onPath("bsdtar"), extractor{name: "bsdtar", install: "Debian: libarchive-tools",
		extract: command("bsdtar", "-xf", "ARCHIVE", "-C", "DEST")})
	out, err := exec.Command("busybox", "unzip").CombinedOutput()
	set.add(err == nil || strings.Contains(string(out), "Usage: unzip"), extractor{name: "BusyBox unzip", install: "Debian: busybox",
		extract: command("busybox", "unzip", "-q", "-o", "ARCHIVE", "-d", "DEST")})
	py := startPython(t, pythonUnzip, "zipfile")
	set.add(py != nil, extractor{name: "Python zipfile", install: "Debian: python3", extract: py})
	set.add(onPath("7zz"), extractor{name: "7-Zip", install: "Debian: 7zip",
		extract: command("7zz", "x", "-y", "-bso0", "-bsp0", "-oDEST", "ARCHIVE")})
	return set.found, set.missing
}

// pythonUnzip extracts with zipfile's extractall, as scripts do.
const pythonUnzip = `
import sys, zipfile
for line in sys.stdin:
    archive, dest = line.rstrip("\n").split("\t")
    try:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)
        print("ok", flush=True)
    except Exception as e:
        print("error " + repr(e).replace("\n", " "), flush=True)
`

// TestZipExtractorsAgreeWithTheCheck is the ZIP differential test of issue
// 34, as TestExtractorsAgreeWithTheCheck is tar's: seeded random ZIPs,
// valid and hostile, go through the check; every one it accepts is
// extracted by Info-ZIP unzip, bsdtar, BusyBox unzip, Python's zipfile and
// 7-Zip (those present; all five in CI), each into an empty directory, and
// then nothing may exist outside it, nothing in it may be a link, and what
// is in it must be exactly the entries the check counted, with their
// content. The ZIP oracle (ziporacle_test.go) must call every accepted
// archive part of the language. MINTLIFY_ARCHIVE_SEED and
// MINTLIFY_ARCHIVE_COUNT replay and lengthen it, as for tar.
func TestZipExtractorsAgreeWithTheCheck(t *testing.T) {
	// Beside the other format's: each waits on one extractor process at a
	// time, so together they take half as long on a busy machine.
	t.Parallel()
	found, missing := findZipExtractors(t)
	announce(t, "ZIP", found, missing)
	seed, count := diffSeed(t), zipDiffCount(t)
	defer func() {
		if t.Failed() {
			t.Logf("replay with MINTLIFY_ARCHIVE_SEED=%d go test -run 'TestZipExtractorsAgreeWithTheCheck' ./internal/archivefile/", seed)
		}
	}()
	root := t.TempDir()
	s := newSandbox(t, root)
	c := newChecker(t, filepath.Join(root, "check"))
	accepted := 0
	fails := &failures{t: t, seed: seed, ext: ".zip"}
	try := func(label string, archive []byte) {
		entries, err := c.check(archive)
		if err != nil {
			return
		}
		accepted++
		problems := s.extractAll(found, archive, entries)
		if len(problems) == 0 {
			return
		}
		fails.report(label, archive, entries, problems)
	}
	tools := diffInputs(t, ".zip", "ZIP", seed, count, func(i int) generated {
		return (&generator{rnd: seeded(seed, uint64(i)), canary: s.canary}).zipNext()
	}, try)
	t.Logf("seed %d: %d ZIPs of tools and %d random ones, %d accepted", seed, tools, count, accepted)
	if count >= 100 && accepted < count/4 {
		t.Errorf("only %d of %d ZIPs accepted: the generator no longer makes enough valid ones", accepted, count)
	}
}

// zipDiffCount is MINTLIFY_ARCHIVE_COUNT, or 150: each accepted ZIP
// starts five extractors, four of them a process each.
func zipDiffCount(t *testing.T) int {
	if os.Getenv("MINTLIFY_ARCHIVE_COUNT") == "" {
		return 150
	}
	return diffCount(t)
}

// extractAll judges an accepted ZIP with the oracle and extracts it with
// each extractor, and returns what is wrong.
func (s *sandbox) extractAll(found []extractor, archive []byte, entries int) []string {
	want, problem := judgeZip(archive)
	switch {
	case problem != "":
		return []string{"it is outside the language: " + problem}
	case len(want) != entries:
		return []string{fmt.Sprintf("the oracle reads %d entries", len(want))}
	}
	path := filepath.Join(s.root, "archives", "a.zip")
	if err := os.WriteFile(path, archive, 0o600); err != nil {
		s.t.Fatal(err)
	}
	defer func() { _ = os.Remove(path) }()
	problems := listProblems(path, true, want)
	for _, e := range found {
		for _, p := range s.extract(e, path, want) {
			problems = append(problems, e.name+": "+p)
		}
	}
	return problems
}
