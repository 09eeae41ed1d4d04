// Package provider is the Terraform-facing half of the Mintlify provider:
// the provider itself (package core, with what every family shares) and
// the list of its families, one package per API area. Every API call goes
// through internal/mintlify.
package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/agentjob"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/automation"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/deployment"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/staticexport"
)

// Families are the provider's API areas, in the order Terraform lists their
// types.
func Families() []core.Family {
	return []core.Family{staticexport.Family(), agentjob.Family(), automation.Family(), deployment.Family()}
}

// New returns a constructor for the provider at the given release version.
func New(version string) func() provider.Provider {
	return NewOnClock(version, clock.Real())
}

// NewOnClock is New with every wait, timeout and timestamp of the provider
// on c instead of the wall clock. Only tests call it: those outside this
// package (internal/docstest) run the provider in the test process on the
// fake API's virtual clock, as this package's own tests do.
func NewOnClock(version string, c clock.Clock) func() provider.Provider {
	return func() provider.Provider {
		return &core.Provider{Version: version, Clock: c, Families: Families()}
	}
}
