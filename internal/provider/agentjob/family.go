// Package agentjob is the agent job family: the resource, data source and
// action of the jobs of Mintlify's documentation agent.
package agentjob

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// Family is what the agent job family serves.
func Family() core.Family {
	return core.Family{
		Name:        "agentjob",
		Resources:   []func() resource.Resource{NewAgentJobResource},
		DataSources: []func() datasource.DataSource{NewAgentJobDataSource},
		Actions:     []func() action.Action{NewAgentJobAction},
		Calls:       []core.APICall{callCreateAgentJob, callGetAgentJob, callSendAgentJobMessage},
	}
}
