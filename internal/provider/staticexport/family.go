// Package staticexport is the static export family: the bundle resource
// and its ephemeral twin, the archive resource, and the job data source.
package staticexport

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// Family is what the static export family serves.
func Family() core.Family {
	return core.Family{
		Name:               "staticexport",
		Resources:          []func() resource.Resource{NewStaticExportBundleResource, NewStaticExportArchiveResource},
		DataSources:        []func() datasource.DataSource{NewStaticExportJobDataSource},
		EphemeralResources: []func() ephemeral.EphemeralResource{NewStaticExportBundleEphemeralResource},
		Calls: []core.APICall{callStartStaticExport, callGetStaticExportJob, callGenerateBundle, callStartProjectExport,
			callGetProjectExportJob},
	}
}
