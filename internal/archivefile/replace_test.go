package archivefile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeFile writes a file of another user's, as a test's stand-in for it.
func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// expectTheirs checks that p holds the file that writeFile wrote for
// another user.
func expectTheirs(t *testing.T, p string) {
	t.Helper()
	if got, err := os.ReadFile(p); err != nil || string(got) != "another user's file" {
		t.Errorf("%s holds %q (%v), want another user's file", p, got, err)
	}
}

// TestCommitNeverReplacesWhatAppearsBeforeTheRename: a file that another
// creates at Path after Commit looked (here, just before the rename) is
// not replaced, and the temporary file goes.
func TestCommitNeverReplacesWhatAppearsBeforeTheRename(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dest := filepath.Join(dir, "bundle.tar.gz")
	f := committable(t, dest, Options{})
	rename := f.ops.rename
	f.ops.rename = func(from, to string) error {
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			writeFile(t, to, "another user's file")
		}
		return rename(from, to)
	}
	if _, _, err := f.Commit(nil); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Commit = %v, want an error saying that Path exists", err)
	}
	expectTheirs(t, dest)
	if files := onlyFiles(t, dir); !slices.Equal(files, []string{"bundle.tar.gz"}) {
		t.Errorf("the directory holds %v", files)
	}
}

// TestCommitReplacesOnlyWhatItMay replaces the regular file that
// mayReplace allows; not a file that takes its place after mayReplace
// was asked.
func TestCommitReplacesOnlyWhatItMay(t *testing.T) {
	t.Parallel()
	t.Run("allowed", func(t *testing.T) {
		t.Parallel()
		dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
		writeFile(t, dest, "the old archive")
		f := committable(t, dest, Options{})
		_, id, err := f.Commit(func(Identity) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Identify(dest); err != nil || got != id {
			t.Errorf("Path holds %+v (%v), want the archive, %+v", got, err, id)
		}
	})
	t.Run("swapped after the check", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		dest := filepath.Join(dir, "bundle.tar.gz")
		writeFile(t, dest, "the old archive")
		f := committable(t, dest, Options{})
		_, _, err := f.Commit(func(Identity) error {
			// Another user swaps the file once it was judged.
			writeFile(t, dest+".theirs", "another user's file")
			if err := os.Rename(dest+".theirs", dest); err != nil {
				t.Fatal(err)
			}
			return nil
		})
		if !errors.Is(err, ErrReplaced) {
			t.Errorf("Commit = %v, want ErrReplaced", err)
		}
		expectTheirs(t, dest)
		if files := onlyFiles(t, dir); !slices.Equal(files, []string{"bundle.tar.gz"}) {
			t.Errorf("the directory holds %v", files)
		}
	})
}

// TestCommitNeverReplacesAnythingButARegularFile leaves a directory, a
// symbolic link and (on Unix) a FIFO at Path, even when mayReplace allows
// anything.
func TestCommitNeverReplacesAnythingButARegularFile(t *testing.T) {
	t.Parallel()
	for name, mk := range specialMakers() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			dest := filepath.Join(dir, "bundle.tar.gz")
			mk(t, dest)
			before, err := os.Lstat(dest)
			if err != nil {
				t.Fatal(err)
			}
			f := committable(t, dest, Options{})
			asked := false
			if _, _, err := f.Commit(func(Identity) error { asked = true; return nil }); !errors.Is(err, ErrNotRegular) {
				t.Errorf("Commit = %v, want ErrNotRegular", err)
			}
			if asked {
				t.Error("mayReplace was asked about something that is not a regular file")
			}
			if after, err := os.Lstat(dest); err != nil || !os.SameFile(before, after) || after.Mode().Type() != before.Mode().Type() {
				t.Errorf("Path holds %v (%v), want the %s as it was", after, err, name)
			}
			if files := onlyFiles(t, dir); slices.ContainsFunc(files, func(n string) bool { return isPartialOf(n, "bundle.tar.gz") }) {
				t.Errorf("the directory holds %v", files)
			}
		})
	}
}

// TestPartialDownloadReplacedByAnother: when another user replaces the
// temporary file (in a directory they can write to), Commit does not take
// their file for the archive, and neither Commit nor Discard deletes it.
func TestPartialDownloadReplacedByAnother(t *testing.T) {
	t.Parallel()
	swap := func(t *testing.T, temp string) {
		t.Helper()
		writeFile(t, temp+".theirs", "another user's file")
		if err := os.Rename(temp+".theirs", temp); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("discarded", func(t *testing.T) {
		t.Parallel()
		f := committable(t, filepath.Join(t.TempDir(), "bundle.tar.gz"), Options{})
		temp := f.TempPath()
		swap(t, temp)
		_ = f.Discard()
		expectTheirs(t, temp)
	})
	t.Run("before the check of Commit", func(t *testing.T) {
		t.Parallel()
		dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
		f := committable(t, dest, Options{})
		temp := f.TempPath()
		swap(t, temp)
		if _, _, err := f.Commit(nil); !errors.Is(err, ErrReplaced) {
			t.Errorf("Commit = %v, want ErrReplaced", err)
		}
		expectTheirs(t, temp)
		if _, err := os.Lstat(dest); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Path exists (%v)", err)
		}
	})
	t.Run("between the check and the rename", func(t *testing.T) {
		t.Parallel()
		dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
		f := committable(t, dest, Options{})
		rename := f.ops.rename
		f.ops.rename = func(from, to string) error { swap(t, from); return rename(from, to) }
		if _, _, err := f.Commit(nil); !errors.Is(err, ErrReplaced) {
			t.Errorf("Commit = %v, want ErrReplaced: Path holds their file, not the archive", err)
		}
		expectTheirs(t, dest)
	})
}

// TestRemoveIfRemovesOnlyThatFile removes the file of the identity given,
// and leaves another that took its place.
func TestRemoveIfRemovesOnlyThatFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "bundle.tar.gz")
	writeFile(t, p, "the archive")
	id, err := Identify(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p+".theirs", "another user's file")
	if err := os.Rename(p+".theirs", p); err != nil {
		t.Fatal(err)
	}
	if err := RemoveIf(p, id); !errors.Is(err, ErrReplaced) {
		t.Errorf("RemoveIf of a file that took the place = %v, want ErrReplaced", err)
	}
	expectTheirs(t, p)
	theirs, err := Identify(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := RemoveIf(p, theirs); err != nil {
		t.Errorf("RemoveIf = %v", err)
	}
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file is still there (%v)", err)
	}
}

// TestChmodActsOnTheFileChecked sets the permission of the file of the
// identity given, through its descriptor; never through a symbolic link,
// nor on a file that took its place.
func TestChmodActsOnTheFileChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "bundle.tar.gz")
	writeFile(t, p, "the archive")
	id, err := Identify(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := Chmod(p, id, 0o640); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (%v), want 0640", info.Mode().Perm(), err)
	}

	// A link to another user's file takes the archive's place.
	theirs := filepath.Join(dir, "theirs")
	writeFile(t, theirs, "another user's file")
	mustRemove(t, p)
	if err := os.Symlink("theirs", p); err != nil {
		t.Fatal(err)
	}
	if err := Chmod(p, id, 0o644); err == nil {
		t.Error("Chmod through a symbolic link succeeded")
	}
	theirsID, err := Identify(theirs)
	if err != nil {
		t.Fatal(err)
	}
	if err := Chmod(theirs, id, 0o644); !errors.Is(err, ErrReplaced) {
		t.Errorf("Chmod of another file = %v, want ErrReplaced", err)
	}
	if info, err := os.Stat(theirs); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("their file's mode is %v (%v), want 0600 as it was", info.Mode().Perm(), err)
	}
	if err := Chmod(theirs, theirsID, 0o640); err != nil {
		t.Errorf("Chmod = %v", err)
	}
}

// TestExamineReadsOneFile gives the identity and hash of a regular file,
// and refuses anything else without blocking.
func TestExamineReadsOneFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "bundle.tar.gz")
	writeFile(t, p, "the archive")
	id, sum, err := Examine(p)
	if want, _, _ := HashFile(p); err != nil || sum != want {
		t.Errorf("Examine = %x, %v; want %x", sum, err, want)
	}
	if want, _ := Identify(p); id != want {
		t.Errorf("Examine's identity %+v, want %+v", id, want)
	}
	for name, mk := range specialMakers() {
		q := filepath.Join(dir, name)
		mk(t, q)
		if _, _, err := Examine(q); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Examine of a %s = %v, want ErrNotRegular", name, err)
		}
	}
	if _, _, err := Examine(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Examine of a missing file = %v, want ErrNotExist", err)
	}
}

func mustRemove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

// errCrash stops a Commit where a crash would.
var errCrash = errors.New("crash")

// TestReplacementNeverLeavesPathEmpty stops a replacement before and after
// each of its steps, as a crash of the process would: Path always holds a
// regular file, the old archive or the new one. Where the system can
// exchange two names, and where it cannot (the archive renamed over the
// file).
func TestReplacementNeverLeavesPathEmpty(t *testing.T) {
	t.Parallel()
	for name, exchange := range map[string]bool{"exchange": true, "rename over": false} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for step := 1; ; step++ {
				if completed := crashReplacementAt(t, step, false, exchange); completed {
					break
				}
				crashReplacementAt(t, step, true, exchange)
			}
		})
	}
}

// crashReplacementAt replaces an old archive and stops at the step-th file
// system operation of Commit, before or after it, then checks Path. It
// reports whether Commit completed before that step.
func crashReplacementAt(t *testing.T, step int, after, exchange bool) bool {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
	writeFile(t, dest, "the old archive")
	f := committable(t, dest, Options{})
	calls := 0
	interrupt := func(op func(a, b string) error) func(a, b string) error {
		return func(a, b string) error {
			if calls++; calls == step && !after {
				panic(errCrash)
			}
			err := op(a, b)
			if calls == step {
				panic(errCrash)
			}
			return err
		}
	}
	if !exchange {
		f.ops.exchange = func(a, b string) error { return renameError(a, b, errors.ErrUnsupported) }
	}
	f.ops.rename, f.ops.exchange, f.ops.replace = interrupt(f.ops.rename), interrupt(f.ops.exchange), interrupt(f.ops.replace)
	completed := func() (done bool) {
		defer func() {
			if r := recover(); r != nil && r != errCrash {
				panic(r)
			}
		}()
		_, _, err := f.Commit(func(Identity) error { return nil })
		if err != nil {
			t.Fatalf("Commit = %v", err)
		}
		return true
	}()
	where := fmt.Sprintf("stopped before step %d", step)
	if after {
		where = fmt.Sprintf("stopped after step %d", step)
	}
	got, err := os.ReadFile(dest)
	info, lerr := os.Lstat(dest)
	switch {
	case err != nil || lerr != nil || !info.Mode().IsRegular():
		t.Errorf("%s: Path holds no regular file (%v)", where, err)
	case string(got) != "the old archive" && !bytes.HasPrefix(got, []byte{0x1f, 0x8b}):
		t.Errorf("%s: Path holds %q, neither the old archive nor the new", where, got)
	case completed && string(got) == "the old archive":
		t.Errorf("Commit completed, but Path holds the old archive")
	}
	return completed
}
