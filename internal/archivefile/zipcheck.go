package archivefile

import (
	"bufio"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"strings"
)

// The language of ZIP archives the check accepts is the tar language's
// (regular files and directories, the names checkName accepts, no two
// alike once folded, the same limits), in ZIPs that every extractor reads
// alike. Extractors read a ZIP two ways: from its local headers, front to
// back (BusyBox unzip), or from its central directory at the end (Info-ZIP
// unzip, 7-Zip, Python's zipfile, libarchive). The language makes the two
// readings one: the local entries follow one another from the first byte,
// with no gap; the central directory follows them, one record per entry
// in the same order, each agreeing with its local header (name, version,
// flags, method, CRC and sizes, the actual ones); then the end record
// (after a ZIP64 end record and locator where it needs them) with the
// counts, size and offset of the directory, and its comment ends the
// archive. Stored or deflate, no encryption, no extra field but the few
// that carry times, owners and consistent ZIP64 sizes.
//
// The archive is streamed, so the check reads it once, front to back:
// each local entry is checked and its data decompressed and CRC-checked as
// it arrives, and what the central directory must agree with is kept per
// entry (a hash of its name, not the name: memory stays bounded by the
// limits' number of paths); the central directory and the end records are
// checked against it when they arrive, at the end. The archive reaches its
// destination only once the whole has checked out, as a tar.gz does.

// The ZIP signatures.
const (
	sigLocal      = 0x04034b50
	sigCentral    = 0x02014b50
	sigDescriptor = 0x08074b50
	sigEnd        = 0x06054b50
	sigEnd64      = 0x06064b50
	sigLocator64  = 0x07064b50
)

// The sizes of the fixed parts of the ZIP records, signatures included.
const (
	localLen     = 30
	centralLen   = 46
	endLen       = 22
	end64Len     = 56
	locator64Len = 20
)

// ZIP's methods the language accepts.
const (
	methodStore   = 0
	methodDeflate = 8
)

// max32 is the value of a 32-bit field that ZIP64 replaces.
const max32 = 0xffffffff

// zipEntry is what the central directory must agree with: a local entry's
// header and its data as read.
type zipEntry struct {
	offset       int64 // of its local header
	name         uint64
	nameLen      int
	version      uint16
	flags        uint16
	method       uint16
	crc          uint32
	csize, usize int64
	dir          bool
}

// zipStream is the archive being read, with the number of bytes read. It
// is an io.ByteReader, so that flate reads no byte past a deflate stream.
type zipStream struct {
	br *bufio.Reader
	n  int64
}

func (s *zipStream) Read(p []byte) (int, error) {
	n, err := s.br.Read(p)
	s.n += int64(n)
	return n, err
}

func (s *zipStream) ReadByte() (byte, error) {
	b, err := s.br.ReadByte()
	if err == nil {
		s.n++
	}
	return b, err
}

// zipChecker reads one ZIP.
type zipChecker struct {
	ctx     context.Context
	lim     limits
	in      *zipStream
	out     int64 // decompressed bytes read
	seed    maphash.Seed
	paths   *pathSet
	local   []zipEntry
	entries int
	current string // the entry whose data is being read
	buf     []byte
	inflate io.ReadCloser
}

// verifyZip reads r as a ZIP to its very end, checks that it is in the
// language and returns the number of its entries, as verify does for a
// tar.gz.
func verifyZip(ctx context.Context, r io.Reader) (int, error) {
	return verifyZipWithin(ctx, r, defaultLimits)
}

func verifyZipWithin(ctx context.Context, r io.Reader, lim limits) (int, error) {
	c := &zipChecker{ctx: ctx, lim: lim, in: &zipStream{br: bufio.NewReaderSize(r, 64<<10)}, seed: maphash.MakeSeed(),
		paths: newPathSet(lim.paths), buf: make([]byte, 64<<10)}
	err := c.run()
	return c.entries, err
}

func (c *zipChecker) run() error {
	sig, err := c.signature()
	for err == nil && sig == sigLocal {
		if err = c.ctx.Err(); err == nil {
			err = c.localEntry()
		}
		if err == nil {
			sig, err = c.signature()
		}
	}
	switch {
	case err != nil:
		return err
	case len(c.local) == 0:
		return c.refuseArchive("it holds no entry (an empty ZIP, which Info-ZIP unzip fails on)")
	case sig != sigCentral:
		return c.refuseArchive(fmt.Sprintf("after its %d local entries (at byte %d) come bytes that are neither a local "+
			"header nor the central directory", len(c.local), c.in.n-4))
	}
	return c.directory()
}

// read fills p from the archive; its end there is a truncation.
func (c *zipChecker) read(p []byte) error {
	if _, err := io.ReadFull(c.in, p); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return explain(err, c.where())
	}
	return nil
}

// signature reads the next record's signature.
func (c *zipChecker) signature() (uint32, error) {
	var b [4]byte
	if err := c.read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// localEntry reads a local header (its signature read), checks it, reads
// its data, and keeps what the central directory must agree with.
func (c *zipChecker) localEntry() error {
	e := zipEntry{offset: c.in.n - 4}
	var h [localLen - 4]byte
	if err := c.read(h[:]); err != nil {
		return err
	}
	le := binary.LittleEndian
	e.version, e.flags, e.method, e.crc = le.Uint16(h[0:]), le.Uint16(h[2:]), le.Uint16(h[4:]), le.Uint32(h[10:])
	e.csize, e.usize = int64(le.Uint32(h[14:])), int64(le.Uint32(h[18:]))
	nameExtra := make([]byte, int(le.Uint16(h[22:]))+int(le.Uint16(h[24:])))
	if err := c.read(nameExtra); err != nil {
		return err
	}
	name, extra := string(nameExtra[:le.Uint16(h[22:])]), nameExtra[le.Uint16(h[22:]):]
	e.name, e.nameLen, e.dir = maphash.String(c.seed, name), len(name), strings.HasSuffix(name, "/")
	if rule := c.acceptLocal(&e, name, extra); rule != "" {
		return c.refuse(name, rule)
	}
	if err := c.data(&e, name); err != nil {
		return err
	}
	if len(c.local) >= c.lim.paths {
		return c.refuse(name, fmt.Sprintf("the archive may not hold more than %d entries", c.lim.paths))
	}
	c.local = append(c.local, e)
	return nil
}

// acceptLocal checks a local header against the language and records its
// path; it resolves its ZIP64 sizes.
func (c *zipChecker) acceptLocal(e *zipEntry, name string, extra []byte) string {
	rule := headerRule(e.version, e.flags, e.method, name)
	if rule == "" {
		var z64 []byte
		if z64, rule = extraRule(extra); rule == "" {
			rule = localSizes(e, z64)
		}
	}
	if rule == "" {
		rule = entryRule(e)
	}
	if rule == "" && e.flags&flagDescriptor == 0 && c.out+e.usize > c.lim.ceiling {
		rule = fmt.Sprintf("its size (%d bytes) takes the archive past %s decompressed, the most allowed", e.usize, sizeText(c.lim.ceiling))
	}
	if rule != "" {
		return rule
	}
	segments, rule := checkName(name, e.dir)
	if rule == "" {
		rule = c.paths.add(segments, e.dir)
	}
	if rule == "" && segments != nil {
		c.entries++
	}
	return rule
}

// data reads an entry's data, decompressing and CRC-checking it, and its
// data descriptor, and records in e what it holds.
func (c *zipChecker) data(e *zipEntry, name string) error {
	c.current = name
	defer func() { c.current = "" }()
	start, crc := c.in.n, crc32.NewIEEE()
	src := io.LimitReader(c.in, e.csize)
	if e.method == methodDeflate {
		if err := c.resetInflate(); err != nil {
			return err
		}
		src = c.inflate
	}
	usize, err := c.copyData(src, crc, e)
	if err != nil {
		return err
	}
	got := zipEntry{crc: crc.Sum32(), csize: c.in.n - start, usize: usize}
	if got.csize < e.csize { // stored data cut short
		return explain(io.ErrUnexpectedEOF, c.where())
	}
	if e.flags&flagDescriptor != 0 {
		if err := c.descriptor(e, got); err != nil {
			return err
		}
	}
	switch {
	case got.csize != e.csize:
		return c.refuse(name, fmt.Sprintf("its compressed data is %d bytes long, where its header says %d", got.csize, e.csize))
	case got.usize != e.usize:
		return c.refuse(name, fmt.Sprintf("its data is %d bytes long, where its header says %d", got.usize, e.usize))
	case got.crc != e.crc:
		return &InvalidError{Reason: fmt.Sprintf("entry %q: its CRC-32 (%08x) does not match its data's (%08x): the archive is corrupt",
			name, e.crc, got.crc)}
	}
	return nil
}

// copyData reads src to its end into crc, within the limits, and returns
// its length. For an entry whose header gives its size, more data than
// that is refused as soon as it comes.
func (c *zipChecker) copyData(src io.Reader, crc io.Writer, e *zipEntry) (int64, error) {
	var n int64
	for {
		if err := c.ctx.Err(); err != nil {
			return n, err
		}
		m, err := src.Read(c.buf)
		n += int64(m)
		c.out += int64(m)
		_, _ = crc.Write(c.buf[:m])
		if rule := c.lim.exceeded(c.out, c.in.n); rule != "" {
			return n, c.refuse(c.current, rule)
		}
		if e.flags&flagDescriptor == 0 && n > e.usize {
			return n, c.refuse(c.current, fmt.Sprintf("its data is longer than the %d bytes its header says", e.usize))
		}
		switch {
		case errors.Is(err, io.EOF):
			return n, nil
		case err != nil:
			return n, explain(err, c.where())
		}
	}
}

// resetInflate makes the deflate reader read the archive from here.
func (c *zipChecker) resetInflate() error {
	if c.inflate == nil {
		c.inflate = flate.NewReader(c.in)
		return nil
	}
	resetter, ok := c.inflate.(flate.Resetter)
	if !ok {
		return errors.New("archivefile: compress/flate's reader cannot be reset")
	}
	return resetter.Reset(c.in, nil)
}

// descriptor reads the data descriptor after an entry's data, which must
// have its signature and say what was read (got); e takes its values.
// Its sizes are 8 bytes long where ZIP64 needs them, 4 otherwise.
func (c *zipChecker) descriptor(e *zipEntry, got zipEntry) error {
	wide := got.csize >= max32 || got.usize >= max32
	b := make([]byte, 16, 24)
	if wide {
		b = b[:24]
	}
	if err := c.read(b); err != nil {
		return err
	}
	le := binary.LittleEndian
	d := zipEntry{crc: le.Uint32(b[4:])}
	if wide {
		d.csize, d.usize = int64(le.Uint64(b[8:])), int64(le.Uint64(b[16:]))
	} else {
		d.csize, d.usize = int64(le.Uint32(b[8:])), int64(le.Uint32(b[12:]))
	}
	switch {
	case le.Uint32(b) != sigDescriptor:
		return c.refuse(c.current, "its data descriptor does not start with its signature (readers disagree on one without)")
	case d.csize < 0 || d.usize < 0:
		return c.refuse(c.current, "its data descriptor's sizes are out of range")
	}
	for _, f := range [][2]int64{{int64(e.crc), int64(d.crc)}, {e.csize, d.csize}, {e.usize, d.usize}} {
		if f[0] != 0 && f[0] != f[1] { // a local header may give them (bsdtar gives the size)
			return c.refuse(c.current, fmt.Sprintf("its local header gives a CRC-32 of %08x and sizes of %d and %d bytes, "+
				"its data descriptor %08x, %d and %d", e.crc, e.csize, e.usize, d.crc, d.csize, d.usize))
		}
	}
	e.crc, e.csize, e.usize = d.crc, d.csize, d.usize
	return nil
}

// where says where the reading is, for an error.
func (c *zipChecker) where() string {
	if c.current != "" {
		return fmt.Sprintf("in entry %q", c.current)
	}
	return fmt.Sprintf("after %d entries", len(c.local))
}

// refuse is the error for an entry that breaks rule.
func (c *zipChecker) refuse(name, rule string) error {
	if name == "" {
		return &InvalidError{refused: true, Reason: fmt.Sprintf("entry %d (unnamed): %s", len(c.local)+1, rule)}
	}
	return &InvalidError{Entry: name, Reason: fmt.Sprintf("entry %q: %s", name, rule)}
}

// refuseArchive is the error for an archive that breaks rule, not an
// entry.
func (c *zipChecker) refuseArchive(rule string) error {
	return &InvalidError{refused: true, Reason: rule}
}
