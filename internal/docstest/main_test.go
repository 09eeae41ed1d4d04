package docstest

import (
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestMain runs the tests, then removes the provider binary that
// TestExamplesAsWritten validates the examples with (providertest.Built). Every
// test here drives the CLI and finds it first (providertest.Path), never
// downloading one.
func TestMain(m *testing.M) { providertest.Main(m) }
