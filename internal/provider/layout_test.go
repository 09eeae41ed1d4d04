package provider

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The compiler keeps most of the layout: core cannot import a family,
// since every family imports core. What it cannot see is checked here, and
// fails closed: a folder under internal/provider is core, providertest,
// testdata or a family of the provider's list (Families), and nothing
// else; a family imports no other family, nor this package; a family's
// tests import no test support but providertest and the stand-in.

const (
	moduleRoot = "github.com/mintlify/terraform-provider-mintlify"
	modulePath = moduleRoot + "/internal/provider"
)

// TestPackageLayout checks the folders of internal/provider and what each
// family imports.
func TestPackageLayout(t *testing.T) {
	t.Parallel()
	var families []string
	for _, f := range Families() {
		families = append(families, f.Name)
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var production []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case !e.IsDir():
			if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				production = append(production, name)
			}
		case name == "core" || name == "providertest" || name == "testdata":
		case slices.Contains(families, name):
			checkFamilyImports(t, name, families)
			checkFamilyTestImports(t, name)
		default:
			t.Errorf("internal/provider/%s is neither core, providertest nor a family of Families(): register it "+
				"there (see CONTRIBUTING.md, \"Adding a resource family\") or move it", name)
		}
	}
	if len(production) > 3 {
		t.Errorf("%d production files directly in internal/provider (%v): at most 3, the rest belongs to core or a family",
			len(production), production)
	}
	for _, dir := range []string{"core", "providertest"} {
		for _, imp := range importsOf(t, dir) {
			if imp == modulePath || slices.Contains(families, strings.TrimPrefix(imp, modulePath+"/")) {
				t.Errorf("%s imports %s: it serves every family and may import none", dir, imp)
			}
		}
	}
}

// checkFamilyImports fails when family imports another family or the
// provider's list.
func checkFamilyImports(t *testing.T, family string, families []string) {
	t.Helper()
	for _, imp := range importsOf(t, family) {
		other := strings.TrimPrefix(imp, modulePath+"/")
		if imp == modulePath || other != family && slices.Contains(families, other) {
			t.Errorf("family %s imports %s: a family imports core (and, in tests, providertest) only", family, imp)
		}
	}
}

// checkFamilyTestImports fails when the tests of family import a package of
// this module other than the test kit (providertest), the stand-in
// (internal/fakeapi, with fakeapitest, which serves it to a test, and
// contract, which checks its exchanges), the virtual clock and what the
// family itself imports.
func checkFamilyTestImports(t *testing.T, family string) {
	t.Helper()
	allowed := []string{modulePath + "/providertest", moduleRoot + "/internal/fakeapi", moduleRoot + "/internal/fakeapi/fakeapitest",
		moduleRoot + "/internal/fakeapi/contract", moduleRoot + "/internal/clock"}
	allowed = append(allowed, importsOfFiles(t, family, false)...)
	for _, imp := range importsOfFiles(t, family, true) {
		if strings.HasPrefix(imp, moduleRoot+"/") && !slices.Contains(allowed, imp) {
			t.Errorf("the tests of family %s import %s: a family's tests import the test kit (providertest), "+
				"the stand-in (internal/fakeapi and its fakeapitest and contract), the clock and what the family imports",
				family, imp)
		}
	}
}

// importsOf lists what the Go files of dir import, tests included.
func importsOf(t *testing.T, dir string) []string {
	t.Helper()
	return append(importsOfFiles(t, dir, false), importsOfFiles(t, dir, true)...)
}

// importsOfFiles lists what the test files of dir import, or its other Go
// files when tests is false.
func importsOfFiles(t *testing.T, dir string, tests bool) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, file := range all {
		if strings.HasSuffix(file, "_test.go") == tests {
			files = append(files, file)
		}
	}
	var imports []string
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			imports = append(imports, path)
		}
	}
	return imports
}
