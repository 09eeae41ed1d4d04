package archivefile_test

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"strings"
)

// zArchive writes ZIP archives field by field, so that tests can write what
// no ZIP library would: names that differ between local header and
// central record, lying sizes, links, bytes in the wrong places.

// zEntry is one entry and how to write it; the zero value of a field is
// what a sound writer writes.
type zEntry struct {
	name       string
	data       []byte
	deflate    bool
	descriptor bool   // sizes in a data descriptor after the data
	zip64      bool   // sizes (and the offset) in ZIP64 extra records
	madeBy     uint16 // the host in the high byte (3 Unix, the default; others with dos)
	external   uint32 // 0100644 or 040755 (as a Unix mode) by default, unless dos
	dos        bool   // made on MS-DOS: madeBy and external as they are
	comment    []byte // the entry's comment, in its central record
	flags      uint16 // added to the flags the writer sets
	version    uint16 // version needed; 20 (45 with zip64) when zero
	method     *uint16
	extra      []byte // added to both extra fields
	// Changes between the local header and the central record.
	centralName  *string
	centralCRC   uint32 // xor-ed into the central CRC
	centralSize  int64  // added to the central uncompressed size
	centralFlags uint16 // xor-ed into the central flags
	localExtra   []byte // added to the local extra field only
	centralExtra []byte
	localSize    int64 // added to the local uncompressed size (no descriptor)
}

// zArchive is a whole archive: its entries and what surrounds them.
type zArchive struct {
	entries      []zEntry
	prefix       []byte // before the first entry
	comment      []byte
	trailer      []byte // after the comment
	zip64End     bool   // a ZIP64 end record and locator
	countDelta   int    // added to the end record's counts
	repeatRecord bool   // the last central record twice (overlapping entries)
	dropRecord   bool   // no central record for the last entry
	twoEnds      bool   // a second end record after the first
}

func le16(b *bytes.Buffer, v uint16) { _ = binary.Write(b, binary.LittleEndian, v) }
func le32(b *bytes.Buffer, v uint32) { _ = binary.Write(b, binary.LittleEndian, v) }
func le64(b *bytes.Buffer, v uint64) { _ = binary.Write(b, binary.LittleEndian, v) }

// deflated compresses data with compress/flate.
func deflated(data []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.DefaultCompression)
	_, _ = w.Write(data)
	_ = w.Close()
	return b.Bytes()
}

// extraRecord is one record of an extra field.
func extraRecord(id uint16, data []byte) []byte {
	var b bytes.Buffer
	le16(&b, id)
	le16(&b, uint16(len(data)))
	b.Write(data)
	return b.Bytes()
}

func (a *zArchive) bytes() []byte {
	var out, cd bytes.Buffer
	out.Write(a.prefix)
	var last []byte
	for i, e := range a.entries {
		offset := out.Len()
		record := a.writeEntry(&out, e, offset)
		if a.dropRecord && i == len(a.entries)-1 {
			continue
		}
		cd.Write(record)
		last = record
	}
	if a.repeatRecord {
		cd.Write(last)
	}
	cdOffset, count := out.Len(), len(a.entries)+a.countDelta
	out.Write(cd.Bytes())
	cdEnd := out.Len()
	if a.zip64End {
		out.WriteString("PK\x06\x06")
		le64(&out, 44)
		le16(&out, 45)
		le16(&out, 45)
		le32(&out, 0)
		le32(&out, 0)
		le64(&out, uint64(count))
		le64(&out, uint64(count))
		le64(&out, uint64(cdEnd-cdOffset))
		le64(&out, uint64(cdOffset))
		out.WriteString("PK\x06\x07")
		le32(&out, 0)
		le64(&out, uint64(cdEnd))
		le32(&out, 1)
	}
	count16 := uint16(count)
	if a.zip64End && count >= 0xffff {
		count16 = 0xffff
	}
	for range 1 + b2i(a.twoEnds) {
		out.WriteString("PK\x05\x06")
		le16(&out, 0)
		le16(&out, 0)
		le16(&out, count16)
		le16(&out, count16)
		le32(&out, uint32(cdEnd-cdOffset))
		le32(&out, uint32(cdOffset))
		le16(&out, uint16(len(a.comment)))
		out.Write(a.comment)
	}
	out.Write(a.trailer)
	return out.Bytes()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeEntry writes e's local header and data at offset, and returns its
// central record.
func (a *zArchive) writeEntry(out *bytes.Buffer, e zEntry, offset int) []byte {
	method := uint16(0)
	body := e.data
	if e.deflate {
		method, body = 8, deflated(e.data)
	}
	flags := e.flags
	if e.descriptor {
		flags |= 8
	}
	if e.method != nil {
		method = *e.method
	}
	version := e.version
	if version == 0 {
		version = 20
		if e.zip64 {
			version = 45
		}
	}
	crc := crc32.ChecksumIEEE(e.data)
	csize, usize := uint32(len(body)), uint32(int64(len(e.data))+e.localSize)
	lcrc, lcsize, lusize := crc, csize, usize
	lextra := append(append([]byte{}, e.extra...), e.localExtra...)
	if e.descriptor {
		lcrc, lcsize, lusize = 0, 0, 0
	} else if e.zip64 {
		var z bytes.Buffer
		le64(&z, uint64(usize))
		le64(&z, uint64(csize))
		lextra = append(lextra, extraRecord(1, z.Bytes())...)
		lcsize, lusize = 0xffffffff, 0xffffffff
	}
	out.WriteString("PK\x03\x04")
	le16(out, version)
	le16(out, flags)
	le16(out, method)
	le32(out, 0x5b7b9b6b) // a DOS time and date
	le32(out, lcrc)
	le32(out, lcsize)
	le32(out, lusize)
	le16(out, uint16(len(e.name)))
	le16(out, uint16(len(lextra)))
	out.WriteString(e.name)
	out.Write(lextra)
	out.Write(body)
	if e.descriptor {
		out.WriteString("PK\x07\x08")
		le32(out, crc)
		le32(out, csize)
		le32(out, usize)
	}
	return centralRecord(e, version, flags, method, crc^e.centralCRC, csize, uint32(int64(len(e.data))+e.centralSize), offset)
}

// centralRecord is e's central record.
func centralRecord(e zEntry, version, flags, method uint16, crc, csize, usize uint32, offset int) []byte {
	name := e.name
	if e.centralName != nil {
		name = *e.centralName
	}
	cextra := append(append([]byte{}, e.extra...), e.centralExtra...)
	coff := uint32(offset)
	if e.zip64 {
		var z bytes.Buffer
		le64(&z, uint64(usize))
		le64(&z, uint64(csize))
		le64(&z, uint64(offset))
		cextra = append(cextra, extraRecord(1, z.Bytes())...)
		csize, usize, coff = 0xffffffff, 0xffffffff, 0xffffffff
	}
	var b bytes.Buffer
	b.WriteString("PK\x01\x02")
	madeBy, external := e.madeBy, e.external
	if !e.dos && madeBy == 0 { // as Info-ZIP zip writes a file on Unix
		madeBy = 3 << 8
		if external>>16 == 0 {
			external |= 0o100644 << 16
			if strings.HasSuffix(e.name, "/") {
				external = external&^(0o100644<<16) | 0o40755<<16
			}
		}
	}
	le16(&b, madeBy|20)
	le16(&b, version)
	le16(&b, flags^e.centralFlags)
	le16(&b, method)
	le32(&b, 0x5b7b9b6b)
	le32(&b, crc)
	le32(&b, csize)
	le32(&b, usize)
	le16(&b, uint16(len(name)))
	le16(&b, uint16(len(cextra)))
	le16(&b, uint16(len(e.comment)))
	le16(&b, 0)
	le16(&b, 0)
	le32(&b, external)
	le32(&b, coff)
	b.WriteString(name)
	b.Write(cextra)
	b.Write(e.comment)
	return b.Bytes()
}
