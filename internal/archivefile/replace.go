package archivefile

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// How the archive takes its place, and how a file is changed or removed,
// when another local user may write to the directory: each acts on the
// file it checked, by its descriptor where the system allows it, and
// otherwise compares the identity of the file checked with what the name
// holds immediately before acting on the name.
//
// A file that the archive replaces goes in one step, so that output_path
// never holds nothing, whatever stops the process: the two names are
// exchanged (RENAME_EXCHANGE, RENAME_SWAP), then the file that was there,
// now under the temporary name, is removed if it is the file checked, and
// put back otherwise; where the system cannot exchange, the archive is
// renamed over the file once its identity is compared again.
//
// What remains: no system can remove or rename a file by its descriptor,
// so between that last comparison and the unlink or rename, a few system
// calls, a local user who can write to the directory can still swap the
// entry. A rename of the temporary file then fails, or is caught by the
// check after it (ErrReplaced); an unlink, or a rename over it where the
// system cannot exchange, would remove the swapped entry. Keep
// output_path in a directory that only you can write to.

// ErrReplaced is the error of an operation on a file that another has
// taken the place of since it was checked.
var ErrReplaced = errors.New("another file took its place")

// errStillThere is Commit's error when something takes output_path again
// after what was there was removed.
var errStillThere = errors.New("something took its place while the archive was being moved there")

// place moves the sealed temporary file, of identity id, to f.path,
// without replacing anything that mayReplace (nil: nothing) does not
// allow, nor anything but a regular file.
func (f *File) place(id Identity, mayReplace func(found Identity) error) error {
	tmp := f.tmp.Name()
	for range 2 {
		if err := expectIdentity(tmp, id); err != nil {
			return fmt.Errorf("the temporary file: %w", err)
		}
		err := f.ops.rename(tmp, f.path)
		if err == nil {
			return expectIdentity(f.path, id)
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		found, err := Identify(f.path) // ErrNotRegular for anything but a regular file
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // gone since
		case err != nil:
			return err
		case mayReplace == nil:
			return &fs.PathError{Op: "replace", Path: f.path, Err: fs.ErrExist}
		}
		if err := mayReplace(found); err != nil {
			return err
		}
		if err := f.replace(tmp, id, found); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// gone since: placed without replacing, the next time round
	}
	return &fs.PathError{Op: "rename", Path: f.path, Err: errStillThere}
}

// replace puts the temporary file tmp, of identity id, in the place of the
// regular file of identity found at f.path, in one step.
func (f *File) replace(tmp string, id, found Identity) error {
	err := f.ops.exchange(tmp, f.path)
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		if err := expectIdentity(f.path, found); err != nil {
			return err
		}
		if err := f.ops.replace(tmp, f.path); err != nil {
			return err
		}
	case err != nil:
		return err
	default: // tmp now names what was at f.path
		if err := RemoveIf(tmp, found); errors.Is(err, ErrReplaced) {
			_ = f.ops.exchange(tmp, f.path) // not the file checked: put it back
			return &fs.PathError{Op: "replace", Path: f.path, Err: ErrReplaced}
		}
		// At worst another error leaves the old file under the temporary
		// name, which the sweep of partial downloads removes.
	}
	return expectIdentity(f.path, id)
}

// expectIdentity checks that the name p holds the regular file of
// identity id: anything else there is ErrReplaced.
func expectIdentity(p string, id Identity) error {
	got, err := Identify(p)
	if errors.Is(err, ErrNotRegular) || (err == nil && got != id) {
		err = &fs.PathError{Op: "check", Path: p, Err: ErrReplaced}
	}
	return err
}

// RemoveIf removes the regular file at path if it is the file of identity
// id, comparing the two immediately before the unlink; otherwise it
// leaves what is there, with an error satisfying errors.Is(err,
// ErrReplaced). A missing file is an error satisfying errors.Is(err,
// fs.ErrNotExist).
func RemoveIf(path string, id Identity) error {
	if err := expectIdentity(path, id); err != nil {
		return err
	}
	return os.Remove(path)
}

// removeTemp removes the temporary file of identity id, if its name still
// holds it.
func (f *File) removeTemp(id Identity) {
	_ = RemoveIf(f.tmp.Name(), id)
}

// linkThenUnlink renames from to to unless to exists, where the system has
// no rename that refuses to replace: a hard link never replaces what is at
// to (EEXIST), then from is unlinked if it still names the file linked.
// A file system without hard links fails here.
func linkThenUnlink(from, to string) error {
	if err := os.Link(from, to); err != nil {
		return renameError(from, to, err)
	}
	a, errA := os.Lstat(from)
	b, errB := os.Lstat(to)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		_ = os.Remove(from) // at worst a second name, which the sweep of partial downloads removes
	}
	return nil
}

func renameError(from, to string, err error) error {
	return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
}

// Chmod sets the permission of the regular file at path to perm through
// a descriptor (fchmod), if it is the file of identity id; otherwise it
// changes nothing and returns an error satisfying errors.Is(err,
// ErrReplaced) or ErrNotRegular. A symbolic link at path is not followed.
func Chmod(path string, id Identity, perm fs.FileMode) error {
	f, got, err := openRegular(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	if got != id {
		return &fs.PathError{Op: "chmod", Path: path, Err: ErrReplaced}
	}
	return f.Chmod(perm)
}

// Examine returns the identity and the SHA-256 of the regular file at
// path, both read through one descriptor, so that they are those of one
// file. It does not follow a symbolic link, nor wait on a FIFO: anything
// but a regular file is an error satisfying errors.Is(err, ErrNotRegular),
// and a missing file one satisfying errors.Is(err, fs.ErrNotExist).
func Examine(path string) (Identity, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, id, err := openRegular(path)
	if err != nil {
		return Identity{}, sum, err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, f, make([]byte, bufferSize)); err != nil {
		return Identity{}, sum, fmt.Errorf("reading %s: %w", path, err)
	}
	h.Sum(sum[:0])
	return id, sum, nil
}

// openRegular opens the regular file at path for reading, without
// following a symbolic link or waiting on a FIFO, and returns its
// identity, read from the descriptor.
func openRegular(path string) (*os.File, Identity, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, Identity{}, err
	}
	if !info.Mode().IsRegular() {
		return nil, Identity{}, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	f, err := openNoFollow(path)
	if err != nil {
		return nil, Identity{}, err
	}
	info, err = f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	var id Identity
	if err == nil {
		id, err = identifyFile(f)
	}
	if err != nil {
		_ = f.Close()
		return nil, Identity{}, err
	}
	return f, id, nil
}
