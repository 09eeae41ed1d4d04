//go:build ecosystem

package docstest

import "github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"

func init() {
	// TestExamplesAsWritten initialises and validates the examples that use
	// helm too, with the real helm provider.
	helmExamplesCLI = providertest.BuiltCLIWithHelm
}
