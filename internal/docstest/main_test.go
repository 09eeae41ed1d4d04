package docstest

import (
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
)

// TestMain runs the tests, then removes the provider binary that
// TestExamplesAsWritten validates the examples with (acctest.Built). Every
// test here drives the CLI and finds it first (acctest.Path), never
// downloading one.
func TestMain(m *testing.M) { acctest.Main(m) }
