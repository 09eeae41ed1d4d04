package archivefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// committable returns a File at dest holding a complete small archive.
func committable(t *testing.T, dest string, opts Options) *File {
	t.Helper()
	f, err := Create(dest, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Discard() })
	if _, err := f.ReadFrom(bytes.NewReader(tarGz(t, file("index.html", []byte("<h1>Docs</h1>"))))); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCommitIsDurable flushes the file before the rename and the directory
// before and after it; a failed flush of the file leaves nothing.
func TestCommitIsDurable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dest := filepath.Join(dir, "bundle.tar.gz")
	f := committable(t, dest, Options{})
	var ops []string
	f.ops = fsOps{
		syncFile: func(file *os.File) error { ops = append(ops, "sync "+filepath.Base(file.Name())); return file.Sync() },
		syncDir:  func(d string) error { ops = append(ops, "sync dir "+filepath.Base(d)); return syncDir(d) },
		rename: func(from, to string) error {
			ops = append(ops, "rename to "+filepath.Base(to))
			return os.Rename(from, to)
		},
	}
	temp := filepath.Base(f.TempPath())
	if _, _, err := f.Commit(func(Identity) error { ops = append(ops, "may replace"); return nil }); err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(dir)
	want := []string{"sync " + temp, "sync dir " + base, "rename to bundle.tar.gz", "sync dir " + base}
	if !slices.Equal(ops, want) {
		t.Errorf("Commit did %q, want %q", ops, want)
	}

	t.Run("a failed flush", func(t *testing.T) {
		dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
		f := committable(t, dest, Options{})
		full := errors.New("input/output error")
		f.ops.syncFile = func(*os.File) error { return full }
		if _, _, err := f.Commit(nil); !errors.Is(err, full) {
			t.Errorf("Commit = %v, want the flush's error", err)
		}
		if files := onlyFiles(t, filepath.Dir(dest)); len(files) != 0 {
			t.Errorf("left behind: %v", files)
		}
	})
}

// TestCommitAsksBeforeReplacing leaves Path as it is when mayReplace
// refuses.
func TestCommitAsksBeforeReplacing(t *testing.T) {
	t.Parallel()
	dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
	if err := os.WriteFile(dest, []byte("the user's file"), 0o600); err != nil {
		t.Fatal(err)
	}
	theirs, err := Identify(dest)
	if err != nil {
		t.Fatal(err)
	}
	f := committable(t, dest, Options{})
	mine := errors.New("not ours")
	var asked Identity
	if _, _, err := f.Commit(func(found Identity) error { asked = found; return mine }); !errors.Is(err, mine) {
		t.Fatalf("Commit = %v, want mayReplace's error", err)
	}
	if asked != theirs {
		t.Errorf("mayReplace was asked about %+v, want the file at Path, %+v", asked, theirs)
	}
	if got, _ := os.ReadFile(dest); string(got) != "the user's file" {
		t.Errorf("the file holds %q", got)
	}
	if files := onlyFiles(t, filepath.Dir(dest)); !slices.Equal(files, []string{"bundle.tar.gz"}) {
		t.Errorf("the directory holds %v", files)
	}
}

// TestCreateRemovesStalePartials removes the partial downloads of the same
// path older than an hour, and nothing else.
func TestCreateRemovesStalePartials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := time.Now().Add(-StaleAfter - time.Minute)
	files := map[string]time.Time{
		".bundle.tar.gz.0123456789abcdef.partial":       old,                               // ours, stale: removed
		".bundle.tar.gz.fedcba9876543210.partial":       time.Now().Add(-10 * time.Minute), // ours, in progress
		".other.tar.gz.0123456789abcdef.partial":        old,                               // another path's
		".bundle.tar.gz.0123456789.partial":             old,                               // not our naming
		".bundle.tar.gz.0123456789ABCDEF.partial":       old,
		".bundle.tar.gz.x.0123456789abcdef.partial":     old,
		"bundle.tar.gz.0123456789abcdef.partial":        old,
		".bundle.tar.gz.0123456789abcdef.partial.keep":  old,
		".bundle.tar.gz.0123456789abcdef.0123456789abc": old,
	}
	for name, mtime := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	// A directory and a symbolic link named like ours are not files to remove.
	if err := os.Mkdir(filepath.Join(dir, ".bundle.tar.gz.00000000000000aa.partial"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("elsewhere", filepath.Join(dir, ".bundle.tar.gz.00000000000000bb.partial")); err != nil {
		t.Fatal(err)
	}

	f, err := Create(filepath.Join(dir, "bundle.tar.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	stale := filepath.Join(dir, ".bundle.tar.gz.0123456789abcdef.partial")
	if !slices.Equal(f.Stale(), []string{stale}) {
		t.Errorf("Stale() = %v, want [%s]", f.Stale(), stale)
	}
	if err := f.Reset(); err != nil { // the download starts
		t.Fatal(err)
	}
	left := onlyFiles(t, dir)
	want := []string{filepath.Base(f.TempPath()), ".bundle.tar.gz.00000000000000aa.partial", ".bundle.tar.gz.00000000000000bb.partial"}
	for name := range files {
		if name != filepath.Base(stale) {
			want = append(want, name)
		}
	}
	slices.Sort(left)
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("the directory holds %v, want %v", left, want)
	}
	if !isPartialOf(filepath.Base(f.TempPath()), "bundle.tar.gz") {
		t.Errorf("the temporary file %s is not named as removeStale expects", f.TempPath())
	}
}

// TestIdentity tells the archive from a file moved into its place, through
// a touch, a chmod and a rename.
func TestIdentity(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dest := filepath.Join(dir, "bundle.tar.gz")
	_, id, err := committable(t, dest, Options{}).Commit(nil)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(dest, later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dest, 0o600); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(dir, "moved.tar.gz")
	if err := os.Rename(dest, moved); err != nil {
		t.Fatal(err)
	}
	if got, err := Identify(moved); err != nil || got != id {
		t.Errorf("after touch, chmod and rename: %+v, %v; want %+v", got, err, id)
	}

	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("the user's file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, moved); err != nil {
		t.Fatal(err)
	}
	if got, err := Identify(moved); err != nil || got == id {
		t.Errorf("a file moved into place: %+v, %v; want another identity than %+v", got, err, id)
	}

	if err := os.Symlink("moved.tar.gz", dest); err != nil {
		t.Fatal(err)
	}
	if _, err := Identify(dest); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Identify of a symbolic link = %v, want ErrNotRegular", err)
	}
	if _, err := Identify(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Identify of a missing file = %v, want ErrNotExist", err)
	}
}

// TestWritesAnArchiveOfManyBuffers commits intact an archive that fills
// the pipeline's buffers many times over, and ends inside one.
func TestWritesAnArchiveOfManyBuffers(t *testing.T) {
	t.Parallel()
	archive := tarGz(t, file("assets/video.mp4", random(3, 8<<20+12345)))
	dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
	f, err := Create(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	if _, err := f.ReadFrom(bytes.NewReader(archive)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Commit(nil); err != nil {
		t.Fatal(err)
	}
	if written, err := os.ReadFile(dest); err != nil || !bytes.Equal(written, archive) {
		t.Errorf("the file holds %d bytes (%v), want the archive's %d", len(written), err, len(archive))
	}
}

// TestNoPartialUntilTheDownloadStarts creates the temporary file only when
// the first attempt starts (Reset or ReadFrom), not at Create: a create
// that waits an hour for its job has no partial download that another run
// would take for a killed run's and sweep.
func TestNoPartialUntilTheDownloadStarts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "bundle.tar.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	if files := onlyFiles(t, dir); len(files) != 0 {
		t.Fatalf("after Create, before any download, the directory holds %v", files)
	}
	if err := f.Reset(); err != nil {
		t.Fatal(err)
	}
	if files := onlyFiles(t, dir); len(files) != 1 || !isPartialOf(files[0], "bundle.tar.gz") {
		t.Fatalf("once the download starts, the directory holds %v, want one partial download", files)
	}
	if err := f.Discard(); err != nil {
		t.Fatal(err)
	}
	if files := onlyFiles(t, dir); len(files) != 0 {
		t.Errorf("after Discard, the directory holds %v", files)
	}

	t.Run("discarded before it starts", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		f, err := Create(filepath.Join(dir, "bundle.tar.gz"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Discard(); err != nil {
			t.Errorf("Discard = %v", err)
		}
		if _, _, err := f.Commit(nil); err == nil {
			t.Error("Commit after Discard succeeded")
		}
		if files := onlyFiles(t, dir); len(files) != 0 {
			t.Errorf("the directory holds %v", files)
		}
	})
}
