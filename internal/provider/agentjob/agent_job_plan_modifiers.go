package agentjob

import (
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var replaceAgentJobUnlessImported = core.ReplaceUnlessImported{
	Marker:      "prompt",
	Description: "Changing this value starts a new agent job, except on the first plan after an import.",
}
