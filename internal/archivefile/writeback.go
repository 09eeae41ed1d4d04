package archivefile

import (
	"errors"
	"os"
	"syscall"
)

// writeback writes the archive to its temporary file with as little work
// for the machine as it can, since it runs beside the hashes on the same
// cores, and leaves little for the flush of Commit to wait for.
//
// The first directAfter bytes go through the page cache, which takes them
// at memory speed; the writer starts writing them to disk as it goes, a
// range of writebackEvery bytes at a time, without waiting (where the
// system has sync_file_range): the flush of Commit then finds little left
// to write, instead of the whole archive (a second for 1 GiB on a fast
// disk). Past directAfter, where the system allows it (Linux, and a file
// system that takes O_DIRECT), each whole buffer goes from the pipeline's
// buffer straight to the disk: filling the page cache with a large archive
// is no longer cheap (on a 2-core virtual machine it cost up to 1.6 s of
// system time a GiB, against 0.13 s written directly), and nothing reads
// the archive back soon but the next refresh. A write that direct I/O
// cannot take (a last buffer that is not a whole number of blocks, a file
// system that refuses it) turns it off for the rest of the file.
type writeback struct {
	file        *os.File
	directAfter int64
	// direct is set while the file is open with O_DIRECT; buffered once
	// direct I/O is off for good (refused, or a write it cannot take).
	direct, buffered bool
	written, sent    int64
}

// directAfter is how much of an archive goes through the page cache before
// the rest goes to the disk directly: the whole of most static exports.
const directAfter = 256 << 20

// writebackEvery is how much the writer writes through the page cache
// before it starts writing it to disk.
const writebackEvery = 8 << 20

func (w *writeback) Write(b []byte) (int, error) {
	if !w.direct && !w.buffered && w.written >= w.directAfter && directable(b) {
		w.startDirect()
	}
	if w.direct && !directable(b) {
		if err := w.stopDirect(); err != nil {
			return 0, err
		}
	}
	n, err := w.file.Write(b)
	if w.direct && n == 0 && errors.Is(err, syscall.EINVAL) {
		// The file system took O_DIRECT but refuses this write (its
		// blocks are larger than directAlign, say).
		if err := w.stopDirect(); err != nil {
			return 0, err
		}
		n, err = w.file.Write(b)
	}
	w.written += int64(n)
	if !w.direct && w.written-w.sent >= writebackEvery {
		startWriteback(w.file, w.sent, w.written-w.sent)
		w.sent = w.written
	}
	return n, err
}

// startDirect turns direct I/O on, if the file system allows it, once the
// page cache's part is on its way to the disk.
func (w *writeback) startDirect() {
	if w.written > w.sent {
		startWriteback(w.file, w.sent, w.written-w.sent)
		w.sent = w.written
	}
	w.direct = setDirect(w.file, true) == nil
	w.buffered = !w.direct
}

// finish leaves the file's descriptor as it was opened, without direct
// I/O, for the flush of Commit or the next attempt after Reset.
func (w *writeback) finish() error {
	if !w.direct {
		return nil
	}
	return w.stopDirect()
}

// stopDirect turns direct I/O off for good: what was written directly is
// on its way to the disk already.
func (w *writeback) stopDirect() error {
	w.direct, w.buffered, w.sent = false, true, w.written
	return setDirect(w.file, false)
}
