package provider

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The compiler keeps most of the layout: core cannot import a family,
// since every family imports core. What it cannot see is checked here, and
// fails closed: a folder under internal/provider is core, providertest,
// testdata or a family of the provider's list (Families), and nothing
// else; a family imports no other family, nor this package; a family's
// tests import no test support but providertest and the stand-in; and
// every file of a family has its role (familyRoles, familyStems), the same
// in every family, as CONTRIBUTING.md's recipe ("Adding a resource
// family") shows.

const (
	moduleRoot = "github.com/mintlify/terraform-provider-mintlify"
	modulePath = moduleRoot + "/internal/provider"
)

// TestPackageLayout checks the folders of internal/provider, what each
// family imports and which file of a family holds what (familyRoles,
// familyStems).
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
			checkFamilyFiles(t, name)
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

// familyRoles are the files of a family that serve all its types, each with
// its role; a family has those it needs.
var familyRoles = map[string]string{
	"family.go":      "the registration: Family()",
	"calls.go":       "the API operations and their texts: every core.APIOperation constructor and core.APICall",
	"log.go":         "the log's messages and field names, and the helpers that log",
	"fields.go":      "the model fields and conversions the family's types share",
	"wait.go":        "the family's waits",
	"validators.go":  "the validators the family's types share",
	"diagnostics.go": "the diagnostics the family's types share",
}

// familyStems names, for each family, the file stem of each type it serves
// (a resource, data source, ephemeral resource or action), with the type's
// Go name. <stem>.go holds the type's schema and CRUD, <stem>_plan.go its
// ModifyPlan (or <stem>.go), <stem>_delete.go a large Delete, and
// <stem>_<topic>.go the rest of the type.
var familyStems = map[string]map[string]string{
	"agentjob": {
		"agent_job":             "agentJobResource",
		"agent_job_data_source": "agentJobDataSource",
		"agent_job_action":      "agentJobAction",
	},
	"automation": {
		"automation_run":        "automationRunResource",
		"automation_run_action": "automationRunAction",
	},
	"deployment": {
		"deployment":             "deploymentResource",
		"deployment_data_source": "deploymentDataSource",
		"deployment_action":      "deploymentAction",
		"preview":                "previewDeploymentResource",
	},
	"staticexport": {
		"bundle":           "staticExportBundleResource",
		"bundle_ephemeral": "staticExportBundleEphemeralResource",
		"archive":          "staticExportArchiveResource",
		"job_data_source":  "staticExportJobDataSource",
	},
}

// typeMethods are the methods of a type that sit in its <stem>.go: its
// schema and CRUD. ModifyPlan and Delete may sit elsewhere (planFiles,
// deleteFiles).
var typeMethods = []string{"Metadata", "Schema", "Create", "Read", "Update", "Delete", "Invoke", "Open", "Renew", "Close"}

// layoutRecipe points at the recipe that lists the roles.
const layoutRecipe = `CONTRIBUTING.md, "Adding a resource family", lists which file holds what`

// checkFamilyFiles fails when a file of family is outside its roles, when a
// type serves from a stem that familyStems does not declare, or when a
// type's methods or an API operation sit in another file than their role's.
func checkFamilyFiles(t *testing.T, family string) {
	t.Helper()
	stems, ok := familyStems[family]
	if !ok {
		t.Errorf("family %s declares no file stems: add its types to familyStems in internal/provider/layout_test.go "+
			"(%s)", family, layoutRecipe)
		return
	}
	for _, f := range Families() {
		if f.Name != family {
			continue
		}
		for _, typ := range goTypesOf(f) {
			if !slices.Contains(slices.Collect(mapValues(stems)), typ) {
				t.Errorf("family %s serves %s, which has no stem in familyStems (internal/provider/layout_test.go): "+
					"declare one and put its schema and CRUD in <stem>.go (%s)", family, typ, layoutRecipe)
			}
		}
	}
	names, err := filepath.Glob(filepath.Join(family, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	fset := token.NewFileSet()
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = f
	}
	for _, p := range layoutProblems(family, files, stems) {
		t.Error(p)
	}
}

// mapValues yields the values of m.
func mapValues(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// goTypesOf lists the Go names of the types f serves.
func goTypesOf(f core.Family) []string {
	var values []any
	for _, r := range f.Resources {
		values = append(values, r())
	}
	for _, d := range f.DataSources {
		values = append(values, d())
	}
	for _, e := range f.EphemeralResources {
		values = append(values, e())
	}
	for _, a := range f.Actions {
		values = append(values, a())
	}
	var names []string
	for _, v := range values {
		typ := reflect.TypeOf(v)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		names = append(names, typ.Name())
	}
	return names
}

// layoutProblems lists the files of family (by base name, tests included)
// that are outside its roles, and the declarations of its production files
// that sit outside their role's file; stems maps each type's stem to its Go
// name.
func layoutProblems(family string, files map[string]*ast.File, stems map[string]string) []string {
	l := familyLayout{family: family, stemOf: map[string]string{}}
	for stem, typ := range stems {
		l.stemOf[typ] = stem
		l.stems = append(l.stems, stem)
	}
	for role := range familyRoles {
		l.roles = append(l.roles, role)
	}
	slices.Sort(l.stems)
	slices.Sort(l.roles)
	names := slices.Sorted(maps.Keys(files))
	var problems []string
	for _, name := range names {
		if fileRole(name, l.stems) == "" {
			problems = append(problems, fmt.Sprintf("%s is outside the family's roles: rename it to one of %v, "+
				"to <stem>.go or <stem>_<topic>.go for a stem of %v (its tests: <name>_test.go beside the file they test), "+
				"or declare a new type's stem in familyStems (%s)", l.where(name), l.roles, l.stems, layoutRecipe))
		}
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, decl := range files[name].Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				problems = append(problems, l.funcProblems(name, d)...)
			case *ast.GenDecl:
				problems = append(problems, l.valueProblems(name, d)...)
			}
		}
	}
	return problems
}

// familyLayout is what layoutProblems knows of a family: its stems (and
// the stem of each type's Go name) and the role files.
type familyLayout struct {
	family       string
	stems, roles []string
	stemOf       map[string]string
}

// where is the path of a file of the family.
func (l familyLayout) where(file string) string { return "internal/provider/" + l.family + "/" + file }

// funcProblems reports a function of file name outside its role's file: an
// API operation constructor outside calls.go, or a type's schema, CRUD or
// plan outside the file of its stem.
func (l familyLayout) funcProblems(name string, d *ast.FuncDecl) []string {
	if d.Recv == nil {
		if returnsAPIOperation(d) && name != "calls.go" {
			return []string{fmt.Sprintf("%s declares %s, an API operation constructor: move it to %s, which holds %s (%s)",
				l.where(name), d.Name.Name, l.where("calls.go"), familyRoles["calls.go"], layoutRecipe)}
		}
		return nil
	}
	typ := receiverName(d)
	stem, ok := l.stemOf[typ]
	if !ok {
		return nil
	}
	allowed := methodFiles(d.Name.Name, stem)
	if allowed == nil || slices.Contains(allowed, name) {
		return nil
	}
	role := "the schema and CRUD of " + typ + " (a large Delete may sit in " + stem + "_delete.go)"
	if d.Name.Name == "ModifyPlan" {
		role = "the plan of " + typ + " (or " + stem + ".go)"
	}
	return []string{fmt.Sprintf("%s declares %s.%s: move it to %s, which holds %s (%s)",
		l.where(name), typ, d.Name.Name, l.where(allowed[0]), role, layoutRecipe)}
}

// valueProblems reports an API call's texts (a core.APICall literal)
// declared outside calls.go.
func (l familyLayout) valueProblems(name string, d *ast.GenDecl) []string {
	if name == "calls.go" {
		return nil
	}
	var problems []string
	for _, spec := range d.Specs {
		v, ok := spec.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for i, value := range v.Values {
			if lit, ok := value.(*ast.CompositeLit); ok && isCoreType(lit.Type, "APICall") {
				problems = append(problems, fmt.Sprintf("%s declares %s, an API call's texts: move it to %s, "+
					"which holds %s (%s)", l.where(name), v.Names[i].Name, l.where("calls.go"),
					familyRoles["calls.go"], layoutRecipe))
			}
		}
	}
	return problems
}

// fileRole is the role file or the stem that file (a base name) belongs to,
// or "" when it belongs to none. A test file belongs where the file it
// tests would: <role>[_<topic>]_test.go, <stem>[_<topic>]_test.go, or
// main_test.go.
func fileRole(file string, stems []string) string {
	base, isTest := strings.CutSuffix(file, "_test.go")
	if !isTest {
		base = strings.TrimSuffix(file, ".go")
	}
	if isTest && base == "main" {
		return "main_test.go"
	}
	if _, ok := familyRoles[base+".go"]; ok {
		return base + ".go"
	}
	if isTest {
		for role := range familyRoles {
			if strings.HasPrefix(base, strings.TrimSuffix(role, ".go")+"_") {
				return role
			}
		}
	}
	owner := ""
	for _, stem := range stems {
		if (base == stem || strings.HasPrefix(base, stem+"_")) && len(stem) > len(owner) {
			owner = stem
		}
	}
	return owner
}

// methodFiles lists the files where a method of a type with stem may sit,
// the first one preferred, or nil when any <stem>_<topic>.go will do.
func methodFiles(method, stem string) []string {
	switch {
	case method == "ModifyPlan":
		return []string{stem + "_plan.go", stem + ".go"}
	case method == "Delete":
		return []string{stem + ".go", stem + "_delete.go"}
	case slices.Contains(typeMethods, method):
		return []string{stem + ".go"}
	}
	return nil
}

// receiverName is the name of the type of d's receiver.
func receiverName(d *ast.FuncDecl) string {
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if ident, ok := typ.(*ast.Ident); ok {
		return ident.Name
	}
	return ""
}

// returnsAPIOperation reports whether d returns a core.APIOperation alone.
func returnsAPIOperation(d *ast.FuncDecl) bool {
	results := d.Type.Results
	return results != nil && len(results.List) == 1 && len(results.List[0].Names) <= 1 &&
		isCoreType(results.List[0].Type, "APIOperation")
}

// isCoreType reports whether expr names core.<name>.
func isCoreType(expr ast.Expr, name string) bool {
	sel, ok := expr.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "core"
}

// TestPackageLayoutCheckerNamesStrayFiles: the check of a family's files
// fails on a file outside the roles, a type's method outside its
// <stem>.go and an API operation outside calls.go, naming each with where
// it goes, and passes on the same family laid out by the roles.
func TestPackageLayoutCheckerNamesStrayFiles(t *testing.T) {
	t.Parallel()
	stems := map[string]string{"widget": "widgetResource", "widget_action": "widgetAction"}
	parse := func(sources map[string]string) map[string]*ast.File {
		files := map[string]*ast.File{}
		fset := token.NewFileSet()
		for name, src := range sources {
			f, err := parser.ParseFile(fset, name, "package widget\n"+src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files[name] = f
		}
		return files
	}
	good := map[string]string{
		"family.go":                "func Family() {}",
		"calls.go":                 "var callGetWidget = core.APICall{}\nfunc GetWidgetOp() core.APIOperation { return core.APIOperation{} }",
		"widget.go":                "func (r *widgetResource) Metadata() {}\nfunc (r *widgetResource) Create() {}",
		"widget_delete.go":         "func (r *widgetResource) Delete() {}",
		"widget_plan.go":           "func (r *widgetResource) ModifyPlan() {}",
		"widget_history.go":        "func (r *widgetResource) remember() {}",
		"widget_action.go":         "func (a *widgetAction) Invoke() {}",
		"widget_action_test.go":    "",
		"wait_entry_linux_test.go": "",
		"main_test.go":             "",
	}
	if problems := layoutProblems("widget", parse(good), stems); len(problems) > 0 {
		t.Fatalf("a family laid out by the roles fails the check:\n%s", strings.Join(problems, "\n"))
	}
	bad := map[string]string{
		"family.go":  "func Family() {}",
		"widget.go":  "func (r *widgetResource) Metadata() {}",
		"handoff.go": "func (r *widgetResource) Delete() {}",
		"widget_wait.go": "func (r *widgetResource) Create() {}\nfunc (r *widgetResource) ModifyPlan() {}\n" +
			"var callGetWidget = core.APICall{}",
		"widget_calls.go":   "func GetWidgetOp(id string) core.APIOperation { return core.APIOperation{} }",
		"interrupt_test.go": "",
	}
	problems := layoutProblems("widget", parse(bad), stems)
	for _, want := range []string{
		"internal/provider/widget/handoff.go is outside the family's roles",
		"internal/provider/widget/interrupt_test.go is outside the family's roles",
		"internal/provider/widget/handoff.go declares widgetResource.Delete: move it to internal/provider/widget/widget.go",
		"internal/provider/widget/widget_wait.go declares widgetResource.Create: move it to internal/provider/widget/widget.go",
		"internal/provider/widget/widget_wait.go declares widgetResource.ModifyPlan: move it to " +
			"internal/provider/widget/widget_plan.go",
		"internal/provider/widget/widget_wait.go declares callGetWidget, an API call's texts: move it to " +
			"internal/provider/widget/calls.go",
		"internal/provider/widget/widget_calls.go declares GetWidgetOp, an API operation constructor: move it to " +
			"internal/provider/widget/calls.go",
	} {
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, want) }) {
			t.Errorf("no problem starts with %q; the check found:\n%s", want, strings.Join(problems, "\n"))
		}
	}
	if len(problems) != 7 {
		t.Errorf("the check found %d problems, want 7:\n%s", len(problems), strings.Join(problems, "\n"))
	}
	for _, p := range problems {
		if !strings.Contains(p, layoutRecipe) {
			t.Errorf("%q does not point at the recipe", p)
		}
	}
}
