package archivefile

import (
	"errors"
	"io/fs"
	"os"
)

// Identity tells one file from another on this machine, whatever their
// names, content and timestamps: its device and inode number (volume serial
// and file index on Windows) and, where the file system records it, its
// birth time. A rename keeps a file's identity; writing, touch and chmod do
// not change it; a file moved into its place has another one. Device and
// inode alone can be reused: once a file is deleted, ext4 may give its
// inode number to the next file created. The birth time tells the two
// apart, so an Identity with a birth time is strong; one without (file
// systems that record none, and the operating systems this package does
// not know) must be confirmed by the content.
type Identity struct {
	Device uint64 `json:"dev"`
	Inode  uint64 `json:"ino"`
	// BornNanos is the birth time in nanoseconds since 1970; 0 when the
	// file system does not record it.
	BornNanos int64 `json:"born_ns,omitempty"`
}

// IsZero reports an identity that this operating system cannot give.
func (id Identity) IsZero() bool { return id == Identity{} }

// Strong reports whether id includes a birth time.
func (id Identity) Strong() bool { return id.BornNanos != 0 }

// ErrNotRegular is the error of Identify for a path that holds something
// other than a regular file (a directory, a symbolic link, a device...).
var ErrNotRegular = errors.New("not a regular file")

// Identify returns the identity of the regular file at path. It does not
// follow a symbolic link: a link at path is ErrNotRegular. A missing file
// is an error satisfying errors.Is(err, fs.ErrNotExist).
func Identify(path string) (Identity, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return Identity{}, err
	}
	if !info.Mode().IsRegular() {
		return Identity{}, &fs.PathError{Op: "identify", Path: path, Err: ErrNotRegular}
	}
	return identifyPath(path, info)
}
