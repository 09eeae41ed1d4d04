package providertest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/md5" // a checksum the provider reports, not security
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// Archives on disk.

// rfc3339 matches a timestamp as the provider writes it, in UTC.
var rfc3339 = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`)

// CheckArchiveOnDisk compares every attribute of the archive at address
// with the file at outputPath, and checks that nothing else is beside it
// (ExpectOnlyFiles).
func CheckArchiveOnDisk(address, outputPath string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[address].Primary.Attributes
		raw, err := os.ReadFile(outputPath)
		if err != nil {
			return err
		}
		sha := sha256.Sum256(raw)
		sum := md5.Sum(raw) //nolint:gosec
		format := archivefile.FormatOf(raw[:min(len(raw), 4)])
		entries, err := countEntries(raw, format)
		if err != nil {
			return fmt.Errorf("the file is not a valid %q archive: %w", format, err)
		}
		want := map[string]string{
			"id":            hex.EncodeToString(sha[:]),
			"sha256":        hex.EncodeToString(sha[:]),
			"base64sha256":  base64.StdEncoding.EncodeToString(sha[:]),
			"md5":           hex.EncodeToString(sum[:]),
			"size_bytes":    strconv.Itoa(len(raw)),
			"file_count":    strconv.Itoa(entries),
			"output_path":   outputPath,
			"format":        format,
			"downloaded_at": attrs["downloaded_at"],
		}
		for k, v := range want {
			if attrs[k] != v {
				return fmt.Errorf("%s = %q, the file on disk says %q", k, attrs[k], v)
			}
		}
		if !rfc3339.MatchString(attrs["downloaded_at"]) {
			return fmt.Errorf("downloaded_at = %q, want RFC 3339", attrs["downloaded_at"])
		}
		return ExpectOnlyFiles(filepath.Dir(outputPath), filepath.Base(outputPath))
	}
}

// countEntries reads an archive of the format its first bytes tell to its
// end and counts its entries.
func countEntries(raw []byte, format string) (int, error) {
	if format == archivefile.FormatZip {
		return countZIPEntries(raw)
	}
	gz, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return 0, err
	}
	tr := tar.NewReader(gz)
	n := 0
	for {
		if _, err := tr.Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return n, err
		}
		n++
	}
	_, err = io.Copy(io.Discard, gz)
	return n, err
}

// countZIPEntries reads every entry of a ZIP archive, checking its CRC, and
// counts them.
func countZIPEntries(raw []byte) (int, error) {
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return 0, err
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, rc)
		_ = rc.Close()
		if err != nil {
			return 0, fmt.Errorf("entry %q: %w", f.Name, err)
		}
	}
	return len(zr.File), nil
}

// ExpectOnlyFiles fails unless dir holds exactly the named files (paths
// relative to dir, in lexical order), no partial download among them,
// under any subdirectory. A dir that does not exist holds none.
func ExpectOnlyFiles(dir string, names ...string) error {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			found = append(found, rel)
		}
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if fmt.Sprint(found) != fmt.Sprint(names) {
		return fmt.Errorf("%s holds %v, want %v", dir, found, names)
	}
	return nil
}
