package main

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/internal/testtier"
)

// The tiers a CLI runs: the CLI-contract tier (the tests that check what
// differs between CLIs, declared by providertest.CLIContract), or every test.
const (
	tierContract = "contract"
	tierAll      = "all"
)

// contractSet is the CLI-contract tier of some packages: test names by
// import path.
type contractSet map[string]map[string]bool

// readContractTier reads the tier of the packages pkg names (go list
// patterns), keyed by import path.
func readContractTier(pkg string) (contractSet, error) {
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}} {{.Dir}}"}, strings.Fields(pkg)...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", pkg, err)
	}
	set := contractSet{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		importPath, dir, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		tests, err := testtier.Scan(dir)
		if err != nil {
			return nil, err
		}
		for _, t := range tests {
			if set[importPath] == nil {
				set[importPath] = map[string]bool{}
			}
			set[importPath][t.Name] = true
		}
	}
	return set, nil
}

// has tells whether the top-level test of key ("<package> <test>") is in
// the tier.
func (s contractSet) has(pkg, test string) bool {
	top, _, _ := strings.Cut(test, "/")
	return s[pkg][top]
}

// runPattern is the go test -run pattern of the tier, narrowed to the
// tests that run matches when it is not empty.
func (s contractSet) runPattern(run string) (string, error) {
	var match *regexp.Regexp
	if run != "" {
		var err error
		if match, err = regexp.Compile(run); err != nil {
			return "", fmt.Errorf("-run: %w", err)
		}
	}
	var tests []testtier.Test
	for _, names := range s {
		for name := range names {
			if match == nil || match.MatchString(name) {
				tests = append(tests, testtier.Test{Name: name})
			}
		}
	}
	if len(tests) == 0 {
		return "", fmt.Errorf("no test of the CLI-contract tier matches -run %q", run)
	}
	return testtier.RunPattern(tests), nil
}

// size is how many tests the tier holds.
func (s contractSet) size() int {
	n := 0
	for _, names := range s {
		n += len(names)
	}
	return n
}
