// Package archivefile writes a bundle archive to disk while it downloads:
// into a temporary file beside its destination, hashed (SHA-256 and MD5)
// and read as gzip+tar on the way, and renamed into place only once the
// whole archive has checked out. A corrupt or truncated archive, or one
// with an entry that an extraction would write outside its directory, never
// reaches the destination.
//
// Memory stays constant whatever the archive's size: the bytes pass through
// a fixed set of buffers, and the writing, the two hashes and the check run
// side by side on them, so that on a fast link the slowest of them, not
// their sum, sets the pace.
//
// It is plain Go: it knows nothing about Terraform or the Mintlify API. A
// *File is a mintlify.DownloadSink.
package archivefile

import (
	"crypto/md5" //nolint:gosec // MD5 is what object storage puts in ETags, not a security measure
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Summary describes a complete archive.
type Summary struct {
	SHA256 [sha256.Size]byte
	MD5    [md5.Size]byte
	Size   int64
	// Entries counts the archive's tar entries (files, directories and
	// links), not counting pax global headers.
	Entries int
}

// File is an archive being written to Path. Create it, feed it with
// ReadFrom (after Reset, for a new attempt), then Commit or Discard it.
// A File is used by one goroutine at a time.
type File struct {
	path     string
	tmp      *os.File
	buffers  []*chunk
	summary  Summary
	complete bool // the last ReadFrom delivered a valid archive
	closed   bool
}

// Create prepares to write an archive to path: it creates path's parent
// directories and a temporary file beside path (named
// .<name>.<random>.partial), which Discard or Commit removes.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.partial")
	if err != nil {
		return nil, err
	}
	return &File{path: path, tmp: tmp}, nil
}

// Path is where Commit puts the archive.
func (f *File) Path() string { return f.path }

// TempPath is the temporary file the archive is written to until Commit.
func (f *File) TempPath() string { return f.tmp.Name() }

// Reset empties the temporary file for a new attempt.
func (f *File) Reset() error {
	if f.closed {
		return errors.New("archivefile: Reset after Commit or Discard")
	}
	f.complete = false
	if err := f.tmp.Truncate(0); err != nil {
		return err
	}
	_, err := f.tmp.Seek(0, io.SeekStart)
	return err
}

// ReadFrom writes the archive that r delivers to the temporary file,
// hashing and checking it on the way, until r ends (io.EOF) or something
// fails. An error reading r is returned as it is; otherwise the first
// error of the writing (such as a full disk) or of the check (an
// *InvalidError) is, and reading stops at once. r is read into fixed
// buffers of 512 KiB.
func (f *File) ReadFrom(r io.Reader) (int64, error) {
	if f.closed {
		return 0, errors.New("archivefile: ReadFrom after Commit or Discard")
	}
	f.complete = false
	if f.buffers == nil {
		f.buffers = newChunks()
	}
	p := startPipeline(f.buffers, f.tmp)
	n, readErr := p.produce(r)
	entries, workErr := p.finish()
	switch {
	case readErr != nil:
		return n, readErr
	case workErr != nil:
		return n, workErr
	}
	f.summary = Summary{Size: n, Entries: entries}
	p.sha.Sum(f.summary.SHA256[:0])
	p.md5.Sum(f.summary.MD5[:0])
	f.complete = true
	return n, nil
}

// Summary describes the archive of the last ReadFrom that succeeded.
func (f *File) Summary() Summary { return f.summary }

// Commit moves the complete archive to Path, readable by all (0644), and
// returns its summary. On error the temporary file is removed.
func (f *File) Commit() (Summary, error) {
	if f.closed {
		return Summary{}, errors.New("archivefile: Commit after Commit or Discard")
	}
	if !f.complete {
		_ = f.Discard()
		return Summary{}, errors.New("archivefile: no complete archive to commit")
	}
	err := f.tmp.Chmod(0o644)
	if closeErr := f.tmp.Close(); err == nil {
		err = closeErr
	}
	f.closed = true
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		_ = os.Remove(f.tmp.Name())
		return Summary{}, err
	}
	return f.summary, nil
}

// Discard removes the temporary file. It does nothing after Commit, and
// may be called any number of times.
func (f *File) Discard() error {
	if f.closed {
		return nil
	}
	f.closed = true
	_ = f.tmp.Close()
	if err := os.Remove(f.tmp.Name()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// HashFile returns the SHA-256 and the size of the file at path, reading it
// through a fixed buffer.
func HashFile(path string) (sum [sha256.Size]byte, size int64, err error) {
	file, err := os.Open(path)
	if err != nil {
		return sum, 0, err
	}
	defer func() { _ = file.Close() }()
	h := sha256.New()
	size, err = io.CopyBuffer(h, file, make([]byte, chunkSize))
	if err != nil {
		return sum, size, fmt.Errorf("reading %s: %w", path, err)
	}
	h.Sum(sum[:0])
	return sum, size, nil
}

// DigestFile returns the SHA-256, the MD5 and the size of the file at path
// (its Entries are not counted).
func DigestFile(path string) (Summary, error) {
	file, err := os.Open(path)
	if err != nil {
		return Summary{}, err
	}
	defer func() { _ = file.Close() }()
	sha, sum := sha256.New(), md5.New() //nolint:gosec // see the import
	var s Summary
	s.Size, err = io.CopyBuffer(io.MultiWriter(sha, sum), file, make([]byte, chunkSize))
	if err != nil {
		return Summary{}, fmt.Errorf("reading %s: %w", path, err)
	}
	sha.Sum(s.SHA256[:0])
	sum.Sum(s.MD5[:0])
	return s, nil
}
