package docstest

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestEveryExampleFolderIsOneConfiguration: every folder under examples/
// that holds .tf files is one configuration a user can run as it is (one
// terraform block, nothing declared twice), and examples/README.md says
// what it shows. TestExamplesAsWritten validates the files themselves.
func TestEveryExampleFolderIsOneConfiguration(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	index, err := os.ReadFile(filepath.Join(root, "examples", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string][]string{}
	err = walkFiles(root, "examples", ".tf", func(rel string) error {
		folders[path.Dir(rel)] = append(folders[path.Dir(rel)], rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(folders) < 20 {
		t.Fatalf("only %d example folders found", len(folders))
	}
	for dir, files := range folders {
		link := "(" + strings.TrimPrefix(dir, "examples/") + ")"
		if !strings.Contains(string(index), link) {
			t.Errorf("examples/README.md does not say what %s shows: add a row linking %s", dir, link)
		}
		for _, problem := range configurationProblems(t, root, files) {
			t.Errorf("%s is not one configuration: %s", dir, problem)
		}
	}
}

// configurationProblems lists what keeps files from being one
// configuration: more than one terraform block, or a block declared twice.
func configurationProblems(t *testing.T, root string, files []string) []string {
	t.Helper()
	seen := map[string]string{}
	var problems []string
	for _, rel := range files {
		raw, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		file, diags := hclsyntax.ParseConfig(raw, rel, hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", rel, diags.Error())
		}
		body, ok := file.Body.(*hclsyntax.Body)
		if !ok {
			t.Fatalf("%s: not native HCL syntax", rel)
		}
		for _, block := range body.Blocks {
			key := declaration(block)
			if key == "" {
				continue
			}
			if first, dup := seen[key]; dup {
				problems = append(problems, key+" is declared in "+first+" and in "+rel)
			}
			seen[key] = rel
		}
	}
	sort.Strings(problems)
	return problems
}

// declaration names what a block declares, which a configuration may hold
// once; "" for blocks that may repeat (locals, import, moved, check).
func declaration(b *hclsyntax.Block) string {
	switch b.Type {
	case "terraform":
		return "a terraform block"
	case "resource", "data", "ephemeral", "action", "variable", "output", "module", "provider":
		if b.Type == "provider" && providerAlias(b) != "" {
			return "provider " + strings.Join(b.Labels, " ") + " alias " + providerAlias(b)
		}
		return b.Type + " " + strings.Join(b.Labels, ".")
	}
	return ""
}

// providerAlias is a provider block's alias, or "".
func providerAlias(b *hclsyntax.Block) string {
	attr, ok := b.Body.Attributes["alias"]
	if !ok {
		return ""
	}
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return "?"
	}
	return v.AsString()
}
