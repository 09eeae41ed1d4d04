package archivefile

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// The bounds of a name (see the resource's documentation).
const (
	maxNameBytes    = 1024
	maxSegmentBytes = 255
	maxDepth        = 32
)

// checkName splits an entry's name into its segments, or says which rule
// it breaks. A single leading "./" is allowed (tar -C dir -czf x . writes
// it); "." or "./" alone names the archive's root, which only a directory
// may (nil segments). A directory's name may end with one "/".
func checkName(name string, dir bool) ([]string, string) {
	if rule := checkText(name); rule != "" {
		return nil, rule
	}
	switch {
	case strings.HasPrefix(name, "/"):
		return nil, "a name may not be absolute (start with /)"
	case len(name) >= 2 && name[1] == ':' && ('a' <= name[0]|0x20 && name[0]|0x20 <= 'z'):
		return nil, "a name may not start with a drive letter"
	}
	rest := strings.TrimPrefix(name, "./")
	if strings.HasSuffix(rest, "/") {
		if !dir {
			return nil, "only a directory's name may end with /"
		}
		rest = rest[:len(rest)-1]
	}
	if rest == "" || rest == "." {
		if !dir {
			return nil, "a file may not be named after the archive's root (. or ./)"
		}
		return nil, ""
	}
	segments := strings.Split(rest, "/")
	if len(segments) > maxDepth {
		return nil, fmt.Sprintf("a name may not have more than %d segments (directories and the file)", maxDepth)
	}
	for _, s := range segments {
		switch {
		case s == "":
			return nil, "a name may not have an empty segment (//)"
		case s == "." || s == "..":
			return nil, "a name may not have a . or .. segment"
		case len(s) > maxSegmentBytes:
			return nil, fmt.Sprintf("a name's segment may not be longer than %d bytes", maxSegmentBytes)
		}
	}
	return segments, ""
}

// checkText checks a name's characters: UTF-8 in NFC, no backslash, no
// control or invisible formatting character.
func checkText(name string) string {
	switch {
	case name == "":
		return "a name may not be empty"
	case len(name) > maxNameBytes:
		return fmt.Sprintf("a name may not be longer than %d bytes", maxNameBytes)
	case strings.IndexByte(name, '\\') >= 0:
		return "a name may not contain a backslash"
	}
	ascii := true
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f {
			return fmt.Sprintf("a name may not contain a control character (U+%04X)", c)
		} else if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if ascii {
		return ""
	}
	if !utf8.ValidString(name) {
		return "a name must be valid UTF-8"
	}
	for _, r := range name {
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return fmt.Sprintf("a name may not contain a control or invisible formatting character (U+%04X)", r)
		}
	}
	if !norm.NFC.IsNormalString(name) {
		return "a name must be in Unicode normal form NFC"
	}
	return ""
}

// The kinds of path a pathSet holds.
const (
	kindImplied uint8 = iota + 1 // a directory that a longer path goes through
	kindDir                      // a directory entry
	kindFile                     // a regular file entry
)

// pathSet holds every path of the archive so far, entries and the
// directories they go through, folded (case and Unicode compatibility
// forms ignored, as on macOS and Windows) and hashed: 24 bytes each however
// long the name, so that memory is bounded by the limit on paths (limits.paths). A hash collision
// can only refuse an archive, never let one through; with a random seed and
// at most that many paths it is about one in 10⁹.
type pathSet struct {
	seed  maphash.Seed
	paths map[uint64]pathInfo
	fold  cases.Caser
	limit int
	root  bool // the archive's root was an entry
}

// pathInfo is a path of the set.
type pathInfo struct {
	kind  uint8
	exact uint64 // the hash of the path as spelled, unfolded
}

func newPathSet(limit int) *pathSet {
	return &pathSet{seed: maphash.MakeSeed(), paths: map[uint64]pathInfo{}, fold: cases.Fold(), limit: limit}
}

// add records an entry with the given segments (nil: the root), or says
// which rule it breaks: two entries may not have the same folded path, a
// path may not go through a file, a file's path may not be a directory
// that an earlier path went through, and every directory must be spelled
// as the first path that went through it spelled it.
func (s *pathSet) add(segments []string, dir bool) string {
	if segments == nil {
		if s.root {
			return "the archive's root (. or ./) may be an entry once only"
		}
		s.root = true
		return ""
	}
	var folded, exact uint64
	for i, seg := range segments {
		folded, exact = s.child(folded, s.folded(seg)), s.child(exact, seg)
		info, seen := s.paths[folded]
		if seen && info.exact != exact {
			return fmt.Sprintf("%q has the same name as an earlier entry's, ignoring case and Unicode form", strings.Join(segments[:i+1], "/"))
		}
		if i == len(segments)-1 {
			return s.addLast(folded, exact, info, seen, dir)
		}
		if info.kind == kindFile {
			return fmt.Sprintf("its directory %q is a file earlier in the archive", strings.Join(segments[:i+1], "/"))
		}
		if !seen {
			if rule := s.insert(folded, pathInfo{kind: kindImplied, exact: exact}); rule != "" {
				return rule
			}
		}
	}
	return ""
}

// addLast records the entry's own path, of which info is what the set
// holds (if seen).
func (s *pathSet) addLast(folded, exact uint64, info pathInfo, seen, dir bool) string {
	switch {
	case !seen && dir:
		return s.insert(folded, pathInfo{kind: kindDir, exact: exact})
	case !seen:
		return s.insert(folded, pathInfo{kind: kindFile, exact: exact})
	case info.kind == kindImplied && dir:
		s.paths[folded] = pathInfo{kind: kindDir, exact: exact}
		return ""
	case info.kind == kindImplied:
		return "an earlier entry's path goes through it as a directory"
	}
	return "an earlier entry has the same path"
}

func (s *pathSet) insert(key uint64, info pathInfo) string {
	if len(s.paths) >= s.limit {
		return fmt.Sprintf("the archive may not hold more than %d files and directories (counting the directories their paths go through)", s.limit)
	}
	s.paths[key] = info
	return ""
}

// child hashes the path of a segment inside the directory whose hash is
// parent.
func (s *pathSet) child(parent uint64, segment string) uint64 {
	var h maphash.Hash
	h.SetSeed(s.seed)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], parent)
	_, _ = h.Write(b[:])
	_, _ = h.WriteString(segment)
	return h.Sum64()
}

// folded is how a case-insensitive, normalising file system compares a
// segment: case-folded, in Unicode's compatibility form, with the dotless
// ı as i, since NTFS's upcase table makes both I.
func (s *pathSet) folded(segment string) string {
	ascii := true
	for i := 0; i < len(segment) && ascii; i++ {
		ascii = segment[i] < utf8.RuneSelf
	}
	if ascii {
		return strings.ToLower(segment)
	}
	return strings.ReplaceAll(norm.NFKC.String(s.fold.String(norm.NFKC.String(segment))), "ı", "i")
}
