package archivefile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames from to to unless to exists (an error satisfying
// errors.Is(err, fs.ErrExist)), in one step: renamex_np with RENAME_EXCL.
// Where the file system lacks it (ENOTSUP), it links and unlinks instead.
func renameNoReplace(from, to string) error {
	err := unix.RenamexNp(from, to, unix.RENAME_EXCL)
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		return linkThenUnlink(from, to)
	}
	if err != nil {
		return renameError(from, to, err)
	}
	return nil
}

// renameExchange swaps the names a and b in one step: renamex_np with
// RENAME_SWAP. Where the file system lacks it, the error satisfies
// errors.Is(err, errors.ErrUnsupported).
func renameExchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		err = errors.ErrUnsupported
	}
	if err != nil {
		return renameError(a, b, err)
	}
	return nil
}
