package archivefile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// The formats of archive the check knows, as Summary.Format names them.
const (
	FormatTarGz = "tar.gz"
	FormatZip   = "zip"
)

// formatUnknown names, in an error, an archive that is neither.
const formatUnknown = "tar.gz or ZIP"

// The signatures an archive starts with: gzip's magic, a ZIP's first
// local header, and a ZIP's end record (an empty ZIP).
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zipLocal  = []byte("PK\x03\x04")
	zipEmpty  = []byte("PK\x05\x06")
)

// check tells the archive's format by its first bytes, never by a name,
// and checks it in that format's language: verify for tar.gz, verifyZip
// for ZIP. An archive of another format than want (when not "") is
// refused, as is one that an extractor could read as another format
// (readings.go). It returns the format, and the entries as verify does.
func check(ctx context.Context, r io.Reader, want string) (string, int, error) {
	var head [4]byte
	n, err := io.ReadFull(r, head[:])
	switch {
	case errors.Is(err, errStopped):
		return "", 0, err
	case n == 0:
		return "", 0, &InvalidError{format: formatUnknown, Reason: "it is empty"}
	}
	start := head[:n]
	found := FormatOf(start)
	if want != "" && found != want {
		return "", 0, wrongFormat(found, want)
	}
	raw := newWatch(found == FormatZip)
	r = watched{r: io.MultiReader(bytes.NewReader(start), r), w: raw}
	switch found {
	case FormatTarGz:
		entries, err := verify(ctx, r)
		if err == nil {
			err = readingRefusal(endRecordRule("the archive", raw.last, raw.n), "")
		}
		return FormatTarGz, entries, err
	case FormatZip:
		entries, err := verifyZip(ctx, r)
		if err == nil {
			err = readingRefusal(zipHeadRule(raw.head), FormatZip)
		}
		var invalid *InvalidError
		if errors.As(err, &invalid) {
			invalid.format = FormatZip
		}
		return FormatZip, entries, err
	}
	return "", 0, &InvalidError{format: formatUnknown, Reason: "it is not gzip-compressed nor a ZIP archive (it starts " +
		"with neither the gzip header nor a ZIP local header)"}
}

// readingRefusal is the error of an archive of format (FormatZip, or ""
// for tar.gz) that has a second reading (rule), nil for none.
func readingRefusal(rule, format string) error {
	if rule == "" {
		return nil
	}
	return &InvalidError{refused: true, format: format, Reason: rule + "; an archive must have one reading, " +
		"the same for every extractor"}
}

// wrongFormat is the error of an archive whose first bytes say found
// where the export's contract promises want.
func wrongFormat(found, want string) error {
	spelled := map[string]string{FormatTarGz: "a tar.gz (gzip-compressed tar)", FormatZip: "a ZIP", "": "neither a tar.gz nor a ZIP"}
	format := found // as InvalidError.format spells it
	switch found {
	case FormatTarGz:
		format = ""
	case "":
		format = formatUnknown
	}
	return &InvalidError{refused: true, format: format, Reason: fmt.Sprintf("its first bytes make it %s, where the "+
		"export's contract promises %s: an archive of another format than the one promised is refused, whatever it holds",
		spelled[found], spelled[want])}
}

// FormatOf tells an archive's format by its first four bytes (or fewer,
// for a shorter file), as the check does, never by a name: FormatTarGz for
// gzip's magic, FormatZip for a ZIP's first local header or the end record
// of an empty ZIP, and "" for anything else.
func FormatOf(head []byte) string {
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		return FormatTarGz
	case bytes.HasPrefix(head, zipLocal) || bytes.HasPrefix(head, zipEmpty):
		return FormatZip
	}
	return ""
}

// Format is the format the refused archive was read as: FormatTarGz,
// FormatZip, or "" when it starts as neither.
func (e *InvalidError) Format() string {
	switch e.format {
	case "":
		return FormatTarGz
	case FormatZip:
		return FormatZip
	}
	return ""
}
