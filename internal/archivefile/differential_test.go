//go:build unix

package archivefile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the differential tests of tar.gz and ZIP share: which extractors
// are there, the archives they run on, and how a failure is reported.

// extractorSet gathers the extractors found and the missing ones.
type extractorSet struct {
	found   []extractor
	missing []string
}

func (s *extractorSet) add(ok bool, e extractor) {
	if ok {
		s.found = append(s.found, e)
	} else {
		s.missing = append(s.missing, e.name+" ("+e.install+")")
	}
}

// announce fails the test when an extractor is missing where all are
// required (in CI), and logs which run.
func announce(t *testing.T, what string, found []extractor, missing []string) {
	t.Helper()
	if len(missing) > 0 && requireExtractors() {
		t.Fatalf("the %s differential test needs all its extractors in CI (CI=true or MINTLIFY_REQUIRE_EXTRACTORS=1); missing: %s",
			what, strings.Join(missing, ", "))
	}
	var names []string
	for _, e := range found {
		names = append(names, e.name)
	}
	t.Logf("%s extractors: %s; missing: %s", what, strings.Join(names, ", "), strings.Join(missing, ", "))
}

// diffInputs passes to try the archives real tools wrote
// (testdata/tools/*ext), then count random ones that next makes, named
// noun, and returns the number of the tools' archives.
func diffInputs(t *testing.T, ext, noun string, seed uint64, count int, next func(i int) generated, try func(label string, archive []byte)) int {
	t.Helper()
	tools, _ := filepath.Glob(filepath.Join("testdata", "tools", "*"+ext))
	for _, name := range tools {
		archive, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		try(name, archive)
	}
	for i := range count {
		a := next(i)
		try(fmt.Sprintf("%s %d of seed %d (%s)", noun, i, seed, strings.Join(a.recipe, "; ")), a.archive)
	}
	return len(tools)
}

// failures reports the archives a differential test found mishandled,
// each saved for replay, and stops the test at the fifth.
type failures struct {
	t    *testing.T
	seed uint64
	ext  string
	n    int
}

func (f *failures) report(label string, archive []byte, entries int, problems []string) {
	f.t.Helper()
	saved := filepath.Join(os.TempDir(), fmt.Sprintf("archive-diff-%d-%d%s", f.seed, f.n, f.ext))
	if os.WriteFile(saved, archive, 0o600) != nil {
		saved = "(not saved)"
	}
	f.t.Errorf("%s, saved as %s, accepted by the check with %d entries:\n  %s",
		label, saved, entries, strings.Join(problems, "\n  "))
	if f.n++; f.n == 5 {
		f.t.Fatal("stopping after 5 failed archives")
	}
}
