// Package deployment is the deployment family: the deployment resource,
// data source and action, and the preview deployment resource (a
// deployment of a branch, read and waited for as one).
package deployment

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// Family is what the deployment family serves.
func Family() core.Family {
	return core.Family{
		Name:        "deployment",
		Resources:   []func() resource.Resource{NewPreviewDeploymentResource, NewDeploymentResource},
		DataSources: []func() datasource.DataSource{NewDeploymentDataSource},
		Actions:     []func() action.Action{NewDeploymentAction},
		Calls:       []core.APICall{callTriggerDeployment, callGetDeployment, CallTriggerPreview},
	}
}
