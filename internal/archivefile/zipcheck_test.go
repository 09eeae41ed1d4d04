package archivefile_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestZipOfToolsAccepted checks that the ZIPs real tools write
// (testdata/tools/*.zip: Info-ZIP zip, bsdtar, 7-Zip, Python's zipfile,
// git archive) are in the language, with their entries counted.
func TestZipOfToolsAccepted(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "tools", "*.zip"))
	if len(names) == 0 {
		t.Fatal("no ZIP in testdata/tools")
	}
	c := newChecker(t, t.TempDir())
	for _, name := range names {
		archive, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := c.check(archive)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if entries < 3 {
			t.Errorf("%s: %d entries, want at least 3", name, entries)
		}
		if got := c.f.Summary().Format; got != "zip" {
			t.Errorf("%s: format %q, want zip", name, got)
		}
	}
}
