package archivefile

import (
	"archive/tar"
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// tree judges each entry of an archive against the entries before it, the
// way an extraction (tar -x, Python's tarfile.extractall) meets them, one
// after the other: it remembers which paths are symbolic links and where
// they lead. An entry is safe when it is a regular file, a directory, or a
// link that leads inside the archive's directory, and its path does not run
// through a symbolic link: a chain such as d/up -> .., d/up/up -> ..,
// d/up/up/pwned.txt would otherwise write outside it.
//
// Paths are compared case-folded and in one Unicode normal form, as the
// file systems of macOS and Windows compare them, so that D/UP cannot
// stand for d/up unseen. The zero tree is empty; an archive without
// symbolic links costs one map lookup per entry at most.
type tree struct {
	// links maps the folded path of each symbolic link to what it is.
	links map[string]symlink
	// walked holds the folded paths that earlier links' targets go
	// through as directories. A later symbolic link at one of them would
	// change where those links lead after the fact, so it is refused.
	walked map[string]bool
}

// symlink is a symbolic link entry.
type symlink struct {
	name string   // as the archive spells it
	dest []string // where it leads: folded components from the archive's root
}

// regularTypes are the entry types extracted as regular files (Python's
// tarfile.REGULAR_TYPES; tar.Reader turns TypeRegA into TypeReg).
var regularTypes = map[byte]bool{tar.TypeReg: true, tar.TypeCont: true, tar.TypeGNUSparse: true}

// add says why extracting h, after the entries added before it, would be
// unsafe, or records it and returns "".
func (t *tree) add(h *tar.Header) string {
	if kind := specialKind(h.Typeflag); kind != "" {
		return fmt.Sprintf("entry %q is %s, not a regular file, a directory or a link", h.Name, kind)
	}
	if problem := pathProblem(h.Name); problem != "" {
		return fmt.Sprintf("entry %q %s", h.Name, problem)
	}
	name := components(h.Name)
	if link, ok := t.through(name); ok {
		return fmt.Sprintf("entry %q goes through %q, a symbolic link earlier in the archive", h.Name, link)
	}
	switch h.Typeflag {
	case tar.TypeLink:
		return t.hardLink(h)
	case tar.TypeSymlink:
		return t.symlink(h, name)
	}
	return ""
}

// specialKind names an entry type that is neither a regular file, a
// directory nor a link, or returns "".
func specialKind(typ byte) string {
	switch {
	case regularTypes[typ] || typ == tar.TypeDir || typ == tar.TypeLink || typ == tar.TypeSymlink:
		return ""
	case typ == tar.TypeChar:
		return "a character device"
	case typ == tar.TypeBlock:
		return "a block device"
	case typ == tar.TypeFifo:
		return "a FIFO (named pipe)"
	default:
		return fmt.Sprintf("of the special type %q", string(rune(typ)))
	}
}

// through returns the earlier symbolic link that the directories of an
// entry's path (its components, ".." included) run through.
func (t *tree) through(name []string) (string, bool) {
	if len(t.links) == 0 {
		return "", false
	}
	var at []string
	for _, c := range name[:len(name)-1] {
		if c == ".." {
			at = at[:max(len(at)-1, 0)] // pathProblem refused climbing out
			continue
		}
		at = append(at, c)
		if link, ok := t.links[strings.Join(at, "/")]; ok {
			return link.name, true
		}
	}
	return "", false
}

// hardLink checks a hard link, whose target is a path from the archive's
// root.
func (t *tree) hardLink(h *tar.Header) string {
	if problem := pathProblem(h.Linkname); problem != "" {
		return fmt.Sprintf("entry %q is a hard link to %q, which %s", h.Name, h.Linkname, problem)
	}
	if _, inside := t.resolve(nil, components(h.Linkname), false); !inside {
		return fmt.Sprintf("entry %q is a hard link to %q, which leads outside the archive through a symbolic link", h.Name, h.Linkname)
	}
	return ""
}

// symlink checks a symbolic link, whose target is relative to its own
// directory, and records it.
func (t *tree) symlink(h *tar.Header, name []string) string {
	if isAbs(slashed(h.Linkname)) {
		return fmt.Sprintf("entry %q is a symbolic link to %q, an absolute path", h.Name, h.Linkname)
	}
	key := strings.Join(name, "/")
	if t.walked[key] {
		return fmt.Sprintf("entry %q is a symbolic link, but an earlier link leads through %q as a directory", h.Name, h.Name)
	}
	if t.links == nil {
		t.links, t.walked = map[string]symlink{}, map[string]bool{}
	}
	dir, _ := t.resolve(nil, name[:len(name)-1], false)
	dest, inside := t.resolve(dir, components(h.Linkname), true)
	if !inside {
		return fmt.Sprintf("entry %q is a symbolic link to %q, which points outside the archive", h.Name, h.Linkname)
	}
	t.links[key] = symlink{name: h.Name, dest: dest}
	return ""
}

// resolve follows rel from the directory at (components from the root) as
// the file system would, through the symbolic links recorded so far. It
// returns where rel leads, and false when it climbs above the root. With
// record, the directories it goes through are recorded in walked.
func (t *tree) resolve(at, rel []string, record bool) ([]string, bool) {
	at = append([]string(nil), at...)
	for i, c := range rel {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(at) == 0 {
				return nil, false
			}
			at = at[:len(at)-1]
			continue
		}
		at = append(at, c)
		key := strings.Join(at, "/")
		if link, ok := t.links[key]; ok {
			at = append(at[:0:0], link.dest...)
		} else if record && i < len(rel)-1 {
			t.walked[key] = true
		}
	}
	return at, true
}

// components splits a path into folded components, keeping "..".
func components(name string) []string {
	var out []string
	for c := range strings.SplitSeq(fold(slashed(name)), "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = []string{"."}
	}
	return out
}

// fold is how case-insensitive, normalising file systems compare names.
func fold(s string) string { return strings.ToLower(norm.NFC.String(s)) }

// slashed reads backslashes as separators, as Windows tools do.
func slashed(name string) string { return strings.ReplaceAll(name, `\`, "/") }
