package archivefile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// endless delivers zeros for ever, counting them.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += int64(len(p))
	return len(p), nil
}

func TestStopsReadingAtAnInvalidArchive(t *testing.T) {
	t.Parallel()
	f, err := Create(filepath.Join(t.TempDir(), "bundle.tar.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	rest := &endless{}
	_, err = f.ReadFrom(io.MultiReader(bytes.NewReader([]byte("<html>Access Denied</html>")), rest))
	var invalid *InvalidError
	if !errors.As(err, &invalid) {
		t.Fatalf("err = %v, want an *InvalidError", err)
	}
	// The check fails on the first buffer; the reading may have filled the
	// others by then, and no more.
	if limit := int64(numBuffers+1) * bufferSize; rest.n > limit {
		t.Errorf("read %d bytes past the invalid start, want at most %d", rest.n, limit)
	}
}

func TestReturnsTheWritingsError(t *testing.T) {
	t.Parallel()
	f, err := Create(filepath.Join(t.TempDir(), "bundle.tar.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	if err := f.Reset(); err != nil {
		t.Fatal(err)
	}
	_ = f.tmp.Close() // every write now fails, as on a full disk
	if _, err := f.ReadFrom(bytes.NewReader(siteArchive(t))); !errors.Is(err, os.ErrClosed) {
		t.Errorf("err = %v, want the write error", err)
	}
	if _, _, err := f.Commit(nil); err == nil {
		t.Error("Commit after a failed write succeeded")
	}
}
