package archivefile

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The general-purpose flags the language knows: a data descriptor after
// the data, UTF-8 names, and deflate's (informative) level.
const (
	flagEncrypted  = 1 << 0
	flagLevel      = 1<<1 | 1<<2
	flagDescriptor = 1 << 3
	flagUTF8       = 1 << 11
)

// maxVersion is the newest version needed to extract that every extractor
// reads: 4.5, ZIP64.
const maxVersion = 45

// The extra fields the language accepts: ZIP64 sizes, NTFS times, the
// extended timestamp, and the JAR marker. Any other is refused: the
// Unicode path (0x7075) some readers put in place of the name and others
// ignore; the owner fields (Info-ZIP's ux 0x7875 and Ux 0x5855, 0x7855),
// whose uid and gid bsdtar applies when run as root, where the other
// extractors do not; Info-ZIP's and ASi's Unix fields that carry a link's
// target; AES encryption (0x9901).
const extraZip64 = 0x0001

var extraKnown = map[uint16]bool{extraZip64: true, 0x000a: true, 0x5455: true, 0xcafe: true}

// ownerFields are the extra fields that carry an owner, named for the
// error.
var ownerFields = map[uint16]string{0x7875: "Info-ZIP's Unix owner (ux, 0x7875)", 0x5855: "Info-ZIP's old Unix field (UX, 0x5855)",
	0x7855: "Info-ZIP's Unix owner (Ux, 0x7855)"}

// headerRule checks what a local header and its central record share:
// the version, the flags, the method and the name's encoding.
func headerRule(version, flags, method uint16, name string) string {
	switch {
	case version&0xff > maxVersion:
		return fmt.Sprintf("it needs version %d.%d of ZIP to extract, past 4.5, the newest every extractor reads", version&0xff/10, version&0xff%10)
	case flags&flagEncrypted != 0:
		return "it is encrypted"
	case flags&^(flagLevel|flagDescriptor|flagUTF8) != 0:
		return fmt.Sprintf("its flags (0x%04x) set bits other than a data descriptor's, UTF-8's and deflate's level (such as strong encryption's)", flags)
	case method != methodStore && method != methodDeflate:
		return fmt.Sprintf("its compression method is %d: only stored (0) and deflate (8) are accepted", method)
	case method == methodStore && flags&flagLevel != 0:
		return "a stored entry may not set deflate's level flags"
	case !utf8.ValidString(name):
		return "a name must be valid UTF-8"
	case flags&flagUTF8 == 0 && !isASCII(name):
		return "its name is not ASCII, yet its UTF-8 flag (bit 11) is not set: readers would read it as code page 437"
	}
	return ""
}

// nameHostRule checks that a name that is not ASCII was made on Unix:
// Debian's Info-ZIP unzip converts the names of entries made on MS-DOS
// from code page 437, UTF-8 flag or not.
func nameHostRule(madeBy uint16, name string) string {
	if madeBy>>8 != hostUnix && !isASCII(name) {
		return "its name is not ASCII, yet it was not made on Unix: Info-ZIP unzip would read its name as code page 437"
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// extraRule reads an extra field, records by records, and returns the
// data of its ZIP64 record (nil for none).
func extraRule(extra []byte) ([]byte, string) {
	var z64 []byte
	seen := map[uint16]bool{}
	for len(extra) > 0 {
		if len(extra) < 4 {
			return nil, "its extra field ends inside a record's header"
		}
		id, size := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if 4+size > len(extra) {
			return nil, fmt.Sprintf("its extra field's record 0x%04x is longer than the extra field", id)
		}
		switch {
		case id == 0x7075:
			return nil, "its extra field holds a Unicode path (0x7075), which some readers take in place of its name and others ignore"
		case ownerFields[id] != "":
			return nil, fmt.Sprintf("its extra field holds %s, which bsdtar applies when run as root and the other extractors "+
				"ignore: a ZIP may not give owners", ownerFields[id])
		case !extraKnown[id]:
			return nil, fmt.Sprintf("its extra field holds a record of type 0x%04x, which the language does not accept", id)
		case seen[id]:
			return nil, fmt.Sprintf("its extra field holds the record 0x%04x twice", id)
		}
		seen[id] = true
		if id == extraZip64 {
			z64 = extra[4 : 4+size : 4+size]
		}
		extra = extra[4+size:]
	}
	return z64, ""
}

// localSizes resolves a local header's sizes: with a data descriptor, it
// has no ZIP64 record (its CRC and sizes, zeros or the actual ones, are
// checked against the descriptor); otherwise a ZIP64 record gives both
// sizes exactly when both 32-bit fields are 0xffffffff.
func localSizes(e *zipEntry, z64 []byte) string {
	switch {
	case e.flags&flagDescriptor != 0:
		if z64 != nil {
			return "its local header has a data descriptor and a ZIP64 record (readers disagree on the descriptor's size)"
		}
	case e.csize == max32 && e.usize == max32:
		if len(z64) != 16 {
			return "its local header's sizes are 0xffffffff, but no ZIP64 record of 16 bytes gives them"
		}
		e.usize, e.csize = int64(binary.LittleEndian.Uint64(z64)), int64(binary.LittleEndian.Uint64(z64[8:]))
		switch {
		case e.usize < 0 || e.csize < 0:
			return "its ZIP64 sizes are out of range"
		case e.usize < max32 && e.csize < max32:
			return needlessZip64
		}
	case e.csize == max32 || e.usize == max32:
		return "its local header gives one size as 0xffffffff and not the other (ZIP64 needs both)"
	case z64 != nil:
		return "its local header has a ZIP64 record, but its sizes are not 0xffffffff"
	}
	return ""
}

// entryRule checks what a local header says of its data.
func entryRule(e *zipEntry) string {
	switch {
	case e.dir && (e.csize != 0 || e.usize != 0 || e.crc != 0 || e.method != methodStore || e.flags&flagDescriptor != 0):
		return "a directory's entry must be stored and empty, with no data descriptor"
	case e.method == methodStore && e.flags&flagDescriptor != 0:
		return "a stored entry may not have a data descriptor (its end cannot be found from its local header)"
	case e.method == methodStore && e.csize != e.usize:
		return fmt.Sprintf("a stored entry's compressed size (%d) must be its size (%d)", e.csize, e.usize)
	}
	return ""
}

// The DOS attributes the language accepts: read-only, hidden, system,
// directory, archive, normal, and 7-Zip's mark of a Unix mode in the high
// half (which the host must be Unix to use).
const (
	dosKnown    = 0x01 | 0x02 | 0x04 | 0x10 | 0x20 | 0x80 | 0x8000
	dosDir      = 0x10
	dosReadOnly = 0x01
)

// The hosts of "version made by" whose attributes the language reads.
const (
	hostDOS  = 0
	hostUnix = 3
)

// attributesRule checks a central record's external attributes: it must
// have been made on Unix and give a Unix mode (BusyBox unzip creates an
// MS-DOS directory 0777, Info-ZIP and Python use the umask), of the kind
// its name gives (a name ending with / is a directory), held to the
// tar language's rules of modes (unixModeRule).
func attributesRule(madeBy uint16, external uint32, name string, dir bool) string {
	dos, unix := external&0xffff, external>>16
	switch host := madeBy >> 8; {
	case host == hostDOS:
		return "it was made on MS-DOS, without a Unix mode, which extractors fill in each their own way (BusyBox unzip " +
			"makes a directory 0777): a ZIP entry must give a Unix mode"
	case host != hostUnix:
		return fmt.Sprintf("it was made on host %d, whose attributes readers read differently: a ZIP entry must be made on Unix (3) "+
			"and give a Unix mode", host)
	case dos&^dosKnown != 0:
		return fmt.Sprintf("its DOS attributes (0x%04x) set bits other than read-only, hidden, system, directory, archive, normal "+
			"and 7-Zip's Unix mark", dos)
	case dos&dosDir != 0 && !dir:
		return "its DOS attributes make it a directory, but its name does not end with /"
	case dir && dos&dosReadOnly != 0: // as a directory its owner cannot write, which extractors not run as root fail to fill
		return "a directory may not be read-only (its DOS attributes say so)"
	}
	return unixModeRule(unix, name, dir)
}

// unixModeRule checks the Unix mode of an entry, as the tar language
// checks a header's mode.
func unixModeRule(mode uint32, name string, dir bool) string {
	perm := mode & 0o7777
	switch typ := mode & 0o170000; {
	case typ == 0o120000:
		return "its Unix mode makes it a symbolic link (links are refused)"
	case typ == 0:
		return fmt.Sprintf("its Unix mode (%06o) gives no kind of file: a ZIP entry must give a regular file's (0100000) or "+
			"a directory's (040000)", mode)
	case typ != 0o100000 && typ != 0o040000:
		return fmt.Sprintf("its Unix mode (%06o) makes it a device, FIFO or socket: only regular files and directories are accepted", mode)
	case typ == 0o040000 && !dir:
		return "its Unix mode makes it a directory, but its name does not end with /"
	case typ == 0o100000 && dir:
		return "its Unix mode makes it a regular file, but its name ends with /"
	case mode&0o7000 != 0:
		return fmt.Sprintf("an entry may not be set-user-ID, set-group-ID or sticky (its mode is %04o)", perm)
	case dir && mode&0o300 != 0o300: // BusyBox unzip creates it with this mode, even 0
		return fmt.Sprintf("a directory's mode must let its owner write and enter it (u+wx; its mode is %04o)", perm)
	case mode&0o022 != 0:
		return fmt.Sprintf("an entry may not be writable by its group or others (g+w, o+w; its mode is %04o)", perm)
	case !dir && mode&0o400 == 0:
		return fmt.Sprintf("a file's mode must let its owner read it (u+r; its mode is %04o)", perm)
	case isRoot(name) && perm != rootMode: // bsdtar sets the mode of the directory it extracts into
		return fmt.Sprintf("the archive's root may not change the mode of the directory it is extracted into: its mode must be %04o (it is %04o)", rootMode, perm)
	}
	return ""
}

// isRoot reports a name of the archive's root: . or ./ alone.
func isRoot(name string) bool { return name == "./" || name == "." }

// commentRule checks a comment (the archive's or an entry's), which
// unzip, 7-Zip and zipinfo print to terminals and CI logs: printable ASCII
// and line feeds only, no line that starts with "::" (a GitHub Actions
// workflow command).
func commentRule(comment []byte) string {
	for i, c := range comment {
		if (c < 0x20 || c > 0x7e) && c != '\n' {
			return fmt.Sprintf("holds the byte 0x%02x at %d: a comment may hold printable ASCII and line feeds only (unzip and 7-Zip "+
				"print it to the terminal)", c, i)
		}
	}
	for line := range strings.SplitSeq(string(comment), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "::") {
			return "has a line that starts with \"::\", which a CI log (GitHub Actions) runs as a workflow command"
		}
	}
	return ""
}

// needlessZip64 is the rule for ZIP64 records where no value needs them:
// BusyBox unzip reads no ZIP64, so the language has it only where nothing
// else can be.
const needlessZip64 = "has a ZIP64 record, but every value fits in 32 bits (ZIP64 is accepted only where needed: BusyBox unzip does not read it)"

// centralSizes resolves a central record's sizes and offset from its ZIP64
// record: each 32-bit field that is 0xffffffff is in the record, in the
// order size, compressed size, offset, and the record holds those only.
func centralSizes(usize, csize, offset *int64, z64 []byte) string {
	fields := 0
	for _, f := range []*int64{usize, csize, offset} {
		if *f != max32 {
			continue
		}
		if len(z64) < 8*(fields+1) {
			return "a 32-bit field of its central record is 0xffffffff, but its ZIP64 record does not give it"
		}
		*f = int64(binary.LittleEndian.Uint64(z64[8*fields:]))
		if *f < 0 {
			return "its ZIP64 record's values are out of range"
		}
		fields++
	}
	switch {
	case z64 != nil && fields == 0:
		return "its central record has a ZIP64 record, but none of its fields is 0xffffffff"
	case z64 != nil && *usize < max32 && *csize < max32 && *offset < max32:
		return needlessZip64
	case len(z64) != 8*fields:
		return fmt.Sprintf("its central record's ZIP64 record holds %d bytes where it needs %d", len(z64), 8*fields)
	}
	return ""
}
