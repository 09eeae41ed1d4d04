package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// releasedIdentities are the identity schemas users' states hold: each
// type's version and attributes. OpenTofu refuses a stored identity that
// lacks an attribute of the current schema, so a change of attributes
// without a new version, and an upgrade from each earlier one, breaks every
// plan of a state written before it (as `project_id` did, added to the
// bundle's identity without a version: issue 47). Changing a row means
// adding an IdentityUpgrader, and a state fixture of the earlier version.
var releasedIdentities = map[string]string{
	"mintlify_static_export_bundle": "v1 job_id project_id", // v0: job_id (9da46d7), then job_id project_id
	"mintlify_agent_job":            "v0 job_id project_id",
	"mintlify_deployment":           "v0 status_id",
	"mintlify_preview_deployment":   "v0 project_id status_id",
}

// TestIdentityChangesAreVersioned: every identity schema is the one in
// releasedIdentities, and a type above version 0 upgrades each earlier one.
func TestIdentityChangesAreVersioned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	seen := map[string]bool{}
	for _, f := range Families() {
		for _, newResource := range f.Resources {
			r := newResource()
			withIdentity, ok := r.(resource.ResourceWithIdentity)
			if !ok {
				continue
			}
			var meta resource.MetadataResponse
			r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "mintlify"}, &meta)
			var resp resource.IdentitySchemaResponse
			withIdentity.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &resp)
			names := make([]string, 0, len(resp.IdentitySchema.Attributes))
			for name := range resp.IdentitySchema.Attributes {
				names = append(names, name)
			}
			slices.Sort(names)
			got := fmt.Sprintf("v%d %s", resp.IdentitySchema.Version, strings.Join(names, " "))
			seen[meta.TypeName] = true
			if want := releasedIdentities[meta.TypeName]; got != want {
				t.Errorf("%s: identity %q, released %q: a change of attributes takes a new version and an upgrade", meta.TypeName, got, want)
			}
			upgrades, _ := r.(resource.ResourceWithUpgradeIdentity)
			for v := range resp.IdentitySchema.Version {
				if upgrades == nil || upgrades.UpgradeIdentity(ctx)[v].IdentityUpgrader == nil {
					t.Errorf("%s: no upgrade of identity version %d", meta.TypeName, v)
				}
			}
		}
	}
	for typeName := range releasedIdentities {
		if !seen[typeName] {
			t.Errorf("%s: listed, but has no identity", typeName)
		}
	}
}
