package deployment

import (
	datasourceschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// deploymentFields are the attributes that a deployment's status fills, the
// same in the mintlify_deployment resource and data source, which embed
// them in their models. A field the API leaves out is null.
type deploymentFields struct {
	Status        types.String `tfsdk:"status"`
	Summary       types.String `tfsdk:"summary"`
	CommitSHA     types.String `tfsdk:"commit_sha"`
	CommitRef     types.String `tfsdk:"commit_ref"`
	CommitMessage types.String `tfsdk:"commit_message"`
	CreatedAt     types.String `tfsdk:"created_at"`
	EndedAt       types.String `tfsdk:"ended_at"`
	Source        types.String `tfsdk:"source"`
}

// deploymentFieldDescriptions describe the fields, in both schemas.
var deploymentFieldDescriptions = map[string]string{
	"status": "The deployment's status when last read: " + core.BacktickList(mintlify.DeploymentStatuses) + "." +
		core.UndocumentedStatus,
	"summary":        "Mintlify's one-line summary of the deployment, such as `Deployed`, or `null`.",
	"commit_sha":     "The SHA of the commit deployed, or `null` while Mintlify has not named it.",
	"commit_ref":     "The branch or ref of the commit deployed, or `null`.",
	"commit_message": "The message of the commit deployed, on one line, or `null`.",
	"created_at":     "When the deployment was created, as the API gives it (ISO 8601), or `null`.",
	"ended_at":       "When the deployment ended, as the API gives it (ISO 8601), or `null` while it runs.",
	"source":         "What started the deployment, as the API names it (such as `api`), or `null`.",
}

// deploymentStringFields are the fields' names, in schema order.
var deploymentStringFields = []string{"status", "summary", "commit_sha", "commit_ref", "commit_message",
	"created_at", "ended_at", "source"}

// set copies a deployment's status into the fields.
func (f *deploymentFields) set(d *mintlify.Deployment) {
	f.Status = optionalString(d.Status)
	f.Summary = optionalString(d.Summary)
	f.CommitSHA = optionalString(d.Commit.SHA)
	f.CommitRef = optionalString(d.Commit.Ref)
	f.CommitMessage = optionalString(d.Commit.Message)
	f.CreatedAt = optionalString(d.CreatedAt)
	f.EndedAt = optionalString(d.EndedAt)
	f.Source = optionalString(d.Source)
}

// MarkChanging plans new values for what a deployment still running
// changes.
func (f *deploymentFields) MarkChanging() {
	f.Status, f.Summary, f.EndedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	f.CommitSHA, f.CommitRef, f.CommitMessage = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
}

// optionalString is s, or null when the API sent nothing.
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// deploymentResourceFields are the fields' attributes in the resource's
// schema, kept from state while a plan does not change them.
func deploymentResourceFields() map[string]resourceschema.Attribute {
	attrs := map[string]resourceschema.Attribute{}
	for _, name := range deploymentStringFields {
		attrs[name] = resourceschema.StringAttribute{MarkdownDescription: deploymentFieldDescriptions[name],
			Computed: true, PlanModifiers: core.KeepString}
	}
	return attrs
}

// deploymentDataSourceFields are the fields' attributes in the data
// source's schema.
func deploymentDataSourceFields() map[string]datasourceschema.Attribute {
	attrs := map[string]datasourceschema.Attribute{}
	for _, name := range deploymentStringFields {
		attrs[name] = datasourceschema.StringAttribute{MarkdownDescription: deploymentFieldDescriptions[name], Computed: true}
	}
	return attrs
}

// JobStatus makes the models of a deployment and a preview ones that
// PlanResume plans (with their MarkRedeploying).
func (f *deploymentFields) JobStatus() string { return f.Status.ValueString() }
