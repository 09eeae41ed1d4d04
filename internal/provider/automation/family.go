// Package automation is the automation family: the resource and action
// that run a Mintlify automation.
package automation

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// Family is what the automation family serves.
func Family() core.Family {
	return core.Family{
		Name:      "automation",
		Resources: []func() resource.Resource{NewAutomationRunResource},
		Actions:   []func() action.Action{NewAutomationRunAction},
		Calls:     []core.APICall{callTriggerAutomation},
	}
}
