package archivefile

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The gzip members of an archive, read one after the other as gzip(1)
// reads them, each member's header parsed from its raw bytes (RFC 1952),
// as the tar headers are: every byte is read and held to what writers
// write, the reserved flag bits are refused, and the header's own CRC is
// checked when it has one. The data is inflated by compress/flate, and the
// CRC-32 and length of each member checked against its trailer.

// The flags of a member header.
const (
	flagHdrCRC   = 1 << 1
	flagExtra    = 1 << 2
	flagName     = 1 << 3
	flagComment  = 1 << 4
	flagReserved = 0xe0
)

// maxGzipText bounds a member header's file name and comment.
const maxGzipText = 1024

// members is the decompressed stream of every member.
type members struct {
	r    *bufio.Reader
	fl   io.ReadCloser // the current member's data; nil after the last
	crc  uint32
	size uint32
	err  error // what ended the stream early, returned by every later Read
}

// newMembers reads the first member's header from r.
func newMembers(r io.Reader) (*members, error) {
	m := &members{r: bufio.NewReader(r)}
	if err := m.header(); err != nil {
		return nil, err
	}
	return m, nil
}

// Read returns the data of each member in turn. An error is sticky: a
// reader that got enough bytes with it (io.ReadFull drops the error then)
// gets it again on its next Read, so that what follows the last byte it
// asked for, such as data after the last member, is never let through.
func (m *members) Read(p []byte) (int, error) {
	for m.err == nil && m.fl != nil {
		n, err := m.fl.Read(p)
		m.crc = crc32.Update(m.crc, crc32.IEEETable, p[:n])
		m.size += uint32(n) //nolint:gosec // ISIZE is the length modulo 2³²
		if errors.Is(err, io.EOF) {
			err = m.next()
		}
		m.err = err
		if n > 0 || err != nil {
			return n, err
		}
	}
	if m.err != nil {
		return 0, m.err
	}
	return 0, io.EOF
}

// next checks the current member's trailer, then reads the header of the
// next member, if any follows.
func (m *members) next() error {
	var t [8]byte
	if _, err := io.ReadFull(m.r, t[:]); err != nil {
		return io.ErrUnexpectedEOF
	}
	if binary.LittleEndian.Uint32(t[:4]) != m.crc || binary.LittleEndian.Uint32(t[4:]) != m.size {
		return gzip.ErrChecksum
	}
	m.fl = nil
	if _, err := m.r.Peek(1); errors.Is(err, io.EOF) {
		return nil
	}
	return m.header()
}

// headerReader reads a member header's bytes, keeping their CRC.
type headerReader struct {
	r   *bufio.Reader
	crc uint32
}

func (h *headerReader) read(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(h.r, b); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	h.crc = crc32.Update(h.crc, crc32.IEEETable, b)
	return b, nil
}

// header reads a member's header and starts inflating its data.
func (m *members) header() error {
	if _, err := m.r.Peek(1); err != nil {
		return err // io.EOF: nothing at all
	}
	h := &headerReader{r: m.r}
	fixed, err := h.read(10)
	if err != nil {
		return err
	}
	if fixed[0] != 0x1f || fixed[1] != 0x8b || fixed[2] != 8 {
		return gzip.ErrHeader
	}
	flags := fixed[3]
	switch xfl := fixed[8]; {
	case flags&flagReserved != 0:
		return gzipRefusal(fmt.Sprintf("it sets reserved flag bits (%#02x), which readers disagree on", flags&flagReserved))
	case xfl != 0 && xfl != 2 && xfl != 4:
		return gzipRefusal(fmt.Sprintf("its extra flags are %#02x, which no compressor writes", xfl))
	}
	if err := m.optional(h, flags); err != nil {
		return err
	}
	m.fl, m.crc, m.size = flate.NewReader(m.r), 0, 0
	return nil
}

// optional reads the optional fields that flags announce.
func (m *members) optional(h *headerReader, flags byte) error {
	if flags&flagExtra != 0 {
		if err := readExtra(h); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		flag byte
		what string
	}{{flagName, "file name"}, {flagComment, "comment"}} {
		if flags&f.flag == 0 {
			continue
		}
		if err := readText(h, f.what); err != nil {
			return err
		}
	}
	if flags&flagHdrCRC != 0 {
		want := uint16(h.crc) //nolint:gosec // the header CRC is the CRC-32's low 16 bits
		got, err := h.read(2)
		if err != nil {
			return err
		}
		if binary.LittleEndian.Uint16(got) != want {
			return gzip.ErrHeader
		}
	}
	return nil
}

// readExtra reads the extra field: subfields (two identifying bytes, a
// length, the data) that fill it exactly.
func readExtra(h *headerReader) error {
	xlen, err := h.read(2)
	if err != nil {
		return err
	}
	extra, err := h.read(int(binary.LittleEndian.Uint16(xlen)))
	if err != nil {
		return err
	}
	for len(extra) > 0 {
		if len(extra) < 4 || 4+int(binary.LittleEndian.Uint16(extra[2:4])) > len(extra) {
			return gzipRefusal("its extra field is not a sequence of subfields")
		}
		extra = extra[4+int(binary.LittleEndian.Uint16(extra[2:4])):]
	}
	return nil
}

// readText reads a NUL-terminated Latin-1 text: printable, without
// control characters, at most maxGzipText bytes.
func readText(h *headerReader, what string) error {
	for n := 0; ; n++ {
		b, err := h.read(1)
		switch {
		case err != nil:
			return err
		case b[0] == 0:
			return nil
		case n == maxGzipText:
			return gzipRefusal(fmt.Sprintf("its %s is longer than %d bytes", what, maxGzipText))
		case b[0] < 0x20 || (0x7f <= b[0] && b[0] < 0xa0):
			return gzipRefusal(fmt.Sprintf("its %s holds a control character (%#02x)", what, b[0]))
		}
	}
}

// gzipRefusal is the error of a member header outside the language.
func gzipRefusal(rule string) error {
	return &InvalidError{refused: true, Reason: "a gzip member header is refused: " + rule}
}
