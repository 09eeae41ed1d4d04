package fakeapi

import (
	"bytes"
	"hash/crc32"
	"testing"
)

func TestStoredWriterFraming(t *testing.T) {
	for _, n := range []int64{1, storedBlockMax - 1, storedBlockMax, storedBlockMax + 1, 3 * storedBlockMax} {
		var buf bytes.Buffer
		s := newStoredWriter(&buf, 0, 0)
		data := bytes.Repeat([]byte{'x'}, int(n))
		s.raw(data)
		if err := s.close(); err != nil {
			t.Fatal(err)
		}
		if got, want := int64(buf.Len()), storedSize(n)+gzipTrailerLen; got != want {
			t.Errorf("%d raw bytes: %d bytes written, storedSize says %d", n, got, want)
		}
		if crc := crc32.ChecksumIEEE(data); crc != s.crc {
			t.Errorf("%d raw bytes: CRC %08x, want %08x", n, s.crc, crc)
		}
	}
}
