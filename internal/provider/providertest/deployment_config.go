package providertest

import (
	"fmt"
)

// DeploymentResourceConfig is the resource named "docs", with extra
// arguments.
func DeploymentResourceConfig(extra string) string {
	return fmt.Sprintf(`
resource "mintlify_deployment" "docs" {
  %s
}
`, extra)
}
