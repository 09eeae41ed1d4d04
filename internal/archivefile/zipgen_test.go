package archivefile_test

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"path"
	"slices"
	"strings"
)

// The ZIP side of the generator: a static site written in the ways real
// writers vary (stored or deflate, data descriptors, ZIP64 records, MS-DOS
// or Unix attributes, a "./" root), mixed with hostile ZIP constructs
// (zipHostile) and random bytes. As for tar, what a hostile entry aims at is
// under the canary directory.

// zipNext makes one ZIP.
func (g *generator) zipNext() generated {
	a, paths := g.zipSite()
	recipe := []string{"site"}
	if g.chance(0.5) {
		recipe = recipe[:0]
		for range 1 + g.rnd.IntN(2) {
			recipe = append(recipe, g.zipHostile(a, paths))
		}
	}
	if g.chance(0.12) {
		recipe = append(recipe, g.zipReading(a))
	}
	if g.chance(0.2) {
		recipe = append(recipe, "comment")
		a.comment = []byte(g.pick("built by docs", "", "453de5bf199495c2e11ae7e0a2564ae7b26f824c", "PK\x03\x04 looks like a header"))
	}
	archive := a.bytes()
	if g.chance(0.1) {
		for range 1 + g.rnd.IntN(3) {
			at := g.rnd.IntN(len(archive))
			archive[at] = byte(g.rnd.IntN(256))
			recipe = append(recipe, fmt.Sprintf("byte %d set", at))
		}
	}
	return generated{archive: archive, recipe: recipe}
}

// zipSite makes the entries of a valid site, and returns its paths.
func (g *generator) zipSite() (*zArchive, []string) {
	a := &zArchive{}
	var paths []string
	taken := map[string]bool{}
	prefix := ""
	if g.chance(0.2) {
		prefix = "./"
		a.entries = append(a.entries, g.zipEntry("./", nil))
	}
	for range 1 + g.rnd.IntN(10) {
		var segs []string
		for range 1 + g.rnd.IntN(4) {
			segs = append(segs, g.pick(segments...))
		}
		p := strings.Join(segs, "/")
		if taken[fold(p)] || conflicts(taken, p) {
			continue
		}
		for i := 1; i < len(segs); i++ { // parents first, as zip(1) writes them, unless implied
			parent := strings.Join(segs[:i], "/")
			if !taken[fold(parent)] && g.chance(0.6) {
				a.entries = append(a.entries, g.zipEntry(prefix+parent+"/", nil))
				paths = append(paths, parent)
			}
			taken[fold(parent)] = true
		}
		taken[fold(p)] = true
		paths = append(paths, p)
		if g.chance(0.15) {
			a.entries = append(a.entries, g.zipEntry(prefix+p+"/", nil))
			continue
		}
		taken[fold(p)+"\x00file"] = true
		a.entries = append(a.entries, g.zipEntry(prefix+p, g.body()))
	}
	return a, paths
}

// body is a file's content: text that compresses, or random bytes.
func (g *generator) body() []byte {
	b := make([]byte, g.rnd.IntN(4000))
	random := g.chance(0.3)
	for i := range b {
		if random {
			b[i] = byte(g.rnd.IntN(256))
		} else {
			b[i] = byte('a' + g.rnd.IntN(4))
		}
	}
	return b
}

// zipEntry is a valid entry: a directory when its name ends with "/".
func (g *generator) zipEntry(name string, data []byte) zEntry {
	dir := strings.HasSuffix(name, "/")
	e := zEntry{name: name, data: data}
	if !dir {
		e.deflate = g.chance(0.7)
		e.descriptor = e.deflate && g.chance(0.3)
	}
	if g.chance(0.5) || !isASCIIName(name) {
		e.flags |= 0x800
	}
	switch { // Unix, with a mode (rarely made on MS-DOS: refused)
	case g.chance(0.995) || !isASCIIName(name):
		e.madeBy = 3 << 8
		mode := g.pickMode(0o100644, 0o100600, 0o100755, 0o100444)
		if dir {
			mode = g.pickMode(0o40755, 0o40700)
			e.external |= 0x10
		}
		if name == "./" {
			mode = 0o40755
		}
		e.external |= mode << 16
	case dir:
		e.dos, e.external = true, 0x10
	default:
		e.dos = true
	}
	if g.chance(0.2) { // read-only (refused on a directory), hidden, system, archive
		e.external |= g.pickMode(0x01, 0x02, 0x04, 0x20, 0x21)
		if dir && g.chance(0.9) {
			e.external &^= 0x01
		}
	}
	return e
}

func isASCIIName(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// zipHostile mixes one hostile construct into a, and names it.
func (g *generator) zipHostile(a *zArchive, paths []string) string {
	canary := g.canary
	escape := "../../../../../" + path.Base(canary) + "/"
	n := len(a.entries)
	last := &a.entries[n-1]
	add := func(e zEntry) { a.entries = slices.Insert(a.entries, g.rnd.IntN(n+1), e) }
	unix := func(name string, data []byte, mode uint32) zEntry {
		return zEntry{name: name, data: data, madeBy: 3 << 8, external: mode << 16}
	}
	switch k := g.rnd.IntN(31); k {
	case 0:
		add(unix("link.html", []byte(canary+"/secret"), 0o120777))
		return "a symbolic link (Unix mode)"
	case 1:
		add(zEntry{name: "link2.html", data: []byte(escape + "secret"), external: 0o120777<<16 | 0x8000, dos: true})
		return "a symbolic link (7-Zip's mark on an MS-DOS entry)"
	case 2:
		add(zEntry{name: canary + "/abs.html", data: []byte("x")})
		return "an absolute name"
	case 3:
		add(zEntry{name: escape + "up.html", data: []byte("x")})
		return "a name with .."
	case 4:
		add(zEntry{name: `..\..\..\..\..\` + path.Base(canary) + `\bs.html`, data: []byte("x")})
		return "a name with backslashes"
	case 5:
		if len(paths) > 0 {
			add(zEntry{name: strings.ToUpper(g.pick(paths...)), data: []byte("x")})
		}
		return "a case alias"
	case 6:
		var up bytes.Buffer
		up.WriteByte(1)
		le32(&up, crc32.ChecksumIEEE([]byte(last.name)))
		up.WriteString(escape + "unicode.html")
		last.extra = extraRecord(0x7075, up.Bytes())
		return "a Unicode path extra field"
	case 7:
		other := escape + "central.html"
		last.centralName = &other
		return "a central name unlike the local one"
	case 8:
		last.centralSize = 1 + int64(g.rnd.IntN(100))
		return "a central size unlike the data's"
	case 9:
		last.centralCRC = 1 << g.rnd.IntN(32)
		return "a central CRC unlike the data's"
	case 10:
		last.centralFlags = g.pickFlag(0x800, 0x8, 0x2)
		return "central flags unlike the local ones"
	case 11:
		last.flags |= 1
		return "the encryption flag"
	case 12:
		m := uint16(g.pick("\x0c", "\x0e", "\x5d", "\x63")[0])
		last.method, last.deflate = &m, false
		return "another compression method"
	case 13:
		a.prefix = []byte(g.pick("MZ\x90\x00 a stub", "PK\x03\x04", "#!/bin/sh\n"))
		return "bytes before the first entry"
	case 14:
		a.trailer = []byte(g.pick("junk", "PK\x05\x06", "\x00"))
		return "bytes after the end record"
	case 15:
		a.comment = []byte("PK\x05\x06" + strings.Repeat("\x00", 18))
		return "an end record in the comment"
	case 16:
		a.repeatRecord = true
		return "a central record twice (overlapping entries)"
	case 17:
		a.dropRecord = true
		return "a local entry without its central record"
	case 18:
		a.countDelta = g.pickInt(-1, 1)
		return "end record counts unlike the directory's"
	case 19:
		a.twoEnds = true
		return "two end records"
	case 20:
		add(zEntry{name: "dir-with-data/", data: []byte("x")})
		return "a directory with data"
	case 21:
		add(unix("setuid.html", []byte("x"), 0o104755))
		return "a set-user-ID file"
	case 22:
		add(unix("fifo", nil, 0o010644))
		return "a FIFO"
	case 23:
		add(unix("locked/", nil, 0o040555))
		add(zEntry{name: "locked/in.html", data: []byte("x")})
		return "a directory its owner cannot write"
	case 24:
		add(zEntry{name: "caf\xc3\xa9-noflag.html", data: []byte("x")})
		return "a non-ASCII name without the UTF-8 flag"
	case 25:
		last.localExtra = extraRecord(0x756e, []byte("ASi unix mode and link"))
		return "an ASi Unix extra field"
	case 26:
		last.descriptor, last.deflate = true, false
		return "a stored entry with a data descriptor"
	case 27:
		last.zip64, last.descriptor = true, false
		return "a needless ZIP64 record"
	case 28:
		a.zip64End = true
		return "a needless ZIP64 end record"
	case 29:
		add(zEntry{name: "dos-\u00e9.html", data: []byte("x"), flags: 0x800, dos: true})
		return "a non-ASCII name made on MS-DOS"
	default:
		add(zEntry{name: "ntfs-host.html", data: []byte("x"), madeBy: 10 << 8})
		return "an entry made on NTFS"
	}
}

func (g *generator) pickFlag(v ...uint16) uint16 { return v[g.rnd.IntN(len(v))] }
func (g *generator) pickInt(v ...int) int        { return v[g.rnd.IntN(len(v))] }
func (g *generator) pickMode(v ...uint32) uint32 { return v[g.rnd.IntN(len(v))] }
