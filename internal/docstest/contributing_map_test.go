package docstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mapPath is a file name of the test-file map, with any {a,b} groups.
var mapPath = regexp.MustCompile(`^[A-Za-z0-9_./{},]+\.go$`)

// TestContributingMapsEveryProviderTestFile: the map of the provider's
// test files in CONTRIBUTING.md ("The provider's tests") lists every test
// file under internal/provider, and nothing else: a file added, moved or
// removed without the map fails here.
func TestContributingMapsEveryProviderTestFile(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	raw, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(raw), "### The provider's tests")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	var mapped []string
	for _, field := range strings.Fields(block) {
		if mapPath.MatchString(field) {
			mapped = append(mapped, expandBraces(field)...)
		}
	}
	if len(mapped) < 20 {
		t.Fatalf("the map lists %d files: the pattern no longer finds them", len(mapped))
	}
	dir := filepath.Join(root, "internal", "provider")
	var present []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == "testdata" {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(rel, "_test.go") || filepath.Dir(rel) == "providertest" {
			present = append(present, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range present {
		if !slices.Contains(mapped, f) {
			t.Errorf("internal/provider/%s is not in CONTRIBUTING.md's map of the provider's tests", f)
		}
	}
	for _, f := range mapped {
		if !slices.Contains(present, f) {
			t.Errorf("CONTRIBUTING.md's map names internal/provider/%s, which does not exist", f)
		}
	}
}

// expandBraces expands each {a,b} group of a path, as a shell does.
func expandBraces(p string) []string {
	open := strings.Index(p, "{")
	if open < 0 {
		return []string{p}
	}
	end := strings.Index(p[open:], "}") + open
	var all []string
	for _, alt := range strings.Split(p[open+1:end], ",") {
		all = append(all, expandBraces(p[:open]+alt+p[end+1:])...)
	}
	return all
}
