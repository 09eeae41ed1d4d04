// Package automation is the automation family: the resource and action
// that run a Mintlify automation.
package automation

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// defaultTriggerTimeout bounds a trigger call (an automation run), its turn
// within the API's rate limits and its retries included, when no timeout is
// set.
const defaultTriggerTimeout = 5 * time.Minute

// Family is what the automation family serves.
func Family() core.Family {
	return core.Family{
		Name:      "automation",
		Resources: []func() resource.Resource{NewAutomationRunResource},
		Actions:   []func() action.Action{NewAutomationRunAction},
		Calls:     []core.APICall{callTriggerAutomation, callTriggerAutomationWebhook},
	}
}
