package archivefile

import (
	"errors"
	"syscall"
)

// renameNoReplace renames from to to unless to exists (an error satisfying
// errors.Is(err, fs.ErrExist)): MoveFile, unlike the MoveFileEx with
// MOVEFILE_REPLACE_EXISTING of os.Rename, never replaces.
func renameNoReplace(from, to string) error {
	f, err := syscall.UTF16PtrFromString(from)
	if err != nil {
		return renameError(from, to, err)
	}
	t, err := syscall.UTF16PtrFromString(to)
	if err != nil {
		return renameError(from, to, err)
	}
	if err := syscall.MoveFile(f, t); err != nil {
		return renameError(from, to, err)
	}
	return nil
}

// renameExchange is not available on Windows: Commit renames over the
// checked file instead (os.Rename, MoveFileEx with
// MOVEFILE_REPLACE_EXISTING, which replaces in one step).
func renameExchange(a, b string) error { return renameError(a, b, errors.ErrUnsupported) }
