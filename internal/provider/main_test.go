package provider

import (
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestMain runs the tests that cross families against the whole provider.
func TestMain(m *testing.M) { providertest.Main(m, Families()...) }
