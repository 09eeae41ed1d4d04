package deployment

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// How a preview is adopted and identified: import by the status id of its
// latest deployment, and the identity that follows it.

// ImportState adopts the preview of a deployment: by `STATUS_ID`, by
// `PROJECT_ID/STATUS_ID`, or by identity. The first read takes `branch`
// from the deployment's commit ref; the first plan that changes an argument
// after the import takes `branch` and `triggers` from configuration,
// without deploying.
func (r *previewDeploymentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	projectID, statusID := "", req.ID
	if req.ID == "" {
		var identity previewDeploymentIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		projectID, statusID = identity.ProjectID.ValueString(), identity.StatusID.ValueString()
	} else if p, s, named := strings.Cut(req.ID, "/"); named {
		projectID, statusID = p, s
	}
	if statusID == "" || strings.Contains(statusID, "/") {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("%q is not a preview deployment to import. Import as `STATUS_ID`, the `statusId` that "+
				"triggering the preview answered (the `id` of the resource that deployed it), for example "+
				"`terraform import mintlify_preview_deployment.docs 6650f1c2a0b1c2d300000001`.", req.ID))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), statusID)...)
	if projectID != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, core.PathProjectID, projectID)...)
	}
	resp.Diagnostics.Append(setPreviewIdentity(ctx, resp.Identity, projectID, statusID)...)
}

// previewGoneWarning tells that a refresh got 404 for the deployment in
// state, which stays as it was last seen.
func previewGoneWarning(projectID, statusID string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Preview Deployment No Longer Found",
		fmt.Sprintf("The Mintlify API answered 404 for the preview deployment %s of project %s. The state keeps "+
			"it as it was last seen and deploys nothing by itself: a change of `triggers` deploys the preview "+
			"again. To stop tracking it, run `terraform state rm` with the resource's address.", statusID, projectID))
}

// setPreviewIdentity records the preview's identity, where the framework
// asks for one (identity is nil for a Terraform without identity support).
func setPreviewIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, projectID, statusID string) diag.Diagnostics {
	if identity == nil || statusID == "" {
		return nil
	}
	return identity.Set(ctx, previewDeploymentIdentityModel{ProjectID: optionalString(projectID), StatusID: types.StringValue(statusID)})
}
