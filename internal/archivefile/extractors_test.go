//go:build unix

package archivefile_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// extractor is one of the programs that users extract a bundle with.
type extractor struct {
	name    string
	install string // how to get it, for the error when CI lacks it
	// extract extracts archive into dest, as a user would.
	extract func(archive, dest string) error
}

// requireExtractors is set where all four must be present: in CI.
func requireExtractors() bool {
	return os.Getenv("CI") == "true" || os.Getenv("MINTLIFY_REQUIRE_EXTRACTORS") == "1"
}

// findExtractors returns the extractors on this machine, and the names of
// those missing.
func findExtractors(t *testing.T) (found []extractor, missing []string) {
	t.Helper()
	command := func(name string, args ...string) func(archive, dest string) error {
		return func(archive, dest string) error {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, name, append(slices.Clone(args), archive, "-C", dest)...)
			cmd.Dir = dest
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args[:len(args)+1], " "), err, out)
			}
			return nil
		}
	}
	gnu := ""
	for _, name := range []string{"tar", "gtar"} {
		if out, err := exec.Command(name, "--version").Output(); err == nil && bytes.Contains(out, []byte("GNU tar")) {
			gnu = name
			break
		}
	}
	var set extractorSet
	set.add(gnu != "", extractor{name: "GNU tar", install: "Debian: tar", extract: command(gnu, "--no-same-owner", "-xzf")})
	_, err := exec.LookPath("bsdtar")
	set.add(err == nil, extractor{name: "bsdtar", install: "Debian: libarchive-tools", extract: command("bsdtar", "--no-same-owner", "-xzf")})
	out, err := exec.Command("busybox", "tar", "--help").CombinedOutput()
	set.add(err == nil || bytes.Contains(out, []byte("Usage: tar")),
		extractor{name: "BusyBox tar", install: "Debian: busybox", extract: command("busybox", "tar", "-xzof")})
	py := startPython(t, pythonExtract, "tarfile")
	set.add(py != nil, extractor{name: "Python tarfile", install: "Debian: python3", extract: py})
	return set.found, set.missing
}

// pythonExtract is the way old scripts extract: extractall without a
// filter (Python 3.14 made the "data" filter the default, so the old
// behaviour is asked for by name where the filter exists).
const pythonExtract = `
import sys, tarfile
for line in sys.stdin:
    archive, dest = line.rstrip("\n").split("\t")
    try:
        with tarfile.open(archive) as tf:
            if hasattr(tarfile, "fully_trusted_filter"):
                tf.extractall(dest, filter="fully_trusted")
            else:
                tf.extractall(dest)
        print("ok", flush=True)
    except Exception as e:
        print("error " + repr(e).replace("\n", " "), flush=True)
`

// startPython starts one Python process that extracts archive after
// archive with script (starting one per archive would cost more than the
// extracting), or returns nil when there is no Python; module names it in
// errors.
func startPython(t *testing.T, script, module string) func(archive, dest string) error {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		return nil
	}
	cmd := exec.Command("python3", "-c", script)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	answers := bufio.NewReader(stdout)
	return func(archive, dest string) error {
		if _, err := fmt.Fprintf(stdin, "%s\t%s\n", archive, dest); err != nil {
			return fmt.Errorf("python3: %w", err)
		}
		answer, err := answers.ReadString('\n')
		if err != nil {
			return fmt.Errorf("python3 stopped: %w", err)
		}
		if answer = strings.TrimSpace(answer); answer != "ok" {
			return errors.New("python3 " + module + ": " + answer)
		}
		return nil
	}
}

// TestExtractorsAgreeWithTheCheck is the differential test of the check:
// seeded random archives, valid and hostile, go through the check; every
// one it accepts is extracted by GNU tar, bsdtar, BusyBox tar and Python's
// tarfile (those present; all four in CI), each into an empty directory,
// and then nothing may exist outside that directory, nothing in it may be
// a link, a device or a FIFO, and what is in it must be exactly the
// entries the check counted (file_count), with their content. The oracle
// (oracle_test.go) says what the entries are, reading the archive on its
// own, and must call every accepted archive part of the language.
//
// MINTLIFY_ARCHIVE_SEED=<seed> replays a run, MINTLIFY_ARCHIVE_COUNT=<n>
// makes more archives than the default.
func TestExtractorsAgreeWithTheCheck(t *testing.T) {
	// Beside the other format's: each waits on one extractor process at a
	// time, so together they take half as long on a busy machine.
	t.Parallel()
	found, missing := findExtractors(t)
	announce(t, "tar.gz", found, missing)

	seed, count := diffSeed(t), diffCount(t)
	defer func() {
		if t.Failed() {
			t.Logf("replay with MINTLIFY_ARCHIVE_SEED=%d go test -run 'TestExtractorsAgreeWithTheCheck' ./internal/archivefile/", seed)
		}
	}()
	root := t.TempDir()
	s := newSandbox(t, root)
	c := newChecker(t, filepath.Join(root, "check"))
	accepted, runs := 0, 0
	fails := &failures{t: t, seed: seed, ext: ".tar.gz"}
	spent := make([]time.Duration, len(found))
	// try checks one archive and, when the check accepts it, extracts it
	// with each extractor.
	try := func(label string, archive []byte) {
		entries, err := c.check(archive)
		if err != nil {
			return
		}
		accepted++
		var problems []string
		want, problem := judge(archive)
		switch {
		case problem != "":
			problems = append(problems, "it is outside the language: "+problem)
		case len(want) != entries:
			problems = append(problems, fmt.Sprintf("the oracle reads %d entries", len(want)))
		default:
			path := filepath.Join(root, "archives", "a.tar.gz")
			if err := os.WriteFile(path, archive, 0o600); err != nil {
				t.Fatal(err)
			}
			problems = append(problems, listProblems(path, false, want)...)
			for j, e := range found {
				runs++
				start := time.Now()
				for _, p := range s.extract(e, path, want) {
					problems = append(problems, e.name+": "+p)
				}
				spent[j] += time.Since(start)
			}
			_ = os.Remove(path)
		}
		if len(problems) == 0 {
			return
		}
		fails.report(label, archive, entries, problems)
	}
	// What real tools write (testdata/tools), then the random archives.
	tools := diffInputs(t, ".tar.gz", "archive", seed, count, func(i int) generated {
		return (&generator{rnd: seeded(seed, uint64(i)), canary: s.canary}).next()
	}, try)
	var times []string
	for j, e := range found {
		times = append(times, fmt.Sprintf("%s %v", e.name, spent[j].Round(time.Millisecond)))
	}
	t.Logf("seed %d: %d archives of tools and %d random ones, %d accepted, %d extractions (%s)",
		seed, tools, count, accepted, runs, strings.Join(times, ", "))
	if count >= 100 && accepted < count/5 {
		t.Errorf("only %d of %d archives accepted: the generator no longer makes enough valid ones to test the extractors", accepted, count)
	}
}

// sandbox is where the extractors run: root holds the checker's file, the
// archives, a canary directory that hostile entries aim at, and one
// directory per extraction, its destination nested four levels down so
// that "../" lands somewhere watched.
type sandbox struct {
	t      *testing.T
	root   string
	canary string
	secret []byte
}

func newSandbox(t *testing.T, root string) *sandbox {
	s := &sandbox{t: t, root: root, canary: filepath.Join(root, "canary"), secret: []byte("not to be touched")}
	for _, d := range []string{"archives", "run", "canary"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.canary, "secret"), s.secret, 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// extract runs one extractor and returns what is wrong afterwards.
func (s *sandbox) extract(e extractor, archive string, want []oEntry) []string {
	base := filepath.Join(s.root, "run", "x")
	dest := filepath.Join(base, "l1", "l2", "l3", "out")
	if err := os.MkdirAll(dest, 0o755); err != nil {
		s.t.Fatal(err)
	}
	defer s.clean(base)
	var problems []string
	if err := e.extract(archive, dest); err != nil {
		problems = append(problems, "it failed: "+err.Error())
	}
	problems = append(problems, s.outside(base)...)
	got, onDisk := s.read(dest)
	problems = append(problems, onDisk...)
	return append(problems, compare(got, expected(want))...)
}

// outside lists what appeared outside the destination.
func (s *sandbox) outside(base string) []string {
	var problems []string
	allowed := map[string]bool{
		s.root: true, filepath.Join(s.root, "check"): true, filepath.Join(s.root, "archives"): true,
		filepath.Join(s.root, "run"): true, s.canary: true, filepath.Join(s.canary, "secret"): true,
		base: true, filepath.Join(base, "l1"): true, filepath.Join(base, "l1", "l2"): true,
		filepath.Join(base, "l1", "l2", "l3"): true,
	}
	dest := filepath.Join(base, "l1", "l2", "l3", "out")
	_ = filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			problems = append(problems, "outside the destination: "+err.Error())
			return nil //nolint:nilerr // recorded, and the walk goes on
		case p == dest:
			return fs.SkipDir
		case filepath.Dir(p) == filepath.Join(s.root, "archives") || filepath.Dir(p) == filepath.Join(s.root, "check"):
			return nil
		case !allowed[p]:
			problems = append(problems, "written outside the destination: "+p)
		}
		return nil
	})
	secret := filepath.Join(s.canary, "secret")
	var st syscall.Stat_t
	if b, err := os.ReadFile(secret); err != nil || !bytes.Equal(b, s.secret) {
		problems = append(problems, "the file outside the destination was changed")
	} else if syscall.Lstat(secret, &st) != nil || st.Nlink != 1 {
		problems = append(problems, "the file outside the destination got a hard link")
	}
	return problems
}

// onDisk is what a path in the destination is.
type onDisk struct {
	dir bool
	sum [sha256.Size]byte
}

// read walks the destination: directories and regular files only, each
// file with one link.
func (s *sandbox) read(dest string) (map[string]onDisk, []string) {
	got := map[string]onDisk{}
	var problems []string
	_ = filepath.WalkDir(dest, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, err.Error())
			return nil
		}
		rel, _ := filepath.Rel(dest, p)
		info, err := os.Lstat(p)
		if err != nil {
			problems = append(problems, err.Error())
			return nil
		}
		switch mode := info.Mode(); {
		case rel == ".":
		case mode&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			problems = append(problems, fmt.Sprintf("%q is a symbolic link to %q", rel, target))
		case mode.IsDir():
			_ = os.Chmod(p, 0o755) // a mode the archive gave must not stop the walk
			got[rel] = onDisk{dir: true}
		case mode.IsRegular():
			if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink != 1 {
				problems = append(problems, fmt.Sprintf("%q has %d hard links", rel, st.Nlink))
			}
			_ = os.Chmod(p, 0o644)
			b, err := os.ReadFile(p)
			if err != nil {
				problems = append(problems, err.Error())
			}
			got[rel] = onDisk{sum: sha256.Sum256(b)}
		default:
			problems = append(problems, fmt.Sprintf("%q is a %v", rel, mode.Type()))
		}
		return nil
	})
	return got, problems
}

// expected is what extracting the oracle's entries makes: each entry, and
// the directories above it.
func expected(entries []oEntry) map[string]onDisk {
	want := map[string]onDisk{}
	for _, e := range entries {
		if e.dir {
			want[e.path] = onDisk{dir: true}
		} else {
			want[e.path] = onDisk{sum: e.sum}
		}
		for p := filepath.Dir(e.path); p != "."; p = filepath.Dir(p) {
			if _, ok := want[p]; !ok {
				want[p] = onDisk{dir: true}
			}
		}
	}
	return want
}

// compare lists the differences between the destination and the entries.
func compare(got, want map[string]onDisk) []string {
	var problems []string
	for p, w := range want {
		switch g, ok := got[p]; {
		case !ok:
			problems = append(problems, fmt.Sprintf("%q is missing", p))
		case g.dir != w.dir:
			problems = append(problems, fmt.Sprintf("%q: a directory on disk is %v, in the archive %v", p, g.dir, w.dir))
		case g.sum != w.sum:
			problems = append(problems, fmt.Sprintf("%q: the content differs from the archive's", p))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			problems = append(problems, fmt.Sprintf("%q is not an entry the check counted", p))
		}
	}
	slices.Sort(problems)
	return problems
}

// clean removes an extraction, whatever modes it left.
func (s *sandbox) clean(base string) {
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(base); err != nil {
		s.t.Fatal(err)
	}
}
