package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// resourceFamilies are the prefixes of the files that belong to one
// resource (with its data source, action or ephemeral twin). Every other
// file of the package is shared: the provider, the plan→apply contract,
// diagnostics, timeouts, validators.
// A preview is a deployment of a branch, read and waited for as one: the
// two share their status fields and their wait.
var resourceFamilies = map[string]string{
	"static_export_bundle":  "static_export_bundle",
	"static_export_archive": "static_export_archive",
	"static_export_job":     "static_export_job",
	"agent_job":             "agent_job",
	"deployment":            "deployment",
	"preview_deployment":    "deployment",
	"automation_run":        "automation_run",
}

// familyOf returns the resource family of a file, or "" for a shared file.
func familyOf(file string) string {
	base := filepath.Base(file)
	for prefix, family := range resourceFamilies {
		if strings.HasPrefix(base, prefix+"_") || base == prefix+".go" {
			return family
		}
	}
	return ""
}

// TestNoFileUsesAnotherResourcesNames keeps each shared name where a
// reader looks for it: a production file of the package uses no name
// defined in the files of another resource. A name two resources need
// belongs in a shared file. The exceptions are the two registries: the
// provider's list of its resources (the New... constructors in provider.go)
// and the table of every call's texts (the ...Call values in
// diagnostic_calls.go).
func TestNoFileUsesAnotherResourcesNames(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: make(map[*ast.Ident]types.Object)}
	// Imports are empty packages: only this package's own names matter, and
	// type-checking the framework from source would take minutes.
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	typed, _ := conf.Check("provider", fset, files, info)
	var crossings []string
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != typed || obj.Parent() != typed.Scope() && !isField(obj) {
			continue // another package's name, a local, or a method
		}
		from, def := fset.Position(id.Pos()).Filename, fset.Position(obj.Pos()).Filename
		fromFamily, defFamily := familyOf(from), familyOf(def)
		if defFamily == "" || fromFamily == defFamily {
			continue
		}
		if registered(filepath.Base(from), obj.Name()) {
			continue
		}
		crossings = append(crossings, filepath.Base(from)+" uses "+obj.Name()+" of "+filepath.Base(def))
	}
	slices.Sort(crossings)
	crossings = slices.Compact(crossings)
	if len(crossings) > 0 {
		t.Errorf("move these names to a shared file (or into the resource that uses them):\n  %s", strings.Join(crossings, "\n  "))
	}
}

// registered reports a name that a registry file lists by design.
func registered(file, name string) bool {
	return file == "provider.go" && strings.HasPrefix(name, "New") ||
		file == "diagnostic_calls.go" && strings.HasSuffix(name, "Call")
}

// emptyImporter imports every package as an empty one.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	pkg := types.NewPackage(path, filepath.Base(path))
	pkg.MarkComplete()
	return pkg, nil
}

func isField(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && v.IsField()
}
