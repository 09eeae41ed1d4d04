package docstest

import (
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/tfcli"
)

// TestMain runs the tests, then removes the provider binary that
// TestExamplesAsWritten validates the examples with (tfcli.Built). Every
// test here drives the CLI and finds it first (tfcli.Path), never
// downloading one.
func TestMain(m *testing.M) { tfcli.Main(m) }
