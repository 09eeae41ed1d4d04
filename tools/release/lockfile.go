package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// constraint is the version constraint a user writes for the release, as
// the docs show it: "~> 0.1.0" for 0.1.0 (before 1.0 a minor release may
// break, so patch releases only), "~> 1.2" for 1.2.0.
func (r *rehearsal) constraint() string {
	parts := strings.SplitN(r.version, ".", 3)
	if parts[0] == "0" {
		return "~> 0." + parts[1] + ".0"
	}
	return "~> " + parts[0] + "." + parts[1]
}

// lockedProvider is a provider block of .terraform.lock.hcl.
type lockedProvider struct {
	version, constraints string
	hashes               []string
}

func (p lockedProvider) equal(want lockedProvider) error {
	got, wantHashes := slices.Sorted(slices.Values(p.hashes)), slices.Sorted(slices.Values(want.hashes))
	switch {
	case p.version != want.version:
		return fmt.Errorf("the lock file holds version %q, want %q", p.version, want.version)
	case p.constraints != want.constraints:
		return fmt.Errorf("the lock file holds constraints %q, want %q", p.constraints, want.constraints)
	case !slices.Equal(got, wantHashes):
		return fmt.Errorf("the lock file holds the hashes\n  %s\nwant\n  %s",
			strings.Join(got, "\n  "), strings.Join(wantHashes, "\n  "))
	}
	return nil
}

// readLock parses a lock file, which must hold one provider: address.
func readLock(src []byte, address string) (lockedProvider, error) {
	file, diags := hclsyntax.ParseConfig(src, ".terraform.lock.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		return lockedProvider{}, diags
	}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return lockedProvider{}, fmt.Errorf("the lock file is not native HCL")
	}
	if len(body.Blocks) != 1 || body.Blocks[0].Type != "provider" || len(body.Blocks[0].Labels) != 1 ||
		body.Blocks[0].Labels[0] != address {
		return lockedProvider{}, fmt.Errorf("the lock file should hold one provider block, for %s:\n%s", address, src)
	}
	var p lockedProvider
	for name, attr := range body.Blocks[0].Body.Attributes {
		v, diags := attr.Expr.Value(nil)
		if diags.HasErrors() {
			return lockedProvider{}, diags
		}
		switch name {
		case "version":
			p.version = v.AsString()
		case "constraints":
			p.constraints = v.AsString()
		case "hashes":
			for _, h := range v.AsValueSlice() {
				p.hashes = append(p.hashes, h.AsString())
			}
		}
	}
	return p, nil
}

// requirement matches the mintlify entry of required_providers.
var requirement = regexp.MustCompile(`(?s)\bmintlify\s*=\s*\{[^{}]*\}`)

// copyQuickstart copies the .tf files of the quickstart at src to dst with
// its mintlify requirement replaced by source and constraint: what a user
// of a registry at that host writes.
func copyQuickstart(src, dst, source, constraint string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	replaced := 0
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".tf") {
			continue
		}
		hcl, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		replaced += len(requirement.FindAllIndex(hcl, -1))
		hcl = requirement.ReplaceAllLiteral(hcl, fmt.Appendf(nil, "mintlify = {\n      source  = %q\n      version = %q\n    }", source, constraint))
		if err := os.WriteFile(filepath.Join(dst, e.Name()), hcl, 0o600); err != nil {
			return err
		}
	}
	if replaced != 1 {
		return fmt.Errorf("%s should require the mintlify provider once in required_providers (`mintlify = { source = ... }`), found %d", src, replaced)
	}
	return nil
}
