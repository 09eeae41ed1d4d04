package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// A family registers in more places than the provider's list: its package
// (named as the family), the calls it makes (each documented in the API's
// description, with the texts of its diagnostics), and for each type a
// documentation page and an example. CONTRIBUTING.md ("Adding a resource
// family") lists them; this test checks each, for every family the
// provider serves.

// TestFamiliesAreRegistered checks every place a family registers.
func TestFamiliesAreRegistered(t *testing.T) {
	t.Parallel()
	documented := documentedOperations(t)
	for _, f := range Families() {
		t.Run(f.Name, func(t *testing.T) {
			for _, missing := range familyProblems(f, documented) {
				t.Error(missing)
			}
		})
	}
}

// TestStubFamilyIsRefused: a family registered with nothing but a resource
// fails the check, which names each missing place.
func TestStubFamilyIsRefused(t *testing.T) {
	t.Parallel()
	stub := core.Family{Name: "stub", Resources: []func() resource.Resource{
		func() resource.Resource { return stubResource{} },
	}}
	problems := strings.Join(familyProblems(stub, documentedOperations(t)), "\n")
	for _, want := range []string{
		"internal/provider/stub: no package",
		"declares no API call",
		"docs/resources/stub_thing.md",
		"examples/resources/mintlify_stub_thing",
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("the check does not name %q:\n%s", want, problems)
		}
	}
}

// documentedOperations are the operationIds of the in-repo API description.
func documentedOperations(t *testing.T) []string {
	t.Helper()
	doc, err := contract.Description()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			ids = append(ids, op.OperationID)
		}
	}
	return ids
}

// familyProblems lists what family f lacks.
func familyProblems(f core.Family, documented []string) []string {
	var problems []string
	if _, err := os.Stat(f.Name); err != nil {
		problems = append(problems, fmt.Sprintf("internal/provider/%s: no package of the family's name", f.Name))
	}
	if len(f.Calls) == 0 {
		problems = append(problems, "the family declares no API call (Family.Calls)")
	}
	for _, c := range f.Calls {
		if !slices.Contains(documented, c.OperationID) {
			problems = append(problems, fmt.Sprintf("call %s: not in the API description (internal/fakeapi/contract)", c))
		}
		if c.Text.NotFound == "" || c.Text.Forbidden.Possible == nil || c.Text.BadRequest == nil || c.Text.Conflict == nil {
			problems = append(problems, fmt.Sprintf("call %s: its diagnostics' text is incomplete (build it from core.CallOfProject)", c))
		}
	}
	for _, typ := range familyTypes(f) {
		name := strings.TrimPrefix(typ.name, "mintlify_")
		for _, p := range []string{
			filepath.Join("docs", typ.kind, name+".md"),
			filepath.Join("examples", typ.kind, typ.name),
		} {
			if _, err := os.Stat(filepath.Join("..", "..", p)); err != nil {
				problems = append(problems, fmt.Sprintf("%s %s: no %s", typ.kind, typ.name, p))
			}
		}
	}
	return problems
}

// familyType is a type a family serves: its kind (the folder of its
// documentation page) and name.
type familyType struct{ kind, name string }

// familyTypes lists the types of f.
func familyTypes(f core.Family) []familyType {
	ctx := context.Background()
	var types []familyType
	for _, r := range f.Resources {
		var resp resource.MetadataResponse
		r().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "mintlify"}, &resp)
		types = append(types, familyType{"resources", resp.TypeName})
	}
	for _, d := range f.DataSources {
		var resp datasource.MetadataResponse
		d().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "mintlify"}, &resp)
		types = append(types, familyType{"data-sources", resp.TypeName})
	}
	for _, e := range f.EphemeralResources {
		var resp ephemeral.MetadataResponse
		e().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "mintlify"}, &resp)
		types = append(types, familyType{"ephemeral-resources", resp.TypeName})
	}
	for _, a := range f.Actions {
		var resp action.MetadataResponse
		a().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "mintlify"}, &resp)
		types = append(types, familyType{"actions", resp.TypeName})
	}
	return types
}

// stubResource is a resource of a family that registered nothing else.
type stubResource struct{ resource.Resource }

func (stubResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_stub_thing"
}
