package archivefile_test

import (
	"archive/tar"
	"bytes"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
)

// A seeded generator of tar.gz archives for the differential test: a static
// site in the language (files and directories, Unicode names, ustar, GNU
// and pax headers), mixed with hostile constructs (links, escapes, stacked headers) and with
// random header bytes. Everything a hostile entry aims at outside the
// extraction directory is under canary, a directory the test watches: an
// archive the check wrongly accepts writes there, never to the system.

// generated is one archive and what went into it.
type generated struct {
	archive []byte
	recipe  []string // the constructs mixed in, for the failure message
}

// generator makes archives from one seed.
type generator struct {
	rnd    *rand.Rand
	canary string // absolute path of the watched directory
}

// item writes one or more blocks of the archive.
type item struct {
	label string
	write func(w *rawTar)
}

func (g *generator) pick(options ...string) string { return options[g.rnd.IntN(len(options))] }

func (g *generator) chance(p float64) bool { return g.rnd.Float64() < p }

// segments are the names a site's paths are made of: ASCII, Latin and CJK
// in NFC, emoji, spaces.
var segments = []string{
	"index.html", "docs", "assets", "img", "guides", "api-reference", "logo.png", "style.css", "a", "b",
	"café", "日本語", "über-uns", "naïve.md", "space name.html", "emoji-🚀.svg", "Ωmega", "straße",
	"v1.2", "_next", "-dash", "x.y.z", "%20", "a+b", "données", "файл.html", "ﬁle",
	"dır", "İ.html",
}

// next makes one archive.
func (g *generator) next() generated {
	items, paths := g.site()
	var recipe []string
	if g.chance(0.45) { // less than half: the every-byte rules refuse more of the rest
		for range 1 + g.rnd.IntN(2) {
			h := g.hostile(paths)
			recipe = append(recipe, h.label)
			at := g.rnd.IntN(len(items) + 1)
			items = slices.Insert(items, at, h)
		}
	}
	if len(recipe) == 0 {
		recipe = append(recipe, "site")
	}
	var w rawTar
	for _, it := range items {
		it.write(&w)
	}
	if g.chance(0.95) {
		w.end()
	} else {
		recipe = append(recipe, "no end marker")
	}
	if g.chance(0.1) {
		w.buf.Write(make([]byte, 512*g.rnd.IntN(20))) // padding, as tar(1) writes to a record
	}
	tail := g.tail(&w)
	if tail != "" {
		recipe = append(recipe, tail)
	}
	if g.chance(0.2) {
		recipe = append(recipe, g.mutate(&w))
	}
	tarball := w.bytes()
	var archive []byte
	if g.chance(0.15) {
		split := g.rnd.IntN(len(tarball) + 1)
		archive = gz(tarball, split)
		recipe = append(recipe, fmt.Sprintf("two gzip members split at %d", split))
	} else {
		archive = gz(tarball)
	}
	var label string
	if archive, label = g.gzipHeader(archive); label != "" {
		recipe = append(recipe, label)
	}
	if g.chance(0.03) {
		archive = append(archive, "trailing junk"...)
		recipe = append(recipe, "junk after gzip")
	}
	return generated{archive: archive, recipe: recipe}
}

// site makes the items of a valid static site, and returns its paths.
func (g *generator) site() ([]item, []string) {
	var items []item
	var paths []string
	taken := map[string]bool{}
	dotSlash := g.chance(0.3)
	format := g.pick("ustar", "ustar", "gnu", "pax", "go")
	if dotSlash {
		items = append(items, g.entry(format, "./", '5', nil))
	}
	n := 1 + g.rnd.IntN(10)
	if g.chance(0.05) {
		n = 100 + g.rnd.IntN(200) // many entries
	}
	for range n {
		depth := 1 + g.rnd.IntN(4)
		if g.chance(0.03) {
			depth = 20 + g.rnd.IntN(30)
		}
		var segs []string
		for range depth {
			seg := g.pick(segments...)
			if g.chance(0.02) { // at the length limit of a segment, 255 bytes
				seg = g.pick(strings.Repeat("é", 127)+"x", strings.Repeat("s", 255), strings.Repeat("日", 85))
			}
			segs = append(segs, seg)
		}
		p := strings.Join(segs, "/")
		if taken[fold(p)] {
			continue
		}
		if conflicts(taken, p) {
			continue
		}
		isDir := g.chance(0.2)
		// Parents first, as tar(1) writes them, unless they are implied.
		for i := 1; i < len(segs); i++ {
			parent := strings.Join(segs[:i], "/")
			if taken[fold(parent)] {
				continue
			}
			taken[fold(parent)] = true
			if g.chance(0.6) {
				items = append(items, g.entry(format, g.prefixed(dotSlash, parent)+"/", '5', nil))
				paths = append(paths, parent)
			}
		}
		taken[fold(p)] = true
		paths = append(paths, p)
		if !isDir {
			taken[fold(p)+"\x00file"] = true
		}
		if isDir {
			items = append(items, g.entry(format, g.prefixed(dotSlash, p)+"/", '5', nil))
			continue
		}
		body := make([]byte, g.rnd.IntN(3000))
		for i := range body {
			body[i] = byte('a' + g.rnd.IntN(26))
		}
		items = append(items, g.entry(format, g.prefixed(dotSlash, p), '0', body))
	}
	return items, paths
}

// conflicts reports a path that an earlier file would have to be a
// directory for.
func conflicts(taken map[string]bool, p string) bool {
	for i := range len(p) {
		if p[i] == '/' && taken[fold(p[:i])+"\x00file"] {
			return true
		}
	}
	return false
}

func (g *generator) prefixed(dotSlash bool, p string) string {
	if dotSlash {
		return "./" + p
	}
	return p
}

// entry writes a file or directory the way a tar of the format would: a
// long name in the prefix field (ustar), a GNU long name, a pax header, or
// whatever archive/tar chooses.
func (g *generator) entry(format, name string, typ byte, body []byte) item {
	style := 0
	if g.chance(0.15) {
		style = 1 + g.rnd.IntN(4)
	}
	records := [][2]string{{"path", name}}
	if g.chance(0.3) { // what pax writers add: times, owners, the size
		records = append(records, [2]string{"mtime", "1700000000.123456789"}, [2]string{"atime", "1700000001"},
			[2]string{"uname", "developer"}, [2]string{"gid", "1000"}, [2]string{"size", fmt.Sprint(len(body))})
	}
	if format == "pax" && len(records) > 1 {
		return item{label: "entry", write: func(w *rawTar) {
			w.pax('x', records...)
			w.entry(header{name: truncate(name), typ: typ}, body)
		}}
	}
	return item{label: "entry", write: func(w *rawTar) {
		switch {
		case format == "go":
			var buf bytes.Buffer
			tw := tar.NewWriter(&buf)
			mode := int64(0o644)
			if typ == '5' {
				mode = 0o755
			}
			_ = tw.WriteHeader(&tar.Header{Name: name, Typeflag: typ, Size: int64(len(body)), Mode: mode})
			_, _ = tw.Write(body)
			_ = tw.Flush()
			w.headers = append(w.headers, w.buf.Len())
			w.buf.Write(buf.Bytes())
		case len(name) <= 100 && (format != "pax" || isASCII(name)):
			w.entry(header{name: name, typ: typ, format: format, style: style}, body)
		case format == "ustar" && len(name) <= 255 && strings.Contains(name[max(len(name)-101, 0):], "/"):
			i := strings.Index(name[max(len(name)-101, 0):], "/") + max(len(name)-101, 0)
			if i > 155 || i == 0 {
				w.pax('x', [2]string{"path", name})
				w.entry(header{name: truncate(name), typ: typ}, body)
				return
			}
			w.entry(header{prefix: name[:i], name: name[i+1:], typ: typ}, body)
		case format == "gnu":
			w.gnuLong('L', name)
			w.entry(header{name: truncate(name), typ: typ, format: "gnu"}, body)
		default:
			w.pax('x', [2]string{"path", name})
			w.entry(header{name: truncate(name), typ: typ}, body)
		}
	}}
}

func truncate(name string) string { return name[:min(len(name), 100)] }

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func file(name, body string) item {
	return item{label: "file", write: func(w *rawTar) { w.entry(header{name: name, typ: '0'}, []byte(body)) }}
}

func dir(name string) item {
	return item{label: "dir", write: func(w *rawTar) { w.entry(header{name: name, typ: '5'}, nil) }}
}

func link(typ byte, name, target string) item {
	return item{label: "link", write: func(w *rawTar) { w.entry(header{name: name, link: target, typ: typ}, nil) }}
}

// seq is several items as one.
func seq(label string, items ...item) item {
	return item{label: label, write: func(w *rawTar) {
		for _, it := range items {
			it.write(w)
		}
	}}
}

// raw is an item that writes blocks directly.
func raw(label string, write func(w *rawTar)) item { return item{label: label, write: write} }

// hostile returns one of the hostile constructs (or a neighbour of
// one), aimed at the canary or above the extraction directory.
func (g *generator) hostile(paths []string) item {
	constructs := g.constructs(paths)
	return constructs[g.rnd.IntN(len(constructs))]()
}

// constructs lists the hostile constructs, each with its variants chosen
// at random.
func (g *generator) constructs(paths []string) []func() item {
	c := g.canary
	up := strings.Repeat("../", 1+g.rnd.IntN(3))
	some := "index.html"
	if len(paths) > 0 {
		some = paths[g.rnd.IntN(len(paths))]
	}
	return append(append(g.unread(some), g.readings(some)...), []func() item{
		func() item { return seq("symlink out", link('2', "l", g.pick(c, up+"x", up))) },
		func() item {
			return seq("symlink out, then a file through it", link('2', "l", g.pick(c, up)), file("l/pwned", "x"))
		},
		func() item { return seq("symlink inside", link('2', "l.html", some)) },
		func() item { return seq("hard link inside", link('1', "h.html", some)) },
		func() item {
			return seq("link declared before the link it goes through",
				link('2', "p", "d0/d1/d2"), dir("d0/"), dir("d0/d1/"), link('2', "d0/d1/d2", "../../.."+g.pick("", "/..")),
				file("p/pwned", "x"))
		},
		func() item {
			return seq("backslash", file(g.pick(`a\..\..\pwned.html`, `b\b\b\passwd.html`, `..\pwned`), "x"))
		},
		func() item { return seq("case alias", dir("b/"), link('2', "B", c), file("b/pwned", "x")) },
		func() item { return seq("case alias of a file", file("Read.html", "1"), file("READ.html", "2")) },
		func() item { return seq("unicode alias", dir("café/"), file("cafe\u0301/x.html", "x")) },
		func() item { return seq("kelvin alias", file("k.html", "1"), file("\u212a.html", "2")) },
		func() item { return seq("sharp s alias", file("straße", "1"), file("STRASSE", "2")) },
		func() item { return seq("duplicate file", file("dup.html", "1"), file("dup.html", "2")) },
		func() item { return seq("file then directory", file("fd", "1"), dir("fd/")) },
		func() item { return seq("file then a file under it", file("fd", "1"), file("fd/x", "2")) },
		func() item {
			return seq("link redefined by a duplicate", dir("d/"), link('2', "l", "d"), link('2', "l", c), file("l/pwned", "x"))
		},
		func() item {
			return seq("hard link to a symbolic link", link('2', "s", c), link('1', "h", "s"), file("h/pwned", "x"))
		},
		func() item { return seq("hard link out", link('1', "h", g.pick(c+"/secret", up+"x"))) },
		func() item {
			return raw("pax GNU.sparse.name", func(w *rawTar) {
				w.pax('x', [2]string{"GNU.sparse.name", g.pick(c+"/pwned", up+"pwned")}, [2]string{"path", "ok.html"})
				w.entry(header{name: "ok.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("stacked pax", func(w *rawTar) {
				w.pax('x', [2]string{"path", "a.html"})
				w.pax('x', [2]string{"path", g.pick(c+"/pwned", up+"pwned", "b.html")})
				w.entry(header{name: "a.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("pax before GNU long name", func(w *rawTar) {
				w.pax('x', [2]string{"path", "a.html"})
				w.gnuLong('L', g.pick(c+"/pwned", up+"pwned", "b.html"))
				w.entry(header{name: "a.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("GNU long name before pax", func(w *rawTar) {
				w.gnuLong('L', "a.html")
				w.pax('x', [2]string{"path", g.pick(c+"/pwned", up+"pwned", "b.html")})
				w.entry(header{name: "a.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("two GNU long names", func(w *rawTar) {
				w.gnuLong('L', "a.html")
				w.gnuLong('L', "b.html")
				w.entry(header{name: "a.html", typ: '0', format: "gnu"}, []byte("x"))
			})
		},
		func() item {
			return raw("V7 header with a prefix", func(w *rawTar) {
				w.entry(header{name: "pwned", prefix: g.pick(c, "..", "a"), typ: '0', format: "v7"}, []byte("x"))
			})
		},
		func() item {
			return raw("GNU header with text in its prefix area", func(w *rawTar) {
				w.entry(header{name: "g.html", prefix: g.pick(c, "..", "a"), typ: '0', format: "gnu"}, []byte("x"))
			})
		},
		func() item {
			return raw("V7 header", func(w *rawTar) { w.entry(header{name: "v7.html", typ: '0', format: "v7"}, []byte("x")) })
		},
		func() item {
			return raw("ustar prefix climbing", func(w *rawTar) {
				w.entry(header{name: "pwned", prefix: g.pick("..", "a/../..", c), typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("global pax path", func(w *rawTar) { w.pax('g', [2]string{"path", g.pick(c+"/pwned", up+"pwned")}) })
		},
		func() item {
			return raw("global pax comment", func(w *rawTar) { w.pax('g', [2]string{"comment", "hi"}) })
		},
		func() item {
			return raw("global pax mtime", func(w *rawTar) { w.pax('g', [2]string{"mtime", "1"}) })
		},
		func() item {
			return raw("GNU sparse entry", func(w *rawTar) {
				b := header{name: "sparse.html", typ: 'S', size: 512, format: "gnu"}.block()
				octal(b[386:398], 1<<20-512) // offset of the one chunk
				octal(b[398:410], 512)
				octal(b[483:495], 1<<20) // real size
				setChecksum(b)
				w.headers = append(w.headers, w.buf.Len())
				w.buf.Write(b)
				w.data(bytes.Repeat([]byte("s"), 512))
			})
		},
		func() item {
			return raw("pax sparse 1.0", func(w *rawTar) {
				w.pax('x', [2]string{"GNU.sparse.major", "1"}, [2]string{"GNU.sparse.minor", "0"},
					[2]string{"GNU.sparse.name", "sparse.html"}, [2]string{"GNU.sparse.realsize", "1048576"})
				body := append([]byte("1\n1048064\n512\n"), make([]byte, 512-14)...)
				body = append(body, bytes.Repeat([]byte("s"), 512)...)
				w.entry(header{name: "GNUSparseFile.0/sparse.html", typ: '0'}, body)
			})
		},
		func() item {
			return raw("pax sparse 0.1", func(w *rawTar) {
				w.pax('x', [2]string{"GNU.sparse.numblocks", "1"}, [2]string{"GNU.sparse.map", "0,3"},
					[2]string{"GNU.sparse.size", "1048576"})
				w.entry(header{name: "sparse01.html", typ: '0'}, []byte("abc"))
			})
		},
		func() item {
			return raw("long name", func(w *rawTar) {
				name := g.pick(strings.Repeat("a/", 200)+"x", strings.Repeat("n", 300), strings.Repeat("dir/", 1100)+"x")
				w.pax('x', [2]string{"path", name})
				w.entry(header{name: "long", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("long GNU name", func(w *rawTar) {
				w.gnuLong('L', strings.Repeat("b", 100+g.rnd.IntN(5000)))
				w.entry(header{name: "long", typ: '0', format: "gnu"}, []byte("x"))
			})
		},
		func() item {
			return raw("long link target", func(w *rawTar) {
				w.pax('x', [2]string{"linkpath", strings.Repeat("../", 1000+g.rnd.IntN(3000)) + "x"})
				w.entry(header{name: "ll", typ: '2'}, nil)
			})
		},
		func() item {
			t := g.pick("p", "3", "4", "7", "V", "M", "N", "D", "A", "I", "K", "X", "\x01", "9")[0]
			return raw(fmt.Sprintf("entry type %q", t), func(w *rawTar) {
				w.entry(header{name: "special", typ: t, format: g.pick("ustar", "gnu")}, []byte(g.pick("", "x")))
			})
		},
		func() item {
			return seq("file named with a slash", raw("", func(w *rawTar) { w.entry(header{name: "td/", typ: '0'}, nil) }))
		},
		func() item {
			return seq("old file type named with a slash", raw("", func(w *rawTar) { w.entry(header{name: "td/", typ: 0}, []byte("x")) }))
		},
		func() item {
			return seq("escaping name", file(g.pick(c+"/pwned", up+"pwned", "a/"+up+"pwned", "./"+up+"pwned", "/pwned"), "x"))
		},
		func() item {
			return seq("control character", file(g.pick("a\nb.html", "esc\x1b.html", "c1\u0085.html", "del\x7f.html"), "x"))
		},
		func() item { return seq("dot segment", file(g.pick("a/./b.html", "a//b.html", "./a/.", "a/."), "x")) },
		func() item { return seq("NFD name", file("cafe\u0301.html", "x")) },
		func() item { return seq("invalid UTF-8", file("\xff\xfe.html", "x")) },
		func() item {
			return raw("pax size hides a header", func(w *rawTar) {
				inner := header{name: g.pick(c+"/pwned", up+"pwned"), typ: '0', size: 1}.block()
				w.pax('x', [2]string{"size", "0"})
				w.entry(header{name: "smuggler.html", typ: '0', size: 1024}, append(inner, make([]byte, 512)...))
			})
		},
		func() item {
			return raw("directory with data", func(w *rawTar) {
				inner := header{name: g.pick(c+"/pwned", up+"pwned", "inner.html"), typ: '0'}.block()
				w.entry(header{name: "dd/", typ: '5', size: 512}, inner)
			})
		},
		func() item {
			return raw("base-256 size", func(w *rawTar) {
				b := header{name: "b256.html", typ: '0'}.block()
				copy(b[124:136], []byte{0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
				setChecksum(b)
				w.headers = append(w.headers, w.buf.Len())
				w.buf.Write(b)
				w.data([]byte("x"))
			})
		},
		func() item {
			return raw("pax key", func(w *rawTar) {
				k := g.pick("linkpath", "SCHILY.xattr.user.x", "LIBARCHIVE.creationtime", "hdrcharset", "charset", "uname", "mtime", "path")
				w.pax('x', [2]string{k, g.pick("x", "1", "BINARY", "a\x00b")})
				w.entry(header{name: "paxkey.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("malformed pax record", func(w *rawTar) {
				body := []byte(g.pick("99 path=x\n", "11 path=y\n", "path=z\n", "9 =x\n"))
				w.entry(header{name: "PaxHeaders/x", typ: 'x'}, body)
				w.entry(header{name: "m.html", typ: '0'}, []byte("x"))
			})
		},
		func() item {
			return raw("GNU long link on a file", func(w *rawTar) {
				w.gnuLong('K', c)
				w.entry(header{name: "k.html", typ: '0', format: "gnu"}, []byte("x"))
			})
		},
		func() item {
			return raw("extended header at the end", func(w *rawTar) { w.pax('x', [2]string{"path", "late.html"}) })
		},
		func() item {
			return raw("root as a file", func(w *rawTar) { w.entry(header{name: g.pick(".", "./"), typ: '0'}, []byte("x")) })
		},
	}...)
}

// tail writes what follows the end marker: nothing, usually.
func (g *generator) tail(w *rawTar) string {
	if !g.chance(0.08) {
		return ""
	}
	switch g.rnd.IntN(4) {
	case 3:
		w.buf.Write(make([]byte, 1+g.rnd.IntN(511))) // BusyBox tar: "short read"
		return "zeros ending inside a block after the end marker"
	case 0:
		w.entry(header{name: path.Join(g.canary, "after-end"), typ: '0'}, []byte("x"))
		w.end()
		return "entry after the end marker"
	case 1:
		w.buf.Truncate(w.buf.Len() - 512) // a lone zero block, then an entry
		w.entry(header{name: "after-lone-zero.html", typ: '0'}, []byte("x"))
		w.end()
		return "entry after a lone zero block"
	default:
		w.buf.WriteString("garbage after the end")
		w.buf.Write(make([]byte, 512-len("garbage after the end")))
		return "garbage after the end marker"
	}
}

// mutate changes a few bytes of a random header, and usually fixes its
// checksum so that the change is read.
func (g *generator) mutate(w *rawTar) string {
	if len(w.headers) == 0 {
		return "no header to mutate"
	}
	at := w.headers[g.rnd.IntN(len(w.headers))]
	b := w.buf.Bytes()[at : at+512]
	var changes []string
	for range 1 + g.rnd.IntN(3) {
		off := g.rnd.IntN(512)
		switch g.rnd.IntN(6) {
		case 4, 5:
			off = g.heldOffset()
		case 0:
			off = 156 // the type
		case 1:
			off = 124 + g.rnd.IntN(12) // the size
		case 2:
			off = 257 + g.rnd.IntN(8) // the magic and version
		}
		v := byte(g.rnd.IntN(256))
		if off < 100 && g.chance(0.1) {
			off, v = 0, 0 // an empty name
		}
		if g.chance(0.5) {
			v = g.pick("0", "1", "2", "5", "7", "x", "g", "L", "/", ".", "\\", " ", "\x00")[0]
		}
		b[off] = v
		changes = append(changes, fmt.Sprintf("%d=%#x", off, v))
	}
	fixed := g.chance(0.75)
	if fixed {
		setChecksum(b)
	}
	return fmt.Sprintf("header at %d mutated (%s, checksum fixed: %v)", at, strings.Join(changes, " "), fixed)
}
