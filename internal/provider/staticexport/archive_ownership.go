package staticexport

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// Which file at output_path belongs to mintlify_static_export_archive: the
// one it wrote, told by its identity (device, inode and, where the file
// system records one, birth time: see archivefile.Identity), never by its
// modification time or size, which a touch changes. The identity is kept
// in private state. A file is the resource's when its identity is the one
// recorded, or when it holds exactly the archive (the SHA-256 in state), as
// a copy restored from a cache does: its identity is then recorded in turn.
// Any other file is someone else's, and is never replaced without
// `overwrite = true`, nor ever deleted. Anything but a regular file (a
// directory, a symbolic link, a FIFO, a device) is never replaced at all.

// judgeFile looks at the file at p: the resource wrote the file of
// identity written (zero when unknown) holding the archive of SHA-256 sha
// (hex). Errors are those of reading the file.
// The identity and the hash are read through one descriptor: they are
// those of one file.
func judgeFile(p string, written archivefile.Identity, sha string) (fileVerdict, error) {
	id, sum, err := archivefile.Examine(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileVerdict{Kind: fileMissing}, nil
	case errors.Is(err, archivefile.ErrNotRegular):
		return fileVerdict{Kind: fileForeign, What: describeEntry(p), NotRegular: true}, nil
	case err != nil:
		return fileVerdict{}, err
	}
	found := hex.EncodeToString(sum[:])
	// Where the system gives no identity (both are zero), the content
	// alone decides.
	sameFile := id == written
	switch {
	case found == sha:
		return fileVerdict{Kind: fileIntact, id: id, adopted: !sameFile}, nil
	case sameFile && written.Strong():
		return fileVerdict{Kind: fileChanged, SHA256: found}, nil
	default:
		// Another file; or, without a birth time, perhaps a new file that
		// was given the inode of the one the resource wrote.
		return fileVerdict{Kind: fileForeign, SHA256: found, What: "a file", SameInode: sameFile}, nil
	}
}

// describeEntry names what is at p, which is not a regular file.
func describeEntry(p string) string {
	info, err := os.Lstat(p)
	switch {
	case err != nil:
		return "something that is not a regular file"
	case info.IsDir():
		return "a directory"
	case info.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link"
	case info.Mode()&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case info.Mode()&fs.ModeSocket != 0:
		return "a socket"
	case info.Mode()&fs.ModeDevice != 0:
		return "a device"
	default:
		return "a special file (" + info.Mode().Type().String() + ")"
	}
}

// mayReplace returns the check that archivefile.File.Commit makes when
// it finds the regular file of identity found at p: it may replace it if
// it is the file of identity written (zero: none), or if overwrite.
// (Commit itself never replaces anything but a regular file.)
func mayReplace(p string, written archivefile.Identity, overwrite bool) func(found archivefile.Identity) error {
	return func(found archivefile.Identity) error {
		if overwrite || (!written.IsZero() && found == written) {
			return nil
		}
		return &occupiedError{path: p, what: "a file", restoring: !written.IsZero()}
	}
}

// checkOutputPath is the check before any request: p must hold nothing, or
// a regular file that mayReplace allows. Anything but a regular file is a
// *notRegularError, whatever overwrite says.
func checkOutputPath(p string, written archivefile.Identity, overwrite bool) error {
	id, err := archivefile.Identify(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, archivefile.ErrNotRegular):
		return &notRegularError{path: p, what: describeEntry(p)}
	case err != nil:
		return err
	}
	return mayReplace(p, written, overwrite)(id)
}

// isArchiveFile reports whether p is a regular file that starts as an
// archive does, gzip or ZIP (archivefile.FormatOf).
func isArchiveFile(p string) bool {
	if _, err := archivefile.Identify(p); err != nil {
		return false // missing, or not a regular file
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	var head [4]byte
	n, _ := io.ReadFull(f, head[:])
	return archivefile.FormatOf(head[:n]) != ""
}

// occupiedError is an output_path that holds something the resource did
// not write.
type occupiedError struct {
	path, what string
	// restoring is true for a restore (the resource wrote a file there
	// before), false for a create.
	restoring bool
}

func (e *occupiedError) Error() string {
	return fmt.Sprintf("%s holds %s that this resource did not write", e.path, e.what)
}

// notRegularError is an output_path that holds something other than a
// regular file: never replaced, even with overwrite.
type notRegularError struct{ path, what string }

func (e *notRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.path, e.what)
}

// archiveChangedError is a restore that downloaded another archive than
// the one the resource recorded.
type archiveChangedError struct{ want, got string }

func (e *archiveChangedError) Error() string {
	return fmt.Sprintf("the archive served has SHA-256 %s, not %s", e.got, e.want)
}

// drift is what the last refresh found, as private state keeps it: nil
// for the archive the resource wrote.
func drift(v fileVerdict) *fileVerdict {
	if v.Kind == fileIntact {
		return nil
	}
	return &v
}
