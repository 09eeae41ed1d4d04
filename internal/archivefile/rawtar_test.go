package archivefile_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strconv"
)

// rawTar writes tar archives block by block, header bytes included, so that
// a test can build what archive/tar refuses to write: stacked extended
// headers, V7 headers with a prefix, sparse entries, bad checksums, data
// after the end marker.
type rawTar struct {
	buf bytes.Buffer
	// headers are the offsets of the header blocks written so far, for
	// mutations.
	headers []int
}

// header is one 512-byte tar header, before its checksum is computed.
type header struct {
	name, link, prefix string
	typ                byte
	size               int64
	mode               int64
	format             string // "ustar" (the default), "gnu" or "v7"
	// style spells the numbers as another tar would: 0 as GNU tar, 1
	// with leading spaces and a space, 2 filling the field with no
	// terminator, 3 with a signed checksum, 4 a checksum of 7 digits.
	style int
}

// block returns h as a 512-byte header block with its checksum.
func (h header) block() []byte {
	b := make([]byte, 512)
	copy(b[0:100], h.name)
	mode := h.mode
	if mode == 0 {
		mode = 0o644
		if h.typ == '5' {
			mode = 0o755
		}
	}
	for _, f := range []struct {
		field []byte
		v     int64
	}{{b[100:108], mode}, {b[108:116], 0}, {b[116:124], 0}, {b[124:136], h.size}, {b[136:148], 1700000000}} {
		switch h.style {
		case 1:
			copy(f.field, fmt.Sprintf("%*o \x00", len(f.field)-2, f.v))
		case 2:
			copy(f.field, fmt.Sprintf("%0*o", len(f.field), f.v))
		default:
			octal(f.field, f.v)
		}
	}
	b[156] = h.typ
	copy(b[157:257], h.link)
	switch h.format {
	case "gnu":
		copy(b[257:265], "ustar  \x00")
		copy(b[345:500], h.prefix) // where GNU keeps its times, and some readers a prefix
	case "v7":
		copy(b[345:500], h.prefix) // text where ustar has its prefix
	default:
		copy(b[257:265], "ustar\x0000")
		copy(b[345:500], h.prefix)
	}
	if h.format != "v7" {
		copy(b[265:297], "root")
		copy(b[297:329], "root")
	}
	setChecksum(b)
	switch h.style {
	case 3:
		copy(b[148:156], "        ")
		sum := 0
		for _, c := range b {
			sum += int(int8(c))
		}
		copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum&0o777777))
	case 4:
		copy(b[148:156], fmt.Sprintf("%07o\x00", checksumOf(b)))
	}
	return b
}

// checksumOf is a header's checksum, its field read as spaces.
func checksumOf(b []byte) int {
	sum := 0
	for i, c := range b {
		if 148 <= i && i < 156 {
			c = ' '
		}
		sum += int(c)
	}
	return sum
}

// octal writes v as a NUL-terminated octal number filling field.
func octal(field []byte, v int64) {
	s := strconv.FormatInt(v, 8)
	for len(s) < len(field)-1 {
		s = "0" + s
	}
	copy(field, s)
	field[len(field)-1] = 0
}

// setChecksum computes a header block's checksum into its field.
func setChecksum(b []byte) {
	copy(b[148:156], "        ")
	sum := 0
	for _, c := range b {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
}

// entry writes a header and its body, padded to a block.
func (w *rawTar) entry(h header, body []byte) {
	if h.size == 0 && len(body) > 0 {
		h.size = int64(len(body))
	}
	w.headers = append(w.headers, w.buf.Len())
	w.buf.Write(h.block())
	w.data(body)
}

// data writes body padded to a whole number of blocks.
func (w *rawTar) data(body []byte) {
	w.buf.Write(body)
	if pad := len(body) % 512; pad != 0 {
		w.buf.Write(make([]byte, 512-pad))
	}
}

// pax writes an extended header (typ 'x' or 'g') with the records, in order.
func (w *rawTar) pax(typ byte, records ...[2]string) {
	var body []byte
	for _, r := range records {
		body = append(body, paxRecord(r[0], r[1])...)
	}
	w.entry(header{name: "PaxHeaders/x", typ: typ, size: int64(len(body))}, body)
}

// paxRecord formats one "length key=value\n" record.
func paxRecord(k, v string) string {
	rest := " " + k + "=" + v + "\n"
	n := len(rest) + 1
	for len(strconv.Itoa(n))+len(rest) != n {
		n++
	}
	return strconv.Itoa(n) + rest
}

// gnuLong writes a GNU long name ('L') or long link ('K') header.
func (w *rawTar) gnuLong(typ byte, name string) {
	body := []byte(name + "\x00")
	w.entry(header{name: "././@LongLink", typ: typ, size: int64(len(body)), format: "gnu"}, body)
}

// end writes the end marker: two zero blocks.
func (w *rawTar) end() { w.buf.Write(make([]byte, 1024)) }

// bytes returns the archive so far.
func (w *rawTar) bytes() []byte { return w.buf.Bytes() }

// gz compresses tarball into one gzip member, or into several, split at
// the offsets given, as gzip(1) reads them one after the other.
func gz(tarball []byte, splits ...int) []byte {
	var out bytes.Buffer
	start := 0
	for _, end := range append(splits, len(tarball)) {
		end = min(max(end, start), len(tarball))
		zw := gzip.NewWriter(&out)
		_, _ = zw.Write(tarball[start:end])
		_ = zw.Close()
		start = end
	}
	return out.Bytes()
}
