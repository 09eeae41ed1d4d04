package agentjob

import (
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestMain runs the family's tests against a provider that serves the
// family.
func TestMain(m *testing.M) { providertest.Main(m, Family()) }
