package archivefile

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
)

// The regression cases of the every-byte rule: every byte of the archive is
// read, and held to the language or required to be zeros. Each was
// accepted before its rule.

// inPadding writes junk into the padding of blocks, a header and its data
// of dataLen bytes, as withData wrote them.
func inPadding(blocks []byte, dataLen int, junk string) []byte {
	b := bytes.Clone(blocks)
	copy(b[blockSize+dataLen:], junk)
	return b
}

func TestRefusesHeadersWithEmptyNames(t *testing.T) {
	t.Parallel()
	// BusyBox tar reads a header whose name and prefix are empty as an end
	// block and the next block as a header: here, the symbolic link that
	// the long name's padding holds, which no other reader sees.
	smuggled := rawHdr{name: "index.html", typ: '2', link: "/etc/passwd", magic: "gnu"}.block()
	smuggler := withData(rawHdr{typ: 'L', magic: "gnu", size: int64(len("index.html\x00"))}, string(smuggled))
	const rule = "has an empty name and prefix, which BusyBox tar reads as the end of the archive"
	runRefusals(t, []refusal{
		{"a GNU long name", archive(smuggler, withData(rawHdr{name: "index.html", magic: "gnu"}, "x")), "", "entry 1 (unnamed): its header (type 'L') " + rule},
		{"a PAX header", archive(withData(rawHdr{typ: 'x'}, record("path", "a.html")), reg("a.html", "")), "", "(type 'x') " + rule},
		{"a global header", archive(withData(rawHdr{typ: 'g'}, record("comment", "c")), reg("a.html", "")), "", "(type 'g') " + rule},
		{"a file under a PAX path", archive(pax('x', "path", "a.html"), reg("", "x")), "", "(type '0') " + rule},
		{"a directory under a long name", archive(longName("d/"), rawHdr{typ: '5', magic: "gnu"}.block()), "", "(type '5') " + rule},
	})
}

func TestRefusesDataInPadding(t *testing.T) {
	t.Parallel()
	rec := record("path", "a.html")
	runRefusals(t, []refusal{
		// Python's tarfile reads PAX records in the padding.
		{"a record in a PAX header's padding", archive(inPadding(pax('x', "path", "a.html"), len(rec), record("path", "../../pwned")), reg("x", "")),
			"PaxHeaders/x", `entry "PaxHeaders/x": its extended header's padding (after its data, to the end of the block) is not zeros`},
		{"a global header's padding", archive(inPadding(pax('g', "comment", "c"), len(record("comment", "c")), "x"), reg("x", "")),
			"PaxHeaders/x", "its extended header's padding"},
		// GNU tar and Python read a long name on into its padding.
		{"a long name's padding", archive(inPadding(longName("a.html"), len("a.html\x00"), "/../../pwned"), withData(rawHdr{name: "a.html", magic: "gnu"}, "")),
			"././@LongLink", "its extended header's padding"},
		{"a long name without its NUL", archive(withData(rawHdr{name: "././@LongLink", typ: 'L', magic: "gnu"}, "a.html"), withData(rawHdr{name: "a.html", magic: "gnu"}, "")),
			"a.html", "its GNU long name does not end with a NUL inside its size"},
		{"a file's padding", archive(inPadding(reg("a.html", "x"), 1, "\x01"), reg("b.html", "")),
			"a.html", `entry "a.html": its data's padding (after its size, to the end of the block) is not zeros`},
	})
}

func TestRefusesDataInHeaderFields(t *testing.T) {
	t.Parallel()
	at := func(off int, s string) []byte {
		return withData(rawHdr{name: "a.html", at: map[int]string{off: s}}, "")
	}
	runRefusals(t, []refusal{
		{"the name after its NUL", archive(at(50, "x")), "a.html", "its header's name field has data after the NUL that ends it"},
		{"the prefix after its NUL", archive(at(offPrefix+10, "x")), "a.html", "its header's prefix field has data after the NUL"},
		{"the link name after its NUL", archive(at(offLinkname+3, "x")), "a.html", "its header has a link target"},
		{"a control in the user name", archive(at(offUname, "ro\x1b[2Jot")), "a.html", `its header's user name "ro\x1b[2Jot" is not printable ASCII`},
		{"non-ASCII in the group name", archive(at(offGname, "gr\xc3\xbcp")), "a.html", "its header's group name"},
		{"the user name after its NUL", archive(at(offUname+5, "x")), "a.html", "its header's user name field has data after the NUL"},
		{"a device number", archive(at(offDevMajor, "0000001\x00")), "a.html", "its header's device major number is 1, where only a device has one"},
		{"a device number that is not octal", archive(at(offDevMinor, "zz")), "a.html", "its header's device minor number is not an octal number"},
		{"a PAX user name with a control", archive(pax('x', "uname", "\x1b[31mroot"), reg("x", "")), "x", `its extended header's uname "\x1b[31mroot" is not printable ASCII`},
		{"a PAX group name not in ASCII", archive(pax('x', "gname", "ü"), reg("x", "")), "x", "its extended header's gname"},
	})
}

func TestRefusesModes(t *testing.T) {
	t.Parallel()
	mode := func(name string, typ byte, m string) []byte {
		return withData(rawHdr{name: name, typ: typ, mode: m}, "")
	}
	runRefusals(t, []refusal{
		{"a group-writable file", archive(mode("a.html", '0', "0000664\x00")), "a.html", "an entry may not be writable by its group or others (g+w, o+w; its mode is 0664)"},
		{"a world-writable directory", archive(mode("d/", '5', "0000757\x00")), "d/", "may not be writable by its group or others"},
		{"a file its owner cannot read", archive(mode("a.html", '0', "0000244\x00")), "a.html", "a file's mode must let its owner read it (u+r; its mode is 0244)"},
		{"a root that closes the directory", archive(mode("./", '5', "0000700\x00"), reg("a.html", "")), "./",
			"the archive's root may not change the mode of the directory it is extracted into: its mode must be 0755 (it is 0700)"},
	})
}

func TestRefusesNamesAlikeOnNTFS(t *testing.T) {
	t.Parallel()
	runRefusals(t, []refusal{
		{"dotless i", archive(reg("I.html", ""), reg("ı.html", "")), "ı.html", "has the same name as an earlier entry's"},
		{"dotless i in a directory", archive(reg("dır/a", ""), reg("DIR/b", "")), "DIR/b", `"DIR" has the same name as an earlier entry's`},
	})
}

// gzipMember rewrites the header of a one-member gzip stream: flags, extra
// flags, and the optional fields after the fixed ten bytes.
func gzipMember(flags, xfl byte, optional string) []byte {
	a := archive(reg("a.html", "x"))
	out := append([]byte{}, a[:10]...)
	out[3], out[8] = flags, xfl
	out = append(out, optional...)
	return append(out, a[10:]...)
}

func TestRefusesGzipMemberHeaders(t *testing.T) {
	t.Parallel()
	head := gzipMember(flagHdrCRC, 0, "")[:10]
	crc := make([]byte, 2)
	binary.LittleEndian.PutUint16(crc, uint16(crc32.ChecksumIEEE(head))+1)
	runRefusals(t, []refusal{
		{"a reserved flag bit", gzipMember(0x20, 0, ""), "", "a gzip member header is refused: it sets reserved flag bits (0x20)"},
		{"another reserved flag bit", gzipMember(0x80|flagName, 0, "a.tar\x00"), "", "it sets reserved flag bits (0x80)"},
		{"reserved bits in a second member", append(archive(reg("a.html", "")), gzipMember(0x40, 0, "")...), "", "reserved flag bits (0x40)"},
		{"extra flags no compressor writes", gzipMember(0, 0x55, ""), "", "its extra flags are 0x55"},
		{"an extra field that is not subfields", gzipMember(flagExtra, 0, "\x03\x00abc"), "", "its extra field is not a sequence of subfields"},
		{"a control in the file name", gzipMember(flagName, 0, "a\x1b.tar\x00"), "", "its file name holds a control character (0x1b)"},
		{"a C1 control in the comment", gzipMember(flagComment, 0, "a\x85\x00"), "", "its comment holds a control character (0x85)"},
	})
	// Damage, not design: a header CRC that does not match.
	_, err := verify(t.Context(), bytes.NewReader(gzipMember(flagHdrCRC, 0, string(crc))))
	if err == nil {
		t.Error("verify accepted a gzip header whose CRC does not match")
	}
	// What writers write is accepted: a name, a comment, subfields, a
	// header CRC.
	good := gzipMember(flagExtra|flagName|flagComment, 2, "\x08\x00AP\x04\x00abcd"+"bündel.tar\x00"+"made by hand\x00")
	if n, err := verify(t.Context(), bytes.NewReader(good)); err != nil || n != 1 {
		t.Errorf("verify = %d, %v; want the archive with its optional gzip fields accepted", n, err)
	}
}
