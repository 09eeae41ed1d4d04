package archivefile

import (
	"archive/tar"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// InvalidError is an archive that is not a sound tar.gz, or that holds an
// entry an extraction would write outside its directory, or that is not a
// regular file, a directory or a link within the archive.
type InvalidError struct {
	// Reason says what is wrong, as a sentence without its final period.
	Reason string
	// Entry names the offending entry of an unsafe archive ("" when the
	// archive is corrupt or truncated rather than unsafe).
	Entry string
}

func (e *InvalidError) Error() string { return "the archive is not a valid tar.gz: " + e.Reason }

// Unsafe reports whether the archive is well-formed but holds an entry
// that is unsafe to extract (see tree.add).
func (e *InvalidError) Unsafe() bool { return e.Entry != "" }

// verify reads r as a gzip-compressed tar to its very end, so that gzip
// checks its CRC-32 and length, and returns the number of entries. It
// checks ctx once per entry and returns ctx.Err() once ctx is done.
func verify(ctx context.Context, r io.Reader) (int, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return 0, explain(err, atStart)
	}
	tr := tar.NewReader(gz)
	var t tree
	entries := 0
	for {
		if err := ctx.Err(); err != nil {
			return entries, err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return entries, explain(err, fmt.Sprintf("after %d entries", entries))
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue // metadata for the whole archive, not an entry
		}
		if reason := t.add(hdr); reason != "" {
			return entries, &InvalidError{Reason: reason, Entry: hdr.Name}
		}
		entries++
	}
	// The tar's end marker may be followed by padding; gzip's own end,
	// with its checksum, comes after it.
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return entries, explain(err, "after the last entry")
	}
	return entries, nil
}

// atStart is where explain is told an error struck the gzip header.
const atStart = "at its start"

// explain turns a reading error, which struck where ("after 3 entries"),
// into an *InvalidError; errStopped passes through.
func explain(err error, where string) error {
	var corrupt flate.CorruptInputError
	reason := ""
	switch {
	case errors.Is(err, errStopped):
		return err
	case where == atStart && errors.Is(err, io.EOF):
		reason = "it is empty"
	case where == atStart && errors.Is(err, gzip.ErrHeader):
		reason = "it is not gzip-compressed (it does not start with the gzip header)"
	case errors.Is(err, io.ErrUnexpectedEOF):
		reason = "it ends early (" + where + "): the archive is truncated"
	case errors.Is(err, gzip.ErrChecksum):
		reason = "its gzip checksum does not match its content: the archive is corrupt"
	case errors.As(err, &corrupt):
		reason = fmt.Sprintf("its compressed data is corrupt (%s, at byte %d of the deflate stream)", where, int64(corrupt))
	case errors.Is(err, gzip.ErrHeader):
		reason = "it goes on after its end with data that is not gzip"
	case errors.Is(err, tar.ErrHeader):
		reason = "a tar header is invalid (" + where + "): the archive is corrupt"
	default:
		reason = fmt.Sprintf("reading it failed (%s): %v", where, err)
	}
	return &InvalidError{Reason: reason}
}

// pathProblem says why name is not a path inside the archive's directory,
// or returns "". Backslashes count as separators, as Windows tools read
// them.
func pathProblem(name string) string {
	s := slashed(name)
	switch clean := path.Clean(s); {
	case name == "":
		return "has an empty path"
	case strings.ContainsRune(name, 0):
		return "has a NUL byte in its path"
	case isAbs(s):
		return "has an absolute path"
	case clean == ".." || strings.HasPrefix(clean, "../"):
		return `climbs out of the archive's directory with ".."`
	}
	return ""
}

// isAbs reports a rooted path or one with a Windows drive letter.
func isAbs(slashed string) bool {
	if strings.HasPrefix(slashed, "/") {
		return true
	}
	return len(slashed) >= 2 && slashed[1] == ':' &&
		('a' <= slashed[0] && slashed[0] <= 'z' || 'A' <= slashed[0] && slashed[0] <= 'Z')
}
