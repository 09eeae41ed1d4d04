package provider

import (
	"go/types"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// maxCoreNames bounds core's exported top-level names: core holds what the
// families share, and a name that one family uses lives in that family.
const maxCoreNames = 60

// rootUses are the core names whose user is the provider itself, this
// package, rather than the families, and why. Provider is the provider
// (schema, Configure, the list of types): this package builds it from
// Families(), and providertest, which may not import this package, serves
// it to every family's tests; so it lives in core, where both reach it.
// Each family is served through it (its Configure hands every type its
// ProviderData), so it counts as used by all of them.
var rootUses = map[string]string{
	"Provider": "the provider itself, which serves every family",
}

// TestCoreSurface lists core's exported top-level names with the families
// that use each, and fails on a name that fewer than two use, or when core
// has more than maxCoreNames. A family uses a name when its production code
// names it, selects a field or method of a value of its type, or holds a
// value that has one (see coreTypeNames).
func TestCoreSurface(t *testing.T) {
	t.Parallel()
	var families []string
	for _, f := range Families() {
		families = append(families, f.Name)
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax}
	pkgs, err := packages.Load(cfg, append([]string{modulePath + "/core"}, prefixed(families)...)...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the packages do not load")
	}
	core := pkgs[0].Types
	users := map[string][]string{}
	for _, p := range pkgs[1:] {
		for name := range coreNamesUsed(p.TypesInfo, core) {
			users[name] = append(users[name], p.Name)
		}
	}
	var exported []string
	for _, name := range core.Scope().Names() {
		if token := core.Scope().Lookup(name); token.Exported() {
			exported = append(exported, name)
		}
	}
	var table strings.Builder
	for _, name := range exported {
		u := users[name]
		if why, ok := rootUses[name]; ok {
			u = append([]string{"provider: " + why}, families...)
		}
		table.WriteString("\n  " + name + ": " + strings.Join(u, ", "))
		if len(u) < 2 {
			t.Errorf("core.%s is used by %d families (%s): a name that one family uses lives in that family, and "+
				"a name that none uses goes", name, len(u), strings.Join(u, ", "))
		}
	}
	t.Logf("core exports %d names:%s", len(exported), table.String())
	if len(exported) > maxCoreNames {
		t.Errorf("core exports %d names, at most %d", len(exported), maxCoreNames)
	}
}

// prefixed is the import paths of the families.
func prefixed(families []string) []string {
	paths := make([]string, len(families))
	for i, f := range families {
		paths[i] = modulePath + "/" + f
	}
	return paths
}

// coreNamesUsed is the set of core's top-level names that the code of info
// uses: by name, through a field or method, or by holding a value.
func coreNamesUsed(info *types.Info, core *types.Package) map[string]bool {
	used := map[string]bool{}
	note := func(typ types.Type) {
		for _, name := range coreTypeNames(typ, core) {
			used[name] = true
		}
	}
	for _, obj := range info.Uses {
		if obj.Pkg() != core {
			continue
		}
		if obj.Parent() == core.Scope() {
			used[obj.Name()] = true
		}
		note(obj.Type())
	}
	for _, sel := range info.Selections {
		note(sel.Recv())
		if fn, ok := sel.Obj().(*types.Func); ok {
			if recv := fn.Signature().Recv(); recv != nil {
				note(recv.Type())
			}
		}
	}
	for _, tv := range info.Types {
		note(tv.Type)
	}
	return used
}

// coreTypeNames names the named types of core that a value of type typ
// holds: typ itself, what it points to, its elements and type arguments,
// the exported fields of a struct of core, and the parameters and results
// of a function.
func coreTypeNames(typ types.Type, core *types.Package) []string {
	names := map[string]bool{}
	seen := map[types.Type]bool{}
	var walk func(types.Type)
	walk = func(typ types.Type) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		switch t := typ.(type) {
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Signature:
			for v := range t.Params().Variables() {
				walk(v.Type())
			}
			for v := range t.Results().Variables() {
				walk(v.Type())
			}
		case *types.Named:
			obj := t.Origin().Obj()
			if obj.Pkg() != core || obj.Parent() != core.Scope() {
				return
			}
			names[obj.Name()] = true
			for arg := range t.TypeArgs().Types() {
				walk(arg)
			}
			if st, ok := t.Underlying().(*types.Struct); ok {
				for field := range st.Fields() {
					if field.Exported() {
						walk(field.Type())
					}
				}
			}
		}
	}
	walk(typ)
	return slices.Sorted(maps.Keys(names))
}
