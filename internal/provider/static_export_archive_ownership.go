package provider

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
// `overwrite = true`, nor ever deleted.

// fileKind is what is at output_path, against what the resource wrote.
type fileKind string

const (
	fileIntact  fileKind = "intact"  // the archive the resource wrote
	fileMissing fileKind = "missing" // nothing
	fileChanged fileKind = "changed" // the file the resource wrote, with other content
	fileForeign fileKind = "foreign" // something else: another file moved into place, a directory, a link
)

// fileVerdict is what a look at output_path found.
type fileVerdict struct {
	Kind fileKind `json:"kind"`
	// SHA256 is the hex SHA-256 of the regular file found, when it is not
	// the archive.
	SHA256 string `json:"sha256,omitempty"`
	// What describes a foreign entry: "a file", or what it is when it is
	// not a regular file, such as "a directory".
	What string `json:"what,omitempty"`
	// SameInode is set for a foreign file that has the identity recorded
	// without a birth time: an edit and a new file given the same inode
	// cannot be told apart.
	SameInode bool `json:"same_inode,omitempty"`
	// id is the identity of the file found, when intact; adopted says that
	// it differs from the one recorded (the file is taken as the
	// resource's by its content).
	id      archivefile.Identity
	adopted bool
}

// judgeFile looks at the file at p: the resource wrote the file of
// identity written (zero when unknown) holding the archive of SHA-256 sha
// (hex). Errors are those of reading the file.
func judgeFile(p string, written archivefile.Identity, sha string) (fileVerdict, error) {
	id, err := archivefile.Identify(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileVerdict{Kind: fileMissing}, nil
	case errors.Is(err, archivefile.ErrNotRegular):
		return fileVerdict{Kind: fileForeign, What: describeEntry(p)}, nil
	case err != nil:
		return fileVerdict{}, err
	}
	sum, _, err := archivefile.HashFile(p)
	if err != nil {
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
	default:
		return "a special file (" + info.Mode().Type().String() + ")"
	}
}

// mayReplace returns the check that archivefile.File.Commit makes just
// before renaming the archive to p: p must hold nothing, or the file of
// identity written (zero: none), unless overwrite.
func mayReplace(p string, written archivefile.Identity, overwrite bool) func() error {
	return func() error {
		if overwrite {
			return nil
		}
		id, err := archivefile.Identify(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err == nil && !written.IsZero() && id == written:
			return nil
		case errors.Is(err, archivefile.ErrNotRegular):
			return &occupiedError{path: p, what: describeEntry(p), restoring: !written.IsZero()}
		default:
			return &occupiedError{path: p, what: "a file", restoring: !written.IsZero()}
		}
	}
}

// isGzipFile reports whether p is a regular file that starts as gzip does.
func isGzipFile(p string) bool {
	if _, err := archivefile.Identify(p); err != nil {
		return false // missing, or not a regular file
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	var magic [2]byte
	_, err = io.ReadFull(f, magic[:])
	return err == nil && magic == [2]byte{0x1f, 0x8b}
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
