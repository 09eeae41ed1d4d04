package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// TestRefreshOfUnchangedJobChangesNothing: a model read back from state and
// refreshed with the same job is the same model, so Read skips the
// framework's costly write-back; a job that moved on is not.
func TestRefreshOfUnchangedJobChangesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var schemaResp resource.SchemaResponse
	NewStaticExportBundleResource().Schema(ctx, resource.SchemaRequest{}, &schemaResp)
	typ := schemaResp.Schema.Type().TerraformType(ctx)
	state := tfsdk.State{Schema: schemaResp.Schema, Raw: tftypes.NewValue(typ, nil)}

	job := &mintlify.StaticExportJob{JobID: "se_1", Status: mintlify.StatusCompleted, Progress: 100, PageCount: 42,
		CreatedAt: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	var written staticExportBundleModel
	written.Domain = types.StringValue("docs.example.com")
	written.Paths = types.ListNull(types.StringType)
	written.Triggers = types.MapValueMust(types.StringType, map[string]attr.Value{"docs_commit": types.StringValue("abc")})
	timeoutsType, ok := schemaResp.Schema.Attributes["timeouts"].GetType().(timeouts.Type)
	if !ok {
		t.Fatalf("timeouts has type %T", schemaResp.Schema.Attributes["timeouts"].GetType())
	}
	written.Timeouts = timeouts.Value{Object: types.ObjectNull(timeoutsType.AttrTypes)}
	written.setJob(job)
	written.ReadyForRenewal = types.BoolValue(false)
	if diags := state.Set(ctx, &written); diags.HasError() {
		t.Fatal(diags)
	}
	// The state reaches Read as MessagePack, as Terraform sends it.
	wire, err := tfprotov6.NewDynamicValue(typ, state.Raw)
	if err != nil {
		t.Fatal(err)
	}
	if state.Raw, err = wire.Unmarshal(typ); err != nil {
		t.Fatal(err)
	}
	var read staticExportBundleModel
	if diags := state.Get(ctx, &read); diags.HasError() {
		t.Fatal(diags)
	}
	refreshed := read
	refreshed.setJob(job)
	if !sameValues(&refreshed, &read) {
		t.Errorf("refreshing with the same job changed the model:\n%+v\n%+v", refreshed, read)
	}
	job.Progress = 99.5
	refreshed.setJob(job)
	if sameValues(&refreshed, &read) {
		t.Error("a job whose progress changed compares equal")
	}
}
