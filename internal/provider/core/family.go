package core

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Family is one API area of the provider (static export, agent jobs,
// deployments, automations): the types it serves and the API calls they
// make. Each family package exports its Family; the provider collects them.
// CONTRIBUTING.md ("Adding a resource family") lists what else a family
// registers, each checked by a test.
type Family struct {
	// Name is the family's package name.
	Name               string
	Resources          []func() resource.Resource
	DataSources        []func() datasource.DataSource
	EphemeralResources []func() ephemeral.EphemeralResource
	Actions            []func() action.Action
	// Calls are the API operations the family's types make, each with its
	// diagnostics' text.
	Calls []APICall
}

// collect lists what every family of families has of one kind.
func collect[T any](families []Family, of func(Family) []T) []T {
	var all []T
	for _, f := range families {
		all = append(all, of(f)...)
	}
	return all
}
