package archivefile_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// The ZIP oracle: Go's archive/zip reads the central directory, and an
// independent walk of the local headers, front to back, must find the same
// entries in the same order, with nothing between them, before or after;
// each entry is then judged as the tar oracle judges one (cleanName,
// place). It shares no code with the check.

// judgeZip reads a ZIP and returns its entries, or why it is outside the
// language ("" when inside).
func judgeZip(archive []byte) ([]oEntry, string) {
	r, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, "archive/zip: " + err.Error()
	}
	if len(r.File) == 0 {
		return nil, "no entries"
	}
	if problem := walkLocals(archive, r.File); problem != "" {
		return nil, problem
	}
	var entries []oEntry
	seen, implied := map[string]bool{}, map[string]bool{}
	var total int64
	for _, f := range r.File {
		e, problem := judgeZipFile(f)
		if problem != "" {
			return nil, fmt.Sprintf("%q: %s", f.Name, problem)
		}
		if total += e.size; total > oracleLimit {
			return nil, "decompresses to more than the oracle reads"
		}
		if problem := place(e, seen, implied); problem != "" {
			return nil, problem
		}
		if e.path != "" {
			entries = append(entries, e)
		}
	}
	return entries, ""
}

// judgeZipFile judges one entry of the central directory.
func judgeZipFile(f *zip.File) (oEntry, string) {
	host, dir := f.CreatorVersion>>8, strings.HasSuffix(f.Name, "/")
	mode := f.Mode()
	switch {
	case f.Flags&0x1 != 0 || f.Flags&^0x80e != 0:
		return oEntry{}, fmt.Sprintf("flags %#x", f.Flags)
	case f.Method != zip.Store && f.Method != zip.Deflate:
		return oEntry{}, fmt.Sprintf("method %d", f.Method)
	case host != 0 && host != 3:
		return oEntry{}, fmt.Sprintf("host %d", host)
	case host == 0 && f.ExternalAttrs>>16 != 0:
		return oEntry{}, "a Unix mode on an MS-DOS entry"
	case mode.Type() != 0 && mode.Type() != fs.ModeDir, mode.IsDir() != dir:
		return oEntry{}, fmt.Sprintf("mode %v", mode)
	case mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0:
		return oEntry{}, "set-user-ID, set-group-ID or sticky"
	case dir && (host == 3 && f.ExternalAttrs>>16&0o300 != 0o300 || f.ExternalAttrs&0x01 != 0):
		return oEntry{}, "a directory its owner cannot write"
	case f.Flags&0x800 == 0 && strings.IndexFunc(f.Name, func(r rune) bool { return r >= 0x80 }) >= 0:
		return oEntry{}, "a non-ASCII name without the UTF-8 flag"
	case f.ReaderVersion&0xff > 45:
		return oEntry{}, "version needed past 4.5"
	case host != 3 && strings.IndexFunc(f.Name, func(r rune) bool { return r >= 0x80 }) >= 0:
		return oEntry{}, "a non-ASCII name not made on Unix (Debian's unzip reads it as code page 437)"
	case f.CompressedSize64 < 0xffffffff && f.UncompressedSize64 < 0xffffffff && hasExtra(f.Extra, 0x0001):
		return oEntry{}, "a needless ZIP64 record (BusyBox unzip reads none)"
	}
	if problem := judgeExtra(f.Extra); problem != "" {
		return oEntry{}, problem
	}
	clean, problem := cleanName(f.Name)
	if problem != "" {
		return oEntry{}, problem
	}
	rc, err := f.Open()
	if err != nil {
		return oEntry{}, err.Error()
	}
	defer func() { _ = rc.Close() }()
	data, err := io.ReadAll(io.LimitReader(rc, oracleLimit))
	switch {
	case err != nil:
		return oEntry{}, err.Error()
	case dir && (len(data) > 0 || f.Method != zip.Store):
		return oEntry{}, "a directory with data"
	case clean == "" && !dir:
		return oEntry{}, "a file at the root"
	}
	return oEntry{path: clean, dir: dir, size: int64(len(data)), sum: sha256.Sum256(data)}, ""
}

// judgeExtra accepts the extra records that carry times, owners and ZIP64
// sizes only.
func judgeExtra(extra []byte) string {
	for len(extra) >= 4 {
		id, size := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		switch id {
		case 0x0001, 0x000a, 0x5455, 0x7875, 0xcafe:
		default:
			return fmt.Sprintf("extra record %#04x", id)
		}
		if 4+size > len(extra) {
			return "a cut extra record"
		}
		extra = extra[4+size:]
	}
	if len(extra) != 0 {
		return "a cut extra record"
	}
	return ""
}

// hasExtra reports whether an extra field has a record id.
func hasExtra(extra []byte, id uint16) bool {
	for len(extra) >= 4 {
		if binary.LittleEndian.Uint16(extra) == id {
			return true
		}
		extra = extra[min(len(extra), 4+int(binary.LittleEndian.Uint16(extra[2:]))):]
	}
	return false
}

// walkLocals reads the local headers from the archive's first byte, one
// per central record, and then the central directory and the end record,
// which must end the archive.
func walkLocals(b []byte, files []*zip.File) string {
	le := binary.LittleEndian
	pos := 0
	for _, f := range files {
		if pos+30 > len(b) || string(b[pos:pos+4]) != "PK\x03\x04" {
			return fmt.Sprintf("no local header at %d for %q", pos, f.Name)
		}
		h := b[pos : pos+30]
		n, m := int(le.Uint16(h[26:])), int(le.Uint16(h[28:]))
		if pos+30+n+m > len(b) || string(b[pos+30:pos+30+n]) != f.Name {
			return fmt.Sprintf("the local header at %d is not %q's", pos, f.Name)
		}
		flags := le.Uint16(h[6:])
		if flags != f.Flags || le.Uint16(h[8:]) != f.Method {
			return fmt.Sprintf("%q: local flags or method differ", f.Name)
		}
		if le.Uint32(h[18:]) == 0xffffffff && f.CompressedSize64 < 0xffffffff && f.UncompressedSize64 < 0xffffffff {
			return fmt.Sprintf("%q: a needless ZIP64 local header", f.Name)
		}
		pos += 30 + n + m + int(f.CompressedSize64)
		if flags&0x8 == 0 {
			if le.Uint32(h[14:]) != f.CRC32 {
				return fmt.Sprintf("%q: the local CRC differs", f.Name)
			}
			continue
		}
		if pos+16 > len(b) || string(b[pos:pos+4]) != "PK\x07\x08" || le.Uint32(b[pos+4:]) != f.CRC32 {
			return fmt.Sprintf("%q: no data descriptor with its signature and CRC", f.Name)
		}
		pos += 16
	}
	return walkCentral(b, pos, len(files))
}

// walkCentral reads count central records from pos, then the end records.
func walkCentral(b []byte, pos, count int) string {
	le := binary.LittleEndian
	for range count {
		if pos+46 > len(b) || string(b[pos:pos+4]) != "PK\x01\x02" {
			return fmt.Sprintf("no central record at %d", pos)
		}
		pos += 46 + int(le.Uint16(b[pos+28:])) + int(le.Uint16(b[pos+30:])) + int(le.Uint16(b[pos+32:]))
	}
	if pos+4 <= len(b) && string(b[pos:pos+4]) == "PK\x06\x06" {
		return "a ZIP64 end record, which small archives do not need (BusyBox unzip reads none)"
	}
	if pos+22 > len(b) || string(b[pos:pos+4]) != "PK\x05\x06" {
		return fmt.Sprintf("no end record at %d", pos)
	}
	if end := pos + 22 + int(le.Uint16(b[pos+20:])); end != len(b) {
		return fmt.Sprintf("the end record and its comment end at %d, the archive at %d", end, len(b))
	}
	if bytes.Count(b[pos:], []byte("PK\x05\x06")) != 1 {
		return "a second end record signature"
	}
	return ""
}
