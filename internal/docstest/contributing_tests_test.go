package docstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// testNameInBackticks is a test that prose names: `TestX`, `TestX/subtest`,
// `…/subtest` (another subtest of the test named just before), or
// `TestXPrefix...` (any test whose name begins so).
var testNameInBackticks = regexp.MustCompile("`((?:Test[A-Za-z0-9_]+|…)(?:/[^`]+|\\.\\.\\.)?)`")

// testFunc is the declaration of a top-level test in a _test.go file.
var testFunc = regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]+)\(`)

// TestContributingNamesOnlyTestsThatExist: every test that CONTRIBUTING.md
// names, above all in "Guarantees and the tests that hold them", is a
// `func TestX(` of a _test.go file in the repository, whatever its build
// tags; a subtest it names appears, in quotes, in the file of its test (Go
// writes the spaces of a subtest's name as underscores). A test renamed or
// removed without CONTRIBUTING.md fails here, not in a reader's search.
func TestContributingNamesOnlyTestsThatExist(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	defined, err := testFuncs(root)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := testNameInBackticks.FindAllStringSubmatch(string(raw), -1)
	if len(named) < 50 {
		t.Fatalf("CONTRIBUTING.md names %d tests: the pattern no longer finds them", len(named))
	}
	previous := ""
	for _, m := range named {
		name, sub, hasSub := strings.Cut(m[1], "/")
		switch {
		case name == "…" && previous == "":
			t.Errorf("`%s` follows no named test", m[1])
			continue
		case name == "…":
			name = previous
		case strings.HasSuffix(name, "..."):
			if !anyWithPrefix(defined, strings.TrimSuffix(name, "...")) {
				t.Errorf("CONTRIBUTING.md names `%s`, and no test begins so", m[1])
			}
			continue
		}
		previous = name
		file, ok := defined[name]
		switch {
		case !ok:
			t.Errorf("CONTRIBUTING.md names `%s`, and no _test.go file declares func %s", m[1], name)
		case hasSub && !namesSubtest(filepath.Join(root, file), sub):
			t.Errorf("CONTRIBUTING.md names `%s`, and %s has no subtest %q", m[1], file, sub)
		}
	}
}

// testFuncs maps each top-level test declared in a _test.go file under
// root to its file, relative to root.
func testFuncs(root string) (map[string]string, error) {
	defined := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = rel
		}
		return nil
	})
	return defined, err
}

func anyWithPrefix(defined map[string]string, prefix string) bool {
	for name := range defined {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// namesSubtest reports whether the test file at path has the subtest sub
// in quotes, as a t.Run or a table entry writes its name.
func namesSubtest(path, sub string) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	text := string(src)
	return strings.Contains(text, `"`+sub+`"`) || strings.Contains(text, `"`+strings.ReplaceAll(sub, "_", " ")+`"`)
}
