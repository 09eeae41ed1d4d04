// Package archivefile writes a bundle archive to disk while it downloads:
// into a temporary file beside its destination, hashed (SHA-256 and MD5)
// and read on the way as gzip+tar or as ZIP, as its first bytes say
// (zipformat.go; the ZIP check is zipcheck.go), and renamed into place only once the
// whole archive has checked out, flushed to disk before and after the
// rename, by a rename that never replaces: what is there goes only if it
// is a regular file the caller allows, and is still the file checked (see
// replace.go). A corrupt or truncated archive, or one outside the language
// of static sites that every extractor reads alike (see check.go), never
// reaches the destination. The
// file is created as any new file is (the umask applies) unless a
// permission is given; partial downloads that a killed run left beside the
// destination are removed after an hour. Identity tells the file written
// from one that later takes its place.
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
	"context"
	"crypto/md5" //nolint:gosec // MD5 is what object storage puts in ETags, not a security measure
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Summary describes a complete archive.
type Summary struct {
	SHA256 [sha256.Size]byte
	MD5    [md5.Size]byte
	Size   int64
	// Entries counts the archive's files and directories: not its global
	// headers, its root ./ nor the directories its paths only imply.
	Entries int
	// Format is the archive's format, told by its first bytes:
	// FormatTarGz or FormatZip.
	Format string
}

// File is an archive being written to Path. Create it, feed it with
// ReadFrom (after Reset, for a new attempt), then Commit or Discard it.
// A File is used by one goroutine at a time.
type File struct {
	path     string
	perm     fs.FileMode // 0: the system's default, 0666 less the umask
	ctx      context.Context
	want     string // the format the archive must have; "" for either
	tmp      *os.File
	stale    []string
	ops      fsOps
	summary  Summary
	complete bool // the last ReadFrom delivered a valid archive
	closed   bool
	buffers  []buffer // kept from one ReadFrom to the next
}

// Options are the choices of Create.
type Options struct {
	// Perm is the archive's permission bits, set exactly whatever the
	// umask. Zero creates it as any new file is: 0666 less the process
	// umask (0644 under the usual 022).
	Perm fs.FileMode
	// Context, when set, stops the check of ReadFrom at its next entry
	// once it is done: ReadFrom then returns its Err. Nil never stops.
	Context context.Context
	// Format is the format the archive must have, FormatTarGz or
	// FormatZip, as the export's contract promises: an archive of the
	// other format is refused. "" accepts either.
	Format string
}

// Create prepares to write an archive to path: it creates path's parent
// directories and removes the partial downloads of path that a killed run
// left there (older than StaleAfter, see Stale). The temporary file beside
// path (named .<name>.<16 hex digits>.partial), which Discard or Commit
// removes, is created only when the download starts (the first Reset or
// ReadFrom): a create that first waits a long time for its job has none
// that another run could take for a killed run's.
func Create(path string, opts Options) (*File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	stale := removeStale(path, time.Now())
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return &File{path: path, perm: opts.Perm.Perm(), ctx: ctx, want: opts.Format, stale: stale, ops: systemOps}, nil
}

// open creates the temporary file, once.
func (f *File) open() error {
	if f.tmp != nil {
		return nil
	}
	perm := f.perm
	if perm == 0 {
		perm = 0o666
	}
	tmp, err := createTemp(f.path, perm)
	if err != nil {
		return err
	}
	f.tmp = tmp
	return nil
}

// Path is where Commit puts the archive.
func (f *File) Path() string { return f.path }

// Stale lists the partial downloads of an earlier, killed run that Create
// removed.
func (f *File) Stale() []string { return f.stale }

// TempPath is the temporary file the archive is written to until Commit;
// "" until the download starts.
func (f *File) TempPath() string {
	if f.tmp == nil {
		return ""
	}
	return f.tmp.Name()
}

// Reset empties the temporary file for a new attempt, creating it for the
// first.
func (f *File) Reset() error {
	if f.closed {
		return errors.New("archivefile: Reset after Commit or Discard")
	}
	f.complete = false
	if err := f.open(); err != nil {
		return err
	}
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
	if err := f.open(); err != nil {
		return 0, err
	}
	sha, sum := sha256.New(), md5.New() //nolint:gosec // see the import
	entries, format := 0, ""
	if f.buffers == nil {
		f.buffers = newBuffers()
	}
	fo := newFanOut(f.buffers)
	fo.add(copying(f.tmp))
	fo.add(copying(sha))
	fo.add(copying(sum))
	fo.add(func(r io.Reader) (err error) { format, entries, err = check(f.ctx, r, f.want); return err })
	n, readErr, consumeErr := fo.copy(r)
	switch {
	case readErr != nil:
		return n, readErr
	case consumeErr != nil:
		return n, consumeErr
	}
	f.summary = Summary{Size: n, Entries: entries, Format: format}
	sha.Sum(f.summary.SHA256[:0])
	sum.Sum(f.summary.MD5[:0])
	f.complete = true
	return n, nil
}

// Summary describes the archive of the last ReadFrom that succeeded.
func (f *File) Summary() Summary { return f.summary }

// Commit moves the complete archive to Path and returns its summary and
// the identity of the file it now is. It sets the permission of Options on
// the open file (fchmod), flushes the file to disk, then the directory,
// and renames the file to Path with a rename that never replaces (see
// renameNoReplace), then flushes the directory again: once Commit
// returns, the archive survives a crash.
//
// When Path is taken, what is there is replaced only if it is a regular
// file and mayReplace, given its identity, returns nil (a nil mayReplace
// allows nothing): it is replaced in one step, never leaving Path empty
// (see replace.go), and removed if it is still that file, put back
// otherwise. A directory, a symbolic link, a FIFO or a device at Path is
// never replaced (ErrNotRegular).
//
// On error the temporary file is removed (if its name still holds the
// file written) and Path holds what it held. Flushing a directory is best effort (some file
// systems cannot); the rest is not.
func (f *File) Commit(mayReplace func(found Identity) error) (Summary, Identity, error) {
	if f.closed {
		return Summary{}, Identity{}, errors.New("archivefile: Commit after Commit or Discard")
	}
	if !f.complete {
		_ = f.Discard()
		return Summary{}, Identity{}, errors.New("archivefile: no complete archive to commit")
	}
	id, err := f.seal()
	if err != nil {
		f.removeTemp(id)
		return Summary{}, Identity{}, err
	}
	dir := filepath.Dir(f.path)
	_ = f.ops.syncDir(dir)
	if err := f.place(id, mayReplace); err != nil {
		f.removeTemp(id)
		return Summary{}, Identity{}, err
	}
	_ = f.ops.syncDir(dir)
	return f.summary, id, nil
}

// seal sets the temporary file's permission through its descriptor,
// flushes it to disk, reads its identity and closes it. The identity is
// read first, so that a failure after it can still remove the file.
func (f *File) seal() (Identity, error) {
	f.closed = true
	id, err := identifyFile(f.tmp)
	if err == nil && f.perm != 0 {
		err = f.tmp.Chmod(f.perm)
	}
	if err == nil {
		err = f.ops.syncFile(f.tmp)
	}
	if closeErr := f.tmp.Close(); err == nil {
		err = closeErr
	}
	return id, err
}

// Discard removes the temporary file, if its name still holds the file
// written. It does nothing after Commit, and may be called any number of
// times.
func (f *File) Discard() error {
	if f.closed {
		return nil
	}
	f.closed = true
	if f.tmp == nil {
		return nil
	}
	id, err := identifyFile(f.tmp)
	_ = f.tmp.Close()
	if err != nil {
		return err
	}
	if err := RemoveIf(f.tmp.Name(), id); err != nil && !errors.Is(err, os.ErrNotExist) {
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
	size, err = io.CopyBuffer(h, file, make([]byte, bufferSize))
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
	s.Size, err = io.CopyBuffer(io.MultiWriter(sha, sum), file, make([]byte, bufferSize))
	if err != nil {
		return Summary{}, fmt.Errorf("reading %s: %w", path, err)
	}
	sha.Sum(s.SHA256[:0])
	sum.Sum(s.MD5[:0])
	return s, nil
}
