package archivefile_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// The constructs of the generators that give an archive a second reading
// (readings.go) or break the grammar every extractor reads alike: tar
// streams that start with a compression magic, a ZIP end record at the
// end of a tar, PAX lengths with a sign, owners past the range; ZIPs that
// are also tars or disc images, that give owners, no Unix mode, modes
// others may write, or comments with escapes.

// readings lists the tar constructs.
func (g *generator) readings(some string) []func() item {
	return []func() item{
		func() item {
			magic := g.pick("BZh91AY&SY", "(\xb5/\xfd", "LZIP", "begin 644 x")
			body := []byte(paxRecord("path", "magic.html"))
			return raw("an extended header named "+magic, func(w *rawTar) {
				w.entry(header{name: magic, typ: 'x', size: int64(len(body))}, body)
				w.entry(header{name: "magic.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("a ZIP end record at the end of a file", func(w *rawTar) {
				w.entry(header{name: "starter.zip", typ: '0'}, append([]byte("PK\x05\x06"), make([]byte, 18)...))
			})
		},
		func() item {
			body := []byte("+" + paxRecord("path", "other.html")[1:])
			return raw("a PAX length with a sign", func(w *rawTar) {
				w.entry(header{name: "PaxHeaders/x", typ: 'x', size: int64(len(body))}, body)
				w.entry(header{name: some, typ: '0'}, []byte("overwritten"))
			})
		},
		func() item {
			v := g.pick("4294967296", "2097152", "-1")
			return raw("a PAX uid of "+v, func(w *rawTar) {
				w.pax('x', [2]string{g.pick("uid", "gid"), v})
				w.entry(header{name: "owned.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			bad := g.pick("esc\x1b]0;x\x07.html", "bel\x07.html", "csi\u009b1m.html")
			return raw("a control character under a PAX path", func(w *rawTar) {
				w.pax('x', [2]string{"path", "ctl.html"})
				w.entry(header{name: bad, typ: '0'}, []byte("x"))
			})
		},
	}
}

// zipReading mixes into a one construct of a second reading, or of the
// tar rules, and names it.
func (g *generator) zipReading(a *zArchive) string {
	n := len(a.entries)
	last := &a.entries[n-1]
	add := func(e zEntry) { a.entries = slices.Insert(a.entries, g.rnd.IntN(n+1), e) }
	switch g.rnd.IntN(9) {
	case 0:
		signed := g.chance(0.5)
		withTarChecksum(a, signed)
		return fmt.Sprintf("a tar checksum in the first 512 bytes (signed: %v)", signed)
	case 1:
		a.entries = slices.Insert(a.entries, 0, isoEntry())
		return "an ISO 9660 descriptor at byte 32768"
	case 2:
		last.extra = extraRecord(g.pickFlag(0x7875, 0x7855), []byte{1, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0})
		return "an owner extra field"
	case 3:
		add(zEntry{name: "dos-dir/", external: 0x10, dos: true})
		return "a directory made on MS-DOS"
	case 4:
		add(zEntry{name: "modes.html", data: []byte("x"), madeBy: 3 << 8, external: g.pickMode(0o100666, 0o100000, 0o100620) << 16})
		return "a file others may write or its owner cannot read"
	case 5:
		add(zEntry{name: "open/", madeBy: 3 << 8, external: 0o40777 << 16})
		return "a directory of mode 0777"
	case 6:
		a.entries = slices.Insert(a.entries, 0, zEntry{name: "./", madeBy: 3 << 8, external: g.pickMode(0o40777, 0o40700) << 16})
		return "a root that changes the extraction directory's mode"
	case 7:
		last.comment = []byte(g.pick("\x1b[31mred", "ding\x07", "::warning::x"))
		return "an entry comment with an escape or a workflow command"
	default:
		a.comment = []byte(g.pick("\x1b]2;title\x07", "ok\n::add-mask::x", "\r\x1b[2K"))
		return "an archive comment with an escape or a workflow command"
	}
}

// withTarChecksum puts first in a an entry whose name, from byte 30 of
// the archive, spells the numeric fields of a tar header as libarchive's
// tar bidder wants them (octal digits and spaces at bytes 100 to 147 and
// 329 to 344, a type flag at 156) and holds, at bytes 148 to 155, the
// checksum of the first 512 bytes (of their signed or unsigned values):
// bsdtar would bid tar (50) over ZIP (32).
func withTarChecksum(a *zArchive, signed bool) {
	tail := "x.html"
	if signed {
		tail = "\u00e9t\u00e9.html" // bytes above 0x7f: the signed sum differs
	}
	numbers := "0000644 0000000 0000000 00000000000 00000000000 " // mode, uid, gid, size, mtime: name bytes 70 to 117
	link := strings.Repeat("linkname/", 19) + "l"                 // name bytes 127 to 298
	name := func(sum string) string {
		return strings.Repeat("abcdefgh/", 7) + "abcdefg" + numbers + sum + "0" + link + "0000000 0000000 " + tail
	}
	e := zEntry{name: name("        "), data: bytes.Repeat([]byte("<h1>Docs</h1>\n"), 40)}
	if signed {
		e.flags = 1 << 11
	}
	a.entries = slices.Insert(a.entries, 0, e)
	head := a.bytes()
	sum := 0
	for _, c := range head[:512] {
		if signed {
			sum += int(int8(c))
		} else {
			sum += int(c)
		}
	}
	a.entries[0].name = name(fmt.Sprintf("%07o ", sum))
}

// isoEntry is an entry whose data holds an ISO 9660 volume descriptor at
// byte 32768 of the archive, when it is the first.
func isoEntry() zEntry {
	name := "big.bin"
	data := bytes.Repeat([]byte("<p>x</p>\n"), 4000)
	copy(data[32768-30-len(name):], "\x01CD001\x01")
	return zEntry{name: name, data: data}
}
