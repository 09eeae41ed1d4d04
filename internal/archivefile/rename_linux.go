package archivefile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames from to to unless to exists (an error satisfying
// errors.Is(err, fs.ErrExist)), in one step: renameat2 with
// RENAME_NOREPLACE. Where the kernel (before 3.15) or the file system
// lacks it (ENOSYS, EINVAL), it links and unlinks instead.
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		return linkThenUnlink(from, to)
	}
	if err != nil {
		return renameError(from, to, err)
	}
	return nil
}

// renameExchange swaps the names a and b in one step: renameat2 with
// RENAME_EXCHANGE. Where the kernel (before 3.15) or the file system
// lacks it, the error satisfies errors.Is(err, errors.ErrUnsupported).
func renameExchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		err = errors.ErrUnsupported
	}
	if err != nil {
		return renameError(a, b, err)
	}
	return nil
}
