package archivefile

import (
	"archive/tar"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
)

// InvalidError is an archive that is not a sound tar.gz (or ZIP), or one
// that is not in the language the check accepts: regular files and
// directories with plain names, in headers every extractor reads alike
// (see check.go and zipcheck.go).
type InvalidError struct {
	// Reason says what is wrong, as a sentence without its final period:
	// for a refused entry, `entry "<name>": <the rule it breaks>`.
	Reason string
	// Entry names the refused entry ("" when the archive is corrupt or
	// truncated, or what is refused is not an entry).
	Entry string
	// refused marks an archive outside the language (Unsafe), whether or
	// not an entry is to blame.
	refused bool
	// format is the archive's format (FormatZip), "" for tar.gz.
	format string
}

func (e *InvalidError) Error() string {
	if e.format == "" {
		return "the archive is not a valid tar.gz: " + e.Reason
	}
	return "the archive is not a valid " + e.format + ": " + e.Reason
}

// Unsafe reports whether the archive is well-formed gzip but outside the
// language: an archive made so, not one damaged in storage or transit.
func (e *InvalidError) Unsafe() bool { return e.refused || e.Entry != "" }

// verify reads r as a gzip-compressed tar to its very end, so that gzip
// checks its CRC-32 and length, checks that it is in the language, and
// returns the number of its entries (files and directories, not counting
// the root "./" nor the directories their paths imply). It checks ctx
// once per entry and returns ctx.Err() once ctx is done.
func verify(ctx context.Context, r io.Reader) (int, error) {
	return verifyWithin(ctx, r, defaultLimits)
}

func verifyWithin(ctx context.Context, r io.Reader, lim limits) (int, error) {
	in := &countingReader{r: r}
	gz, err := newMembers(in)
	if err != nil {
		return 0, explain(err, atStart)
	}
	inner := newWatch(false)
	c := &checker{ctx: ctx, lim: lim, in: in, gz: watched{r: gz, w: inner}, paths: newPathSet(lim.paths)}
	err = c.run()
	if err == nil {
		err = readingRefusal(endRecordRule("the tar inside it", inner.last, inner.n), "")
	}
	return c.entries, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// atStart is where explain is told an error struck the gzip header.
const atStart = "at its start"

// explain turns a reading error, which struck where ("after 3 entries"),
// into an *InvalidError; errStopped passes through.
func explain(err error, where string) error {
	var corrupt flate.CorruptInputError
	var invalid *InvalidError
	reason := ""
	switch {
	case errors.Is(err, errStopped):
		return err
	case errors.As(err, &invalid):
		return invalid
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
