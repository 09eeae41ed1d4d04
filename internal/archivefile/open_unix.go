//go:build !windows

package archivefile

import (
	"os"
	"syscall"
)

// openNoFollow opens path for reading; a symbolic link is an error
// (ELOOP), and a FIFO does not block.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
