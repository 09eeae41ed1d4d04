// Package provider is the Mintlify provider's public constructor, for its
// own binary and for bridges that serve plugin-framework providers in other
// tools: Pulumi's Terraform bridge (pf) and Crossplane's upjet. Everything
// else of the provider is internal.
package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/provider"

	internal "github.com/mintlify/terraform-provider-mintlify/internal/provider"
)

// New returns a constructor for the Mintlify provider at the given release
// version, as providerserver.Serve and the bridges take it.
func New(version string) func() provider.Provider {
	return internal.New(version)
}
