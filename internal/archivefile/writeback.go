package archivefile

import (
	"errors"
	"io"
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
	mode        writeMode
	// written counts the bytes written; sent, those already on their way
	// to the disk (written directly, or handed to startWriteback).
	written, sent int64
}

// writeMode is how writeback writes.
type writeMode int

const (
	cachedForNow writeMode = iota // through the page cache, until directAfter
	direct                        // with O_DIRECT
	cached                        // through the page cache, for good
)

// directAfter is how much of an archive goes through the page cache before
// the rest goes to the disk directly: the whole of most static exports.
const directAfter = 256 << 20

// writebackEvery is how much the writer writes through the page cache
// before it starts writing it to disk.
const writebackEvery = 8 << 20

// consume writes what r delivers, then leaves the file's descriptor as it
// was opened, without O_DIRECT, for the flush of Commit or the next
// attempt after Reset: it is the writer's consumer in the pipeline.
func (w *writeback) consume(r io.Reader) error {
	_, err := io.Copy(w, r)
	if w.mode == direct {
		if stopErr := w.stopDirect(); err == nil {
			err = stopErr
		}
	}
	return err
}

func (w *writeback) Write(b []byte) (int, error) {
	if w.mode == cachedForNow && w.written >= w.directAfter && directable(b) {
		w.send()
		w.mode = cached
		if setDirect(w.file, true) == nil {
			w.mode = direct
		}
	}
	if w.mode == direct && !directable(b) {
		if err := w.stopDirect(); err != nil {
			return 0, err
		}
	}
	n, err := w.file.Write(b)
	if w.mode == direct && n == 0 && errors.Is(err, syscall.EINVAL) {
		// The file system took O_DIRECT but refuses this write (its
		// blocks are larger than directAlign, say).
		if err := w.stopDirect(); err != nil {
			return 0, err
		}
		n, err = w.file.Write(b)
	}
	w.written += int64(n)
	if w.mode == direct {
		w.sent = w.written
	} else if w.written-w.sent >= writebackEvery {
		w.send()
	}
	return n, err
}

// send starts writing to disk what the page cache holds of the file.
func (w *writeback) send() {
	if w.written > w.sent {
		startWriteback(w.file, w.sent, w.written-w.sent)
		w.sent = w.written
	}
}

// stopDirect turns direct I/O off for good.
func (w *writeback) stopDirect() error {
	w.mode = cached
	return setDirect(w.file, false)
}
