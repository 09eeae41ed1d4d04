package archivefile_test

import (
	"fmt"
	"strings"
)

// The unread constructs: bytes that one extractor reads and a check
// might not. Header blocks with empty names (BusyBox tar reads them as end
// blocks and the next block as a header), data in every padding (Python's
// tarfile reads PAX records there, it and GNU tar long names), modes and
// owner names, names alike on NTFS, gzip member headers.

// smuggled is a header block that only BusyBox tar reads, named name: a
// link or a device aimed at the canary.
func (g *generator) smuggled(name, some string) []byte {
	h := header{name: name, format: "gnu"}
	switch g.rnd.IntN(4) {
	case 0:
		h.typ, h.link = '2', g.canary
	case 1:
		h.typ, h.link = '2', strings.Repeat("../", 1+g.rnd.IntN(3))+"x"
	case 2:
		h.typ, h.link = '1', some
	default:
		h.typ = '3'
	}
	return h.block()
}

// withRecord is b with a PAX record written over its start, its checksum
// fixed: the smuggled header's name is the record.
func withRecord(b []byte, rec string) []byte {
	copy(b, rec)
	setChecksum(b)
	return b
}

// padded writes a header of size bytes (not counting the padding) with
// data, whose bytes past size fill the padding.
func (w *rawTar) padded(h header, size int, data []byte) {
	h.size = int64(size)
	w.headers = append(w.headers, w.buf.Len())
	w.buf.Write(h.block())
	w.data(data)
}

// poked writes a header with s at offset off of its block, its checksum
// fixed, then body.
func poked(label string, h header, off int, s string, body []byte) item {
	h.size = int64(len(body))
	return raw(label, func(w *rawTar) {
		b := h.block()
		copy(b[off:], s)
		setChecksum(b)
		w.headers = append(w.headers, w.buf.Len())
		w.buf.Write(b)
		w.data(body)
	})
}

// unread lists the unread constructs.
func (g *generator) unread(some string) []func() item {
	c := g.canary
	up := strings.Repeat("../", 1+g.rnd.IntN(3))
	return []func() item{
		func() item {
			return raw("empty-named GNU long name smuggling a header to BusyBox", func(w *rawTar) {
				name := g.pick("index.html", "l.html")
				w.padded(header{typ: 'L', format: "gnu"}, len(name)+1, g.smuggled(name, some))
				w.entry(header{name: name, typ: '0', format: "gnu"}, []byte("x"))
			})
		},
		func() item {
			typ := g.pick("x", "g")[0]
			return raw(fmt.Sprintf("empty-named extended header %q smuggling a header to BusyBox", typ), func(w *rawTar) {
				rec := paxRecord("path", "p.html")
				if typ == 'g' {
					rec = paxRecord("comment", "c")
				}
				w.padded(header{typ: typ}, len(rec), withRecord(g.smuggled("", some), rec))
				w.entry(header{name: "p.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("empty-named file under a PAX path, its data a header", func(w *rawTar) {
				w.pax('x', [2]string{"path", "e.html"})
				w.entry(header{typ: '0'}, g.smuggled("e2.html", some))
			})
		},
		func() item {
			return raw("empty-named directory under a long name", func(w *rawTar) {
				w.gnuLong('L', "ed/")
				w.entry(header{typ: '5', format: "gnu"}, nil)
				w.entry(header{name: "ed/x.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("a PAX record in a PAX header's padding", func(w *rawTar) {
				rec := paxRecord("path", "p.html")
				w.padded(header{name: "PaxHeaders/p", typ: g.pick("x", "g")[0]}, len(rec),
					[]byte(rec+paxRecord("path", g.pick(c+"/pwned", up+"pwned", some))))
				w.entry(header{name: "p.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("a long name read on into its padding", func(w *rawTar) {
				target := g.pick(some, "index.html", c+"/pwned", up+"pwned")
				k := 1 + g.rnd.IntN(len(target)-1)
				w.padded(header{name: "././@LongLink", typ: 'L', format: "gnu"}, k, []byte(target+"\x00"))
				w.entry(header{name: target[:k], typ: '0', format: "gnu"}, []byte("x"))
			})
		},
		func() item {
			return raw("data in a file's padding", func(w *rawTar) {
				w.padded(header{name: "pad.html", typ: '0'}, 1, append([]byte("x"), header{name: c + "/pwned", typ: '0'}.block()[:511]...))
			})
		},
		func() item {
			return seq("a mode others may write or the owner cannot read", raw("", func(w *rawTar) {
				m := []int64{0o664, 0o646, 0o244, 0o666}[g.rnd.IntN(4)]
				w.entry(header{name: "m.html", typ: '0', mode: m}, []byte("x"))
			}))
		},
		func() item {
			return seq("a directory others may write", raw("", func(w *rawTar) { w.entry(header{name: "w/", typ: '5', mode: 0o777}, nil) }))
		},
		func() item {
			return seq("a root that changes the directory's mode", raw("", func(w *rawTar) {
				w.entry(header{name: "./", typ: '5', mode: []int64{0o700, 0o711, 0o750}[g.rnd.IntN(3)]}, nil)
			}))
		},
		func() item {
			off := g.pick("u", "g")
			return poked("a control in the owner names", header{name: "o.html", typ: '0'}, map[string]int{"u": 265, "g": 297}[off],
				g.pick("r\x1b[2Jt\x00\x00", "dévelopeur\x00", "a\x7fb\x00"), []byte("x"))
		},
		func() item {
			return raw("a PAX owner name not in printable ASCII", func(w *rawTar) {
				w.pax('x', [2]string{g.pick("uname", "gname"), g.pick("dévelopeur", "\x1b[31mroot", "a\u202eb")})
				w.entry(header{name: "po.html", typ: '0'}, []byte("x"))
			})
		},
		func() item { return seq("dotless i alias (NTFS)", file("I.html", "1"), file("ı.html", "2")) },
	}
}

// heldFields are the header bytes the check must hold (besides the type,
// size and magic, which mutate changes on its own): the name after its NUL,
// mode, owners, the link name, owner names, device numbers, the prefix and
// the unused end.
var heldFields = [][2]int{{40, 100}, {100, 108}, {108, 124}, {157, 257}, {265, 329}, {329, 345}, {345, 500}, {500, 512}}

// heldOffset is a random offset in a field the check must hold.
func (g *generator) heldOffset() int {
	f := heldFields[g.rnd.IntN(len(heldFields))]
	return f[0] + g.rnd.IntN(f[1]-f[0])
}

// gzipHeader changes the first gzip member's header, sometimes: reserved
// flag bits, a file name with a control character.
func (g *generator) gzipHeader(archive []byte) ([]byte, string) {
	switch {
	case g.chance(0.03):
		bit := byte(0x20 << g.rnd.IntN(3))
		archive[3] |= bit
		return archive, fmt.Sprintf("gzip reserved flag %#02x", bit)
	case g.chance(0.03):
		name := g.pick("a\x1b.tar", "ok.tar", "l\x85.tar")
		out := append(append([]byte{}, archive[:10]...), name+"\x00"...)
		out[3] |= 8
		return append(out, archive[10:]...), fmt.Sprintf("gzip file name %q", name)
	}
	return archive, ""
}
