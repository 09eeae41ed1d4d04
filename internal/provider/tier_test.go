package provider

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/testtier"
)

// tierDirs are the packages whose tests the compatibility matrix runs:
// this one, the families' and internal/docstest.
func tierDirs(t *testing.T) []string {
	t.Helper()
	dirs, err := testtier.PackageDirs(".")
	if err != nil {
		t.Fatal(err)
	}
	return append(dirs, filepath.Join("..", "docstest"))
}

// tierProblems lists the types of families that no test of the
// CLI-contract tier walks, and the declared types that no family serves.
func tierProblems(families []core.Family, tier []testtier.Test) []string {
	walked := map[string][]string{}
	for _, test := range tier {
		for _, typ := range test.Types {
			walked[typ] = append(walked[typ], test.Name)
		}
	}
	var problems []string
	served := map[string]bool{}
	for _, f := range families {
		for _, typ := range familyTypes(f) {
			key := fixtureKey(typ)
			served[key] = true
			if len(walked[key]) == 0 {
				problems = append(problems, fmt.Sprintf("%s (family %s) has no lifecycle test in the CLI-contract tier, so "+
					"no CLI but the newest Terraform would run it: declare one with providertest.CLIContract(t, %q)", key, f.Name, key))
			}
		}
	}
	for typ, tests := range walked {
		if !served[typ] {
			problems = append(problems, fmt.Sprintf("%s declare %s, which no family serves", strings.Join(tests, ", "), typ))
		}
	}
	slices.Sort(problems)
	return problems
}

// TestContractTierCoversEveryType: every resource, data source, ephemeral
// resource and action has a lifecycle test in the CLI-contract tier, which
// the compatibility matrix runs under every CLI.
func TestContractTierCoversEveryType(t *testing.T) {
	t.Parallel()
	tier, err := testtier.ScanAll(tierDirs(t)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range tierProblems(Families(), tier) {
		t.Error(p)
	}
	t.Logf("the CLI-contract tier holds %d tests", len(tier))
}

// TestContractTierCheckerNamesAMissingType: a type whose lifecycle tests
// all leave the tier fails the check, which names the type and the
// declaration to add.
func TestContractTierCheckerNamesAMissingType(t *testing.T) {
	t.Parallel()
	tier, err := testtier.ScanAll(tierDirs(t)...)
	if err != nil {
		t.Fatal(err)
	}
	const gone = "resource.mintlify_deployment"
	var without []testtier.Test
	for _, test := range tier {
		test.Types = slices.DeleteFunc(slices.Clone(test.Types), func(typ string) bool { return typ == gone })
		without = append(without, test)
	}
	problems := tierProblems(Families(), without)
	want := `resource.mintlify_deployment (family deployment) has no lifecycle test in the CLI-contract tier, so no CLI ` +
		`but the newest Terraform would run it: declare one with providertest.CLIContract(t, "resource.mintlify_deployment")`
	if len(problems) != 1 || problems[0] != want {
		t.Errorf("problems = %q, want only %q", problems, want)
	}
}
