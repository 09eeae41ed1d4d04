package providertest

import (
	"strings"
	"testing"
)

// CLIContract declares that t is in the CLI-contract tier: it checks what
// a Terraform or OpenTofu CLI does differently, so the compatibility
// matrix runs it under every CLI, where every other test runs once, under
// the newest Terraform. types name the types whose lifecycle t walks, as
// "resource.mintlify_deployment", "data.…", "ephemeral.…" or "action.…",
// in string literals: tools/compat and the tier's checker read them from
// the source (internal/testtier). Call it as a statement of the test's own
// body.
func CLIContract(t testing.TB, types ...string) {
	t.Helper()
	for _, typ := range types {
		kind, name, ok := strings.Cut(typ, ".")
		if !ok || !strings.HasPrefix(name, "mintlify_") || !knownKind(kind) {
			t.Fatalf("CLIContract: %q is not a type address such as \"resource.mintlify_deployment\"", typ)
		}
	}
}

func knownKind(kind string) bool {
	switch kind {
	case "resource", "data", "ephemeral", "action":
		return true
	}
	return false
}
