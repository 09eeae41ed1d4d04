package archivefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPipelineBuffersAreDirectable holds the claim directable relies on:
// the pipeline's buffers are aligned for O_DIRECT.
func TestPipelineBuffersAreDirectable(t *testing.T) {
	t.Parallel()
	buffers := newBuffers()
	for i := range buffers {
		if !directable(buffers[i].data) {
			t.Errorf("buffer %d of %d bytes is not aligned to %d bytes: its writes would go through the page cache",
				i, len(buffers[i].data), directAlign)
		}
	}
}

// TestWritebackFallsBackToThePageCache writes a buffer through the page
// cache, then whole blocks directly, then what direct I/O cannot take (an
// unaligned address, a short tail) through the page cache again, and the
// file holds every byte in order.
func TestWritebackFallsBackToThePageCache(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "archive"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	buffers := newBuffers()
	w := &writeback{file: f, directAfter: int64(len(buffers[0].data))}
	var want bytes.Buffer
	write := func(b []byte) {
		t.Helper()
		if n, err := w.Write(b); err != nil || n != len(b) {
			t.Fatalf("Write(%d bytes) = %d, %v", len(b), n, err)
		}
		want.Write(b)
	}
	for i := range 3 {
		b := buffers[i].data
		for j := range b {
			b[j] = byte(i*31 + j*7)
		}
		write(b)
		if i == 0 && w.mode != cachedForNow {
			t.Fatalf("mode = %d before directAfter bytes: want the page cache, undecided", w.mode)
		}
	}
	directTaken := w.mode == direct
	if w.mode == cachedForNow {
		t.Fatal("past directAfter, direct I/O is neither on nor refused")
	}
	write(buffers[0].data[1 : 1+directAlign]) // an unaligned address
	if w.mode == direct {
		t.Error("direct after an unaligned write")
	}
	write(buffers[1].data[:1000]) // a short tail
	got, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the file holds %d bytes that differ from the %d written", len(got), want.Len())
	}
	t.Logf("the file system of %s took direct I/O: %v", filepath.Dir(f.Name()), directTaken)
}

// TestWritebackConsumeFinishes leaves the descriptor without O_DIRECT after an
// attempt that ended on a direct write, so that the next attempt (after
// Reset) starts through the page cache, as it believes.
func TestWritebackConsumeFinishes(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "archive"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	buffers := newBuffers()
	w := &writeback{file: f}
	if err := w.consume(bytes.NewReader(buffers[0].data)); err != nil {
		t.Fatal(err)
	}
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if flags&unix.O_DIRECT != 0 {
		t.Error("the descriptor keeps O_DIRECT after consume")
	}
	// The next attempt's first write is short, as after a Reset.
	w = &writeback{file: f, directAfter: 1 << 20}
	if _, err := w.Write(buffers[1].data[:10]); err != nil {
		t.Errorf("a short write after consume: %v", err)
	}
}
