package archivefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing the range to disk, and
// returns without waiting (sync_file_range with SYNC_FILE_RANGE_WRITE). It
// is a hint: an error here is left for the fsync of Commit to report.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
