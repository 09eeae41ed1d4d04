package archivefile

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// directAlign is the alignment, of its address and its length, that a
// direct write needs: the page size, a multiple of every common block
// size.
const directAlign = 4096

// directable reports whether b can be written with O_DIRECT: whole blocks
// from an aligned address. The pipeline's buffers are (the heap aligns
// large allocations to its pages), all but the last of an archive.
func directable(b []byte) bool {
	return len(b) > 0 && len(b)%directAlign == 0 &&
		uintptr(unsafe.Pointer(unsafe.SliceData(b)))%directAlign == 0 //nolint:gosec // the address is only read
}

// setDirect turns O_DIRECT on or off for f's writes. Turning it on fails
// on a file system that does not support it.
func setDirect(f *os.File, on bool) error {
	fd := f.Fd()
	flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	if on {
		flags |= unix.O_DIRECT
	} else {
		flags &^= unix.O_DIRECT
	}
	_, err = unix.FcntlInt(fd, unix.F_SETFL, flags)
	return err
}

// startWriteback asks the kernel to start writing the range to disk, and
// returns without waiting (sync_file_range with SYNC_FILE_RANGE_WRITE). It
// is a hint: an error here is left for the fsync of Commit to report.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
