// Package testtier reads which tests are in the CLI-contract tier.
//
// Most acceptance tests check what the provider does, which is the same
// under every Terraform and OpenTofu release: they run once, under the
// newest Terraform. A test that checks what a CLI does differently (plan
// and apply semantics, refresh-only, import and identity, ephemeral
// resources, write-only arguments, actions, state written by each CLI,
// OpenTofu's differences, the Helm chain) declares itself in the
// CLI-contract tier by calling, as a statement of its own body,
//
//	providertest.CLIContract(t, "resource.mintlify_deployment", ...)
//
// with string literals naming the types whose lifecycle it walks (block
// keyword, a dot and the type name, as in a configuration's address), or
// none when it walks no single type's lifecycle (the Helm chain, a suite
// that holds every type). The compatibility matrix (tools/compat) runs the
// tier under every CLI; the declaration is read from the source, not at
// run time, so that choosing the tests runs none of them.
package testtier

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Func is the name of the declaration, a function of internal/providertest.
const Func = "CLIContract"

// Test is one test of the CLI-contract tier.
type Test struct {
	Dir   string   // the package's directory
	File  string   // the file that declares it, relative to Dir
	Name  string   // TestXxx
	Types []string // the types whose lifecycle it walks, e.g. "resource.mintlify_deployment"
}

// Scan reads the contract tier of the package in dir: every top-level test
// function of its _test.go files (whatever their build tags) with a
// declaration among its body's statements. A declaration with an argument
// other than a string literal, or inside a nested function, is an error:
// the tier must be readable without running anything.
func Scan(dir string) ([]Test, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var tests []Test
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		found, err := scanFile(fset, f)
		if err != nil {
			return nil, err
		}
		for _, t := range found {
			t.Dir, t.File = dir, filepath.Base(path)
			tests = append(tests, t)
		}
	}
	return tests, nil
}

// ScanAll reads the contract tier of each directory.
func ScanAll(dirs ...string) ([]Test, error) {
	var all []Test
	for _, dir := range dirs {
		tests, err := Scan(dir)
		if err != nil {
			return nil, err
		}
		all = append(all, tests...)
	}
	return all, nil
}

func scanFile(fset *token.FileSet, f *ast.File) ([]Test, error) {
	var tests []Test
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
			continue
		}
		var declared *Test
		for _, stmt := range fn.Body.List {
			call := declaration(stmt)
			if call == nil {
				continue
			}
			if declared != nil {
				return nil, fmt.Errorf("%s: %s declares its tier twice", fset.Position(call.Pos()), fn.Name.Name)
			}
			types, err := literals(fset, call)
			if err != nil {
				return nil, err
			}
			declared = &Test{Name: fn.Name.Name, Types: types}
		}
		if err := noNestedDeclaration(fset, fn); err != nil {
			return nil, err
		}
		if declared != nil {
			tests = append(tests, *declared)
		}
	}
	return tests, nil
}

// declaration is the call of stmt when stmt is a declaration of the tier.
func declaration(stmt ast.Stmt) *ast.CallExpr {
	es, ok := stmt.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || !isDeclaration(call) {
		return nil
	}
	return call
}

func isDeclaration(call *ast.CallExpr) bool {
	switch fun := call.Fun.(type) {
	case *ast.Ident:
		return fun.Name == Func
	case *ast.SelectorExpr:
		return fun.Sel.Name == Func
	}
	return false
}

// literals are the type names of a declaration: its arguments after t.
func literals(fset *token.FileSet, call *ast.CallExpr) ([]string, error) {
	var types []string
	for _, arg := range call.Args[min(1, len(call.Args)):] {
		lit, ok := arg.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return nil, fmt.Errorf("%s: %s takes string literals only, so that the tier can be read from the source",
				fset.Position(arg.Pos()), Func)
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return nil, err
		}
		types = append(types, s)
	}
	return types, nil
}

// noNestedDeclaration fails on a declaration that is not a statement of
// the test's own body (in a subtest or a helper's closure), which the
// scan would not see as the test's.
func noNestedDeclaration(fset *token.FileSet, fn *ast.FuncDecl) error {
	top := map[ast.Node]bool{}
	for _, stmt := range fn.Body.List {
		if call := declaration(stmt); call != nil {
			top[call] = true
		}
	}
	var err error
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if ok && isDeclaration(call) && !top[call] && err == nil {
			err = fmt.Errorf("%s: %s must be a statement of %s's own body", fset.Position(call.Pos()), Func, fn.Name.Name)
		}
		return err == nil
	})
	return err
}

// RunPattern is the go test -run pattern of tests: their names, anchored.
func RunPattern(tests []Test) string {
	names := make([]string, 0, len(tests))
	for _, t := range tests {
		names = append(names, t.Name) // a Go identifier holds no metacharacter
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return "^(" + strings.Join(names, "|") + ")$"
}

// PackageDirs lists the directories under root (itself included) that
// hold a _test.go file.
func PackageDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), "_test.go") {
			if dir := filepath.Dir(path); !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	return dirs, err
}
