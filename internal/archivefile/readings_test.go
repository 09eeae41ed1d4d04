package archivefile_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// checkAs runs the check as the resource does for a job whose contract
// promises format ("" for either).
func checkAs(t *testing.T, format string, archive []byte) error {
	t.Helper()
	f, err := archivefile.Create(t.TempDir()+"/bundle", archivefile.Options{Format: format})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Discard() }()
	_, err = f.ReadFrom(bytes.NewReader(archive))
	return err
}

// plainTarGz is a site as GNU tar writes it.
func plainTarGz(tail func(w *rawTar)) []byte {
	var w rawTar
	w.entry(header{name: "index.html", typ: '0'}, []byte("<h1>Docs</h1>"))
	if tail != nil {
		tail(&w)
	}
	w.end()
	return gz(w.bytes())
}

// unixFile is a ZIP entry as Info-ZIP zip writes a file on Unix.
func unixFile(name string, data []byte) zEntry {
	return zEntry{name: name, data: data, madeBy: 3 << 8, external: 0o100644 << 16}
}

// tarInZip is a ZIP whose first 512 bytes pass a tar header's checksum.
func tarInZip(signed bool) []byte {
	a := &zArchive{}
	withTarChecksum(a, signed)
	return a.bytes()
}

// isoInZip is a ZIP whose first entry's data holds an ISO 9660 volume
// descriptor at byte 32768.
func isoInZip() []byte { return (&zArchive{entries: []zEntry{isoEntry()}}).bytes() }

// zipEndInGzipExtra is a tar.gz whose gzip header's extra field holds a
// ZIP end record's signature.
func zipEndInGzipExtra() []byte {
	var w rawTar
	w.entry(header{name: "index.html", typ: '0'}, []byte("<h1>Docs</h1>"))
	w.end()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Extra = []byte("AB\x04\x00PK\x05\x06")
	_, _ = zw.Write(w.bytes())
	_ = zw.Close()
	return out.Bytes()
}

// TestOneReading checks that an archive with a second reading, or of
// another format than the contract's, is refused naming what was found,
// and that a plain archive of each format is accepted.
func TestOneReading(t *testing.T) {
	t.Parallel()
	zipSite := (&zArchive{entries: []zEntry{unixFile("index.html", []byte("<h1>Docs</h1>"))}}).bytes()
	cases := []struct {
		name, format string
		archive      []byte
		reason       string // "" for accepted
	}{
		{"a plain tar.gz, promised", archivefile.FormatTarGz, plainTarGz(nil), ""},
		{"a plain ZIP, promised", archivefile.FormatZip, zipSite, ""},
		{"a ZIP where a tar.gz is promised", archivefile.FormatTarGz, zipSite,
			"its first bytes make it a ZIP, where the export's contract promises a tar.gz"},
		{"a tar.gz where a ZIP is promised", archivefile.FormatZip, plainTarGz(nil),
			"its first bytes make it a tar.gz (gzip-compressed tar), where the export's contract promises a ZIP"},
		{"neither, where a tar.gz is promised", archivefile.FormatTarGz, []byte("<html>"),
			"its first bytes make it neither a tar.gz nor a ZIP"},
		{"a ZIP that is a tar (unsigned checksum)", archivefile.FormatZip, tarInZip(false),
			"its first 512 bytes pass a tar header's checksum"},
		{"a ZIP that is a tar (signed checksum)", archivefile.FormatZip, tarInZip(true),
			"its first 512 bytes pass a tar header's checksum"},
		{"a ZIP that is an ISO 9660 image", archivefile.FormatZip, isoInZip(),
			`volume descriptor identifier "CD001" at byte 32769`},
		{"a tar.gz with a ZIP end record in its gzip header", archivefile.FormatTarGz, zipEndInGzipExtra(),
			"the archive holds a ZIP end record's signature (PK\\x05\\x06) at byte 16"},
		{"a tar.gz whose tar ends with a ZIP end record", archivefile.FormatTarGz, plainTarGz(func(w *rawTar) {
			w.entry(header{name: "starter.zip", typ: '0'}, append([]byte("PK\x05\x06"), make([]byte, 18)...))
		}), "the tar inside it holds a ZIP end record's signature (PK\\x05\\x06) at byte 1536"},
	}
	for _, magic := range []string{"BZh91AY&SY", "(\xb5/\xfd", "LZIP", "begin 644 x"} {
		var w rawTar
		w.entry(header{name: magic, typ: 'x'}, []byte(paxRecord("path", "index.html")))
		w.entry(header{name: "index.html", typ: '0'}, []byte("<h1>Docs</h1>"))
		w.end()
		cases = append(cases, struct {
			name, format string
			archive      []byte
			reason       string
		}{"a tar stream that starts with the magic " + magic, "", gz(w.bytes()), "the tar stream starts with"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := checkAs(t, tc.format, tc.archive)
			var invalid *archivefile.InvalidError
			switch {
			case tc.reason == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.reason == "":
			case !errors.As(err, &invalid) || !invalid.Unsafe():
				t.Fatalf("err = %v, want an unsafe archive", err)
			case !strings.Contains(err.Error(), tc.reason):
				t.Errorf("err = %v, want it to say %q", err, tc.reason)
			}
		})
	}
}

// TestTarChecksumReadings checks the model of how each tar reader reads
// a checksum field: every value one of them reads is a value the model
// compares the sums with.
func TestTarChecksumReadings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		field string
		want  int64 // a value some reader reads
	}{
		{"0001750\x00", 0o1750}, {"  1750 \x00", 0o1750}, {"\x001750  ", 0o1750}, {"+1750\x00\x00\x00", 0o1750},
		{"0o1_750\x00", 0o1750}, {"\x80\x00\x00\x00\x00\x03\xe8\x00", 0x3e800}, {"1750\x00abc", 0o1750},
	} {
		if !archivefile.ChecksumRead([]byte(tc.field), tc.want) {
			t.Errorf("field %q: no reader reads %d, want one to", tc.field, tc.want)
		}
	}
	if archivefile.ChecksumRead([]byte("1750abc\x00"), 0o1750) {
		t.Errorf("field %q: a reader reads %d, want none to", "1750abc\x00", 0o1750)
	}
}
