package archivefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
)

// The central directory and the end records, read after the local
// entries and checked against them.

// zipEnd is the central directory as read (count, size, offset, its last
// bytes), and what the ZIP64 end record and its locator say of it.
type zipEnd struct {
	count, size, offset int64
	tail                [locator64Len]byte // the directory's last bytes, which a reader may take for a ZIP64 locator
	zip64At             int64              // where the ZIP64 end record starts; -1 for none
	zip64               zip64End
}

// zip64End is what a ZIP64 end record and its locator say.
type zip64End struct {
	recordLen         int64
	disk, dirDisk     uint32
	onDisk, total     int64
	size, offset      int64
	locDisk, locDisks uint32
	locOffset         int64
}

// directory reads the central directory (its first signature read), one
// record per local entry, then the end records.
func (c *zipChecker) directory() error {
	end := zipEnd{offset: c.in.n - 4, zip64At: -1}
	sig, records := uint32(sigCentral), 0
	var err error
	for ; sig == sigCentral; records++ {
		if records == len(c.local) {
			return c.refuseArchive(fmt.Sprintf("its central directory has more records than its %d local entries", len(c.local)))
		}
		if err := c.central(&c.local[records], &end); err != nil {
			return err
		}
		if sig, err = c.signature(); err != nil {
			return err
		}
	}
	if records < len(c.local) {
		return c.refuseArchive(fmt.Sprintf("its central directory has %d records for %d local entries", records, len(c.local)))
	}
	end.count, end.size = int64(records), c.in.n-4-end.offset
	if sig == sigEnd64 {
		if sig, err = c.zip64End(&end); err != nil {
			return err
		}
	}
	if sig != sigEnd {
		return c.refuseArchive(fmt.Sprintf("after its central directory (at byte %d) comes neither the end record nor a ZIP64 one", c.in.n-4))
	}
	return c.endRecord(&end)
}

// central reads one central record and checks it against its local entry
// e.
func (c *zipChecker) central(e *zipEntry, end *zipEnd) error {
	var h [centralLen]byte
	binary.LittleEndian.PutUint32(h[:], sigCentral)
	if err := c.read(h[4:]); err != nil {
		return err
	}
	le := binary.LittleEndian
	nameLen, extraLen, commentLen := int(le.Uint16(h[28:])), int(le.Uint16(h[30:])), int(le.Uint16(h[32:]))
	rest := make([]byte, nameLen+extraLen+commentLen)
	if err := c.read(rest); err != nil {
		return err
	}
	copy(end.tail[:], lastBytes(h[:], rest, locator64Len))
	name := string(rest[:nameLen])
	rule := c.centralRule(e, h[:], name, rest[nameLen:nameLen+extraLen])
	if rule == "" {
		if rule = commentRule(rest[nameLen+extraLen:]); rule != "" {
			rule = "its comment " + rule
		}
	}
	if rule != "" {
		return c.refuse(name, rule)
	}
	return nil
}

// centralRule checks a central record h, with its name and extra field,
// against its local entry e.
func (c *zipChecker) centralRule(e *zipEntry, h []byte, name string, extra []byte) string {
	le := binary.LittleEndian
	version, flags, method := le.Uint16(h[6:]), le.Uint16(h[8:]), le.Uint16(h[10:])
	usize, csize, offset := int64(le.Uint32(h[24:])), int64(le.Uint32(h[20:])), int64(le.Uint32(h[42:]))
	z64, rule := extraRule(extra)
	if rule == "" {
		rule = centralSizes(&usize, &csize, &offset, z64)
	}
	switch {
	case rule != "":
		return rule
	case le.Uint16(h[34:]) != 0:
		return "its central record puts it on another disk (multi-disk archives are refused)"
	case offset != e.offset:
		return fmt.Sprintf("its central record points at byte %d, where its local entry is at byte %d (records must follow the entries, in order)", offset, e.offset)
	case len(name) != e.nameLen || maphash.String(c.seed, name) != e.name:
		return "its central record names it otherwise than its local header"
	case version != e.version || flags != e.flags || method != e.method:
		return fmt.Sprintf("its central record gives version %d, flags 0x%04x and method %d, its local header %d, 0x%04x and %d",
			version, flags, method, e.version, e.flags, e.method)
	case le.Uint32(h[16:]) != e.crc || csize != e.csize || usize != e.usize:
		return fmt.Sprintf("its central record gives a CRC-32 of %08x and sizes of %d and %d bytes, its data %08x, %d and %d",
			le.Uint32(h[16:]), csize, usize, e.crc, e.csize, e.usize)
	}
	if rule := nameHostRule(le.Uint16(h[4:]), name); rule != "" {
		return rule
	}
	return attributesRule(le.Uint16(h[4:]), le.Uint32(h[38:]), name, e.dir)
}

// lastBytes returns the last n bytes of a followed by b.
func lastBytes(a, b []byte, n int) []byte {
	if len(b) >= n {
		return b[len(b)-n:]
	}
	return append(append([]byte{}, a[len(a)-(n-len(b)):]...), b...)
}

// zip64End reads the ZIP64 end record (its signature read) and its
// locator, and returns the signature that follows.
func (c *zipChecker) zip64End(end *zipEnd) (uint32, error) {
	end.zip64At = c.in.n - 4
	var b [end64Len - 4 + locator64Len]byte
	if err := c.read(b[:]); err != nil {
		return 0, err
	}
	le := binary.LittleEndian
	r, l := b[:end64Len-4], b[end64Len-4:]
	if le.Uint32(l) != sigLocator64 {
		return 0, c.refuseArchive("its ZIP64 end record is not followed by its locator")
	}
	end.zip64 = zip64End{
		recordLen: int64(le.Uint64(r)), disk: le.Uint32(r[12:]), dirDisk: le.Uint32(r[16:]),
		onDisk: int64(le.Uint64(r[20:])), total: int64(le.Uint64(r[28:])), size: int64(le.Uint64(r[36:])), offset: int64(le.Uint64(r[44:])),
		locDisk: le.Uint32(l[4:]), locOffset: int64(le.Uint64(l[8:])), locDisks: le.Uint32(l[16:]),
	}
	if rule := zip64Rule(end); rule != "" {
		return 0, c.refuseArchive("its ZIP64 end record " + rule)
	}
	return c.signature()
}

// zip64Rule checks the ZIP64 end record and its locator.
func zip64Rule(end *zipEnd) string {
	z := end.zip64
	switch {
	case z.recordLen != end64Len-12:
		return fmt.Sprintf("gives its size as %d bytes, not %d (extensible data is refused)", z.recordLen, end64Len-12)
	case z.disk != 0 || z.dirDisk != 0 || z.locDisk != 0 || z.locDisks != 1:
		return "or its locator speaks of other disks (multi-disk archives are refused)"
	case z.onDisk != end.count || z.total != end.count:
		return fmt.Sprintf("counts %d and %d records, where the central directory has %d", z.onDisk, z.total, end.count)
	case z.size != end.size || z.offset != end.offset:
		return fmt.Sprintf("places the central directory at byte %d for %d bytes, where it is at %d for %d",
			z.offset, z.size, end.offset, end.size)
	case end.count < 0xffff && end.size < max32 && end.offset < max32:
		return "is needless: the end record can hold every value (ZIP64 is accepted only where needed: BusyBox unzip does not read it)"
	case z.locOffset != end.zip64At:
		return fmt.Sprintf("is at byte %d, where its locator says %d", end.zip64At, z.locOffset)
	}
	return ""
}

// endRecord reads the end record (its signature read) and its comment,
// which must end the archive.
func (c *zipChecker) endRecord(end *zipEnd) error {
	var b [endLen]byte
	binary.LittleEndian.PutUint32(b[:], sigEnd)
	if err := c.read(b[4:]); err != nil {
		return err
	}
	comment := make([]byte, binary.LittleEndian.Uint16(b[20:]))
	if err := c.read(comment); err != nil {
		return err
	}
	if rule := endRule(b[:], comment, end); rule != "" {
		return c.refuseArchive("its end record " + rule)
	}
	var one [1]byte
	switch n, err := io.ReadFull(c.in, one[:]); {
	case n > 0:
		return c.refuseArchive(fmt.Sprintf("it goes on after its end record and comment (at byte %d), where readers "+
			"disagree on which end record is the last", c.in.n-1))
	case !errors.Is(err, io.EOF):
		return explain(err, "after the end record")
	}
	return nil
}

// endRule checks the end record b and its comment against the central
// directory read: each field is the actual value, or 0xffff(ffff) when a
// ZIP64 end record gives it.
func endRule(b, comment []byte, end *zipEnd) string {
	le := binary.LittleEndian
	zip64 := end.zip64At >= 0
	fits := func(field, actual, sentinel int64) bool {
		return (field == actual && actual < sentinel) || (field == sentinel && zip64)
	}
	switch {
	case le.Uint16(b[4:]) != 0 || le.Uint16(b[6:]) != 0:
		return "speaks of other disks (multi-disk archives are refused)"
	case !fits(int64(le.Uint16(b[8:])), end.count, 0xffff) || !fits(int64(le.Uint16(b[10:])), end.count, 0xffff):
		return fmt.Sprintf("counts %d and %d records, where the central directory has %d", le.Uint16(b[8:]), le.Uint16(b[10:]), end.count)
	case !fits(int64(le.Uint32(b[12:])), end.size, max32) || !fits(int64(le.Uint32(b[16:])), end.offset, max32):
		return fmt.Sprintf("places the central directory at byte %d for %d bytes, where it is at %d for %d",
			le.Uint32(b[16:]), le.Uint32(b[12:]), end.offset, end.size)
	case bytes.Contains(append(b[4:len(b):len(b)], comment...), []byte("PK\x05\x06")):
		return "or its comment holds the end record's signature again, which a reader searching from the end would take for the end record"
	case !zip64 && binary.LittleEndian.Uint32(end.tail[:]) == sigLocator64:
		return "follows bytes that a reader would take for a ZIP64 locator"
	}
	if rule := commentRule(comment); rule != "" {
		return "has a comment that " + rule
	}
	return ""
}
