package deployment

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// What the resource does with a deployment that ends in `failure`. By
// default (`on_failure = "error"`) the create fails, Terraform taints the
// resource, and the next apply replaces it: a new deployment, the retry.
// With `on_failure = "record"` the failure is a warning and the state
// records the failed deployment, untainted: an apply with the same
// `triggers` plans nothing for it, a change of `triggers` deploys again in
// place (an update, which sees the prior state), and `last_success` names
// the last deployment of the resource that succeeded, so that what follows
// it (an export) can stay on that one while the latest fails.

// The values of `on_failure`.
const (
	onFailureError  = "error"
	onFailureRecord = "record"
)

var onFailureValues = []string{onFailureError, onFailureRecord}

// lastSuccessTypes are the attributes of `last_success`.
var lastSuccessTypes = map[string]attr.Type{"id": types.StringType, "commit_sha": types.StringType}

// recordsFailure reports a model whose failed deployments are recorded,
// not errors.
func (m *deploymentResourceModel) recordsFailure() bool {
	return m.OnFailure.ValueString() == onFailureRecord
}

// onFailureAttributes are the schema's `on_failure` and `last_success`.
func onFailureAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"on_failure": schema.StringAttribute{
			MarkdownDescription: "What a deployment that ends in `failure` does: " + core.BacktickList(onFailureValues) +
				". With `error` (the default), the apply fails and the resource is tainted. With " +
				"`record`, it is recorded untainted with a warning.",
			Optional:   true,
			Validators: []validator.String{stringvalidator.OneOf(onFailureValues...)},
		},
		"last_success": schema.SingleNestedAttribute{
			MarkdownDescription: "The last deployment of this resource that succeeded: its `id` and `commit_sha`, " +
				"or `null`.",
			Computed:      true,
			PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
			Attributes: map[string]schema.Attribute{
				"id":         schema.StringAttribute{MarkdownDescription: "The deployment's status ID.", Computed: true},
				"commit_sha": schema.StringAttribute{MarkdownDescription: "The SHA of the commit it deployed, or `null`.", Computed: true},
			},
		},
	}
}

// noteSuccess makes the model's deployment, as d read it, `last_success`
// when it succeeded.
func (m *deploymentResourceModel) noteSuccess(d *mintlify.Deployment) {
	if d.Status != mintlify.DeployStatusSuccess {
		return
	}
	m.LastSuccess = types.ObjectValueMust(lastSuccessTypes, map[string]attr.Value{
		"id": m.ID, "commit_sha": optionalString(d.Commit.SHA),
	})
}

// noLastSuccess is `last_success` before any deployment succeeded.
func noLastSuccess() types.Object { return types.ObjectNull(lastSuccessTypes) }

// settle records what a wait for the model's deployment learned: its
// status, `last_success` when it succeeded, and, with `on_failure =
// "record"`, a failure as a warning (the wait, whose Failed is then empty,
// reports none).
func (m *deploymentResourceModel) settle(d *mintlify.Deployment, diags *diag.Diagnostics) {
	if d == nil {
		return
	}
	m.set(d)
	m.noteSuccess(d)
	if d.Status == mintlify.DeployStatusFailure && m.recordsFailure() {
		diags.Append(recordedFailureWarning(m.ProjectID.ValueString(), d, m.LastSuccess))
	}
}

// recording makes a wait report no failure when the model records it
// (settle does).
func (m *deploymentResourceModel) recording(w deploymentWait) deploymentWait {
	if m.recordsFailure() {
		w.Failed = ""
	}
	return w
}

// recordedFailureWarning is "Deployment Failed", as a warning: the state
// records the failed deployment, and says what stays live.
func recordedFailureWarning(projectID string, d *mintlify.Deployment, last types.Object) diag.Diagnostic {
	live := "No deployment of this resource has succeeded yet, so `last_success` is `null`."
	if id, sha := lastSuccessParts(last); id != "" {
		live = fmt.Sprintf("`last_success` still names the deployment %s", id)
		if sha != "" {
			live += " of commit " + sha
		}
		live += ", which is what the site serves."
	}
	next := "The state records the failed deployment, and the resource is not tainted (`on_failure = \"record\"`): " +
		"applies with the same `triggers` trigger no other deployment. " + live + " Fix the cause in the docs " +
		"repository, then change `triggers` (such as the docs commit) to deploy again."
	failed := deploymentFailedDiagnostic(projectID, d, next)
	return diag.NewWarningDiagnostic(failed.Summary(), failed.Detail())
}

// lastSuccessParts are the id and commit of `last_success`, empty when it
// is null or unknown.
func lastSuccessParts(last types.Object) (id, commitSHA string) {
	attrs := last.Attributes()
	if s, ok := attrs["id"].(types.String); ok {
		id = s.ValueString()
	}
	if s, ok := attrs["commit_sha"].(types.String); ok {
		commitSHA = s.ValueString()
	}
	return id, commitSHA
}

// triggersReplace is the plan modifier of `triggers`: a change replaces the
// deployment (a new one, by a create), except on the first plan after an
// import (see replaceDeploymentUnlessImported) and with `on_failure =
// "record"`, where the update deploys again (see redeploys).
func triggersReplace() planmodifier.Map {
	return mapplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
		var prior types.Bool
		var mode types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathWaitForCompletion, &prior)...)
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("on_failure"), &mode)...)
		resp.RequiresReplace = !prior.IsNull() && mode.ValueString() != onFailureRecord
	}, replaceDeploymentUnlessImported.Description, replaceDeploymentUnlessImported.Description)
}

// redeploys reports an update that triggers a new deployment: a change of
// `triggers` with `on_failure = "record"`, except on the first plan after
// an import, which takes them from configuration.
func redeploys(state, plan *deploymentResourceModel) bool {
	return plan.recordsFailure() && !state.WaitForCompletion.IsNull() && !state.Triggers.Equal(plan.Triggers)
}

// MarkRedeploying shows a new deployment in the plan: its own status id
// and fields, and `last_success` unknown.
func (m *deploymentResourceModel) MarkRedeploying() {
	m.ID, m.LastSuccess = types.StringUnknown(), types.ObjectUnknown(lastSuccessTypes)
	m.MarkChanging()
	m.CreatedAt, m.Source = types.StringUnknown(), types.StringUnknown()
}
