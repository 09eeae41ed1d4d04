package docstest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccExampleAutomationNightly runs the once-a-day example: the first
// apply runs the automation, another plan the same day has nothing to do,
// and the next day (plantimestamp() a day on) runs it again.
func TestAccExampleAutomationNightly(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, fakeapi.WithAutomations(fakeapi.Automation{ProjectID: providertest.ProjectID, ID: "6650f1c2a0b1c2d3e4f50617"}))
	example := readExample(t, filepath.Join("resources", "mintlify_automation_run", "nightly"), "main.tf")
	nextDay := strings.Replace(example, "plantimestamp()", `timeadd(plantimestamp(), "24h")`, 1)
	runs := func(want int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := len(env.Fake.AutomationRuns()); got != want {
				return fmt.Errorf("automation runs = %d, want %d", got, want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(example), Check: runs(1)},
			{Config: env.Config(example), PlanOnly: true},
			{Config: env.Config(nextDay), Check: runs(2)},
		},
	})
}
