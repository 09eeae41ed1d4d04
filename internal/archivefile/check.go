package archivefile

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// The language of archives the check accepts, a static site's: regular
// files and directories, each with a name that checkName accepts and no
// two alike once folded (pathSet); in POSIX ustar or GNU headers, with at
// most one extended header per entry (a PAX header with the keys of
// paxKeys, or a GNU long name), global headers that set nothing, and
// nothing after the end-of-archive marker but zeros. Every byte is read:
// each byte of a header block, of an extended header's data and padding,
// of an entry's padding and of the gzip member headers (gzipmember.go) is
// either parsed and held to the language or required to be zero, since
// some extractor reads each of them (BusyBox tar takes a header with an
// empty name for an end block; Python's tarfile and GNU tar read into
// padding). The modes are those of a site others may read but not change:
// no group or other write bit, files the owner can read, and a root entry
// (./) that leaves the directory it is extracted into at 0755. The check
// reads the raw header blocks itself (header.go) and has archive/tar read
// each entry's headers too: an entry the two read otherwise is refused.
// Every cost is linear in the archive's size and bounded by limits.

// limits bound what an archive may hold.
type limits struct {
	ratio   int64 // decompressed bytes per compressed byte...
	slack   int64 // ...plus these
	ceiling int64 // decompressed bytes in all
	paths   int   // files and directories, the implied ones included
	ext     int64 // bytes of an extended header's data
}

var defaultLimits = limits{ratio: 100, slack: 1 << 20, ceiling: 16 << 30, paths: 100_000, ext: 8 << 10}

// checker reads one archive.
type checker struct {
	ctx     context.Context
	lim     limits
	in      *countingReader // the compressed stream
	gz      io.Reader
	out     int64 // decompressed bytes read
	blk     [blockSize]byte
	raw     []byte // the current entry's header blocks, for archive/tar
	buf     []byte
	paths   *pathSet
	entries int
	current string // the entry whose content is being read
}

// member is an entry's header as extractors read it.
type member struct {
	hdr  rawHeader
	ext  byte // the type of its extended header, 0 for none
	data []byte
	name string // the name extractors use
}

func (c *checker) run() error {
	for {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		e, err := c.next()
		if err != nil {
			return err
		}
		if e == nil {
			return c.trailer()
		}
		if err := c.accept(e); err != nil {
			return err
		}
		if err := c.skip(e.name, e.hdr.size); err != nil {
			return err
		}
	}
}

// next reads the header blocks of the next entry, or returns nil at the
// end-of-archive marker (or at the stream's end between entries).
func (c *checker) next() (*member, error) {
	c.raw = c.raw[:0]
	e := &member{}
	global := "" // the name of a global header read since the last entry
	for {
		end, err := c.readBlock()
		if err != nil {
			return nil, err
		}
		if end {
			return nil, c.atEnd(e, global)
		}
		h, herr := parseHeader(&c.blk)
		if herr != nil {
			return nil, c.refuseHeader(h.name, herr)
		}
		switch h.typ {
		case typeReg, typeDir:
			c.raw = append(c.raw, c.blk[:]...)
			e.hdr = h
			return e, nil
		default: // an extended header
			if e.ext != 0 {
				return nil, c.refuse(h.name, fmt.Sprintf("its extended header (type %q) follows another (type %q): an entry may have one at most", h.typ, e.ext))
			}
			if err := c.extended(e, h); err != nil {
				return nil, err
			}
			if h.typ == typeGlobal {
				global = h.name
			}
		}
	}
}

// atEnd checks that no extended header (e's) nor global one (named
// global) waits for an entry at the end of the archive.
func (c *checker) atEnd(e *member, global string) error {
	if e.ext != 0 {
		return c.refuse(e.hdr.name, "its extended header is the last header: no entry follows it")
	}
	if global != "" { // Python's tarfile fails on it ("empty header")
		return c.refuse(global, "its global header is the last header: no entry follows it")
	}
	return nil
}

// extended reads the data of an extended header: a global one is checked
// and forgotten, an entry's is kept in e.
func (c *checker) extended(e *member, h rawHeader) error {
	if h.size > c.lim.ext {
		return c.refuse(h.name, fmt.Sprintf("its extended header holds %d bytes, more than the %d allowed", h.size, c.lim.ext))
	}
	head := c.blk
	data := make([]byte, padded(h.size))
	if err := c.read(data); err != nil {
		return err
	}
	if !allZero(data[h.size:]) { // Python's tarfile reads PAX records there, it and GNU tar long names
		return c.refuse(h.name, "its extended header's padding (after its data, to the end of the block) is not zeros")
	}
	if h.typ == typeGlobal {
		if _, rule := parsePAX(data[:h.size], globalKeys); rule != "" {
			return c.refuse(h.name, "a global header may set nothing: "+rule)
		}
		return nil
	}
	c.raw = append(append(c.raw, head[:]...), data...)
	e.hdr, e.ext, e.data = h, h.typ, data[:h.size]
	return nil
}

// accept checks an entry against the language and records its path.
func (c *checker) accept(e *member) error {
	h := e.hdr
	name, rule := resolveName(e)
	if rule != "" {
		return c.refuse(h.name, rule)
	}
	e.name = name
	dir := h.typ == typeDir
	switch {
	case h.links:
		return c.refuse(name, "its header has a link target, which only a link has (links are refused)")
	case h.mode&0o7000 != 0:
		return c.refuse(name, fmt.Sprintf("an entry may not be set-user-ID, set-group-ID or sticky (its mode is %04o)", h.mode&0o7777))
	case dir && h.mode&0o300 != 0o300: // GNU tar and BusyBox, not root, then fail to fill it
		return c.refuse(name, fmt.Sprintf("a directory's mode must let its owner write and enter it (u+wx; its mode is %04o)", h.mode&0o7777))
	case h.mode&0o022 != 0:
		return c.refuse(name, fmt.Sprintf("an entry may not be writable by its group or others (g+w, o+w; its mode is %04o)", h.mode&0o7777))
	case !dir && h.mode&0o400 == 0:
		return c.refuse(name, fmt.Sprintf("a file's mode must let its owner read it (u+r; its mode is %04o)", h.mode&0o7777))
	case dir && h.size != 0:
		return c.refuse(name, "a directory's header may not give it a size")
	case c.out+padded(h.size) > c.lim.ceiling:
		return c.refuse(name, fmt.Sprintf("its size (%d bytes) takes the archive past %s decompressed, the most allowed", h.size, sizeText(c.lim.ceiling)))
	}
	segments, rule := checkName(name, dir)
	if rule == "" {
		rule = c.paths.add(segments, dir)
	}
	if rule == "" {
		rule = c.crossCheck(e)
	}
	if rule != "" {
		return c.refuse(name, rule)
	}
	if segments == nil && h.mode&0o7777 != rootMode { // extractors set the mode of the directory they extract into
		return c.refuse(name, fmt.Sprintf("the archive's root may not change the mode of the directory it is extracted into: its mode must be %04o (it is %04o)", rootMode, h.mode&0o7777))
	}
	if segments != nil {
		c.entries++
	}
	return nil
}

// rootMode is the only mode a root entry (./) may have: what a directory
// is created with under the usual umask (022), so that extracting the
// archive leaves the directory it goes into as it usually is.
const rootMode = 0o755

// resolveName returns the name extractors give the entry: the PAX path or
// the GNU long name when there is one, else the header's. A name the
// header's fields spell and the extended header replaces must be harmless
// too, for a reader that would not replace it.
func resolveName(e *member) (string, string) {
	h := e.hdr
	name := h.name
	switch e.ext {
	case typePAX:
		recs, rule := parsePAX(e.data, paxKeys)
		if rule == "" {
			rule = checkPAXValues(recs, h.size)
		}
		if rule != "" {
			return "", rule
		}
		if p, ok := recs["path"]; ok {
			name = p
		}
	case typeLongNm:
		if len(e.data) == 0 || e.data[len(e.data)-1] != 0 {
			return "", "its GNU long name does not end with a NUL inside its size (GNU tar and Python's tarfile read on into the padding)"
		}
		name = cString(e.data)
		if !allZero(e.data[min(len(name)+1, len(e.data)):]) {
			return "", "its GNU long name has data after the name's end"
		}
	}
	if name != h.name {
		if rule := replacedNameRule(h.name); rule != "" {
			return "", fmt.Sprintf("the name %q in its tar header, which its extended header replaces, %s", h.name, rule)
		}
	}
	return name, ""
}

// replacedNameRule says why a name that an extended header replaces would
// be harmful to a reader that kept it: it is held to every rule of
// checkName about its characters and where it leads (no control or
// invisible formatting character, no backslash, not absolute, no drive
// letter, no ..). The rules of form (UTF-8, NFC, lengths, a trailing /)
// are not applied: real writers cut a long name short there, at any byte.
func replacedNameRule(name string) string {
	switch {
	case hasControl(name):
		return "holds a control character"
	case strings.IndexByte(name, '\\') >= 0:
		return "holds a backslash"
	case strings.HasPrefix(name, "/"):
		return "is absolute"
	case len(name) >= 2 && name[1] == ':':
		return "starts with a drive letter"
	}
	for _, r := range name {
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) {
			return fmt.Sprintf("holds a control or invisible formatting character (U+%04X)", r)
		}
	}
	for seg := range strings.SplitSeq(name, "/") {
		if seg == ".." {
			return "climbs out with .."
		}
	}
	return ""
}

// crossCheck has archive/tar read the entry's header blocks: it must read
// the same name, type and size, and no link.
func (c *checker) crossCheck(e *member) string {
	hdr, err := tar.NewReader(bytes.NewReader(c.raw)).Next()
	switch {
	case err != nil:
		return "Go's archive/tar cannot read its header: " + err.Error()
	case hdr.Name != e.name || hdr.Typeflag != e.hdr.typ || hdr.Size != e.hdr.size || hdr.Linkname != "":
		return fmt.Sprintf("readers disagree on its header: Go's archive/tar reads %q of type %q and %d bytes", hdr.Name, hdr.Typeflag, hdr.Size)
	}
	return ""
}

// where says where the reading is, for an error.
func (c *checker) where() string {
	if c.current != "" {
		return fmt.Sprintf("in entry %q", c.current)
	}
	return fmt.Sprintf("after %d entries", c.entries)
}

// refuse is the error for an entry that breaks rule.
func (c *checker) refuse(name, rule string) error {
	if name == "" {
		return &InvalidError{refused: true, Reason: fmt.Sprintf("entry %d (unnamed): %s", c.entries+1, rule)}
	}
	return &InvalidError{Entry: name, Reason: fmt.Sprintf("entry %q: %s", name, rule)}
}

// refuseHeader is the error for a header that breaks err's rule: damage
// when its checksum does not match, otherwise a refusal.
func (c *checker) refuseHeader(name string, err *headerError) error {
	if err.corrupt {
		return &InvalidError{Reason: fmt.Sprintf("a tar header is invalid (%s): %s: the archive is corrupt", c.where(), err.rule)}
	}
	return c.refuse(name, err.rule)
}
