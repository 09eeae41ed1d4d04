package agentjob

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	datasourceschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// agentJobSourceTypes are the attributes of `source`.
var agentJobSourceTypes = map[string]attr.Type{
	"repository": types.StringType,
	"ref":        types.StringType,
}

// agentJobFields are the attributes that an agent job fills, the same in
// the mintlify_agent_job resource and data source, which embed them in their
// models. Nullable API fields stay null.
type agentJobFields struct {
	Status     types.String `tfsdk:"status"`
	Source     types.Object `tfsdk:"source"`
	Model      types.String `tfsdk:"model"`
	PRLink     types.String `tfsdk:"pr_link"`
	CreatedAt  types.String `tfsdk:"created_at"`
	ArchivedAt types.String `tfsdk:"archived_at"`
}

// agentJobFieldDescriptions describe the fields, in both schemas.
var agentJobFieldDescriptions = map[string]string{
	"status":            "The job's status when last read: " + core.BacktickList(mintlify.AgentJobStatuses) + "." + core.UndocumentedStatus,
	"source":            "The repository the agent works on.",
	"source.repository": "The full URL of the repository.",
	"source.ref":        "The branch the agent works on, or `null` when the API does not name one.",
	"model":             "The AI model the job uses, such as `sonnet`.",
	"pr_link": "The pull request the agent opened, or `null` while the job is `active` or when it changed no " +
		"file.",
	"created_at":  "When the job was created, in RFC 3339 format.",
	"archived_at": "When the job was archived, in RFC 3339 format, or `null`.",
}

// set copies an agent job into the fields.
func (f *agentJobFields) set(job *mintlify.AgentJob) diag.Diagnostics {
	source, diags := types.ObjectValue(agentJobSourceTypes, map[string]attr.Value{
		"repository": types.StringValue(job.Source.Repository),
		"ref":        types.StringPointerValue(job.Source.Ref),
	})
	f.Status = types.StringValue(job.Status)
	f.Source = source
	f.Model = types.StringValue(job.Model)
	f.PRLink = types.StringPointerValue(job.PRLink)
	f.CreatedAt = types.StringValue(job.CreatedAt.UTC().Format(time.RFC3339))
	f.ArchivedAt = types.StringNull()
	if job.ArchivedAt != nil {
		f.ArchivedAt = types.StringValue(job.ArchivedAt.UTC().Format(time.RFC3339))
	}
	return diags
}

// MarkChanging plans new values for what a job still active changes.
func (f *agentJobFields) MarkChanging() {
	f.Status, f.Model, f.PRLink, f.ArchivedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	f.Source = types.ObjectUnknown(agentJobSourceTypes)
}

// agentJobStringFields are the fields that are plain strings.
var agentJobStringFields = []string{"status", "model", "pr_link", "created_at", "archived_at"}

// agentJobResourceFields are the fields' attributes in the resource's
// schema, kept from state while a plan does not change them.
func agentJobResourceFields() map[string]resourceschema.Attribute {
	attrs := map[string]resourceschema.Attribute{
		"source": resourceschema.SingleNestedAttribute{
			MarkdownDescription: agentJobFieldDescriptions["source"],
			Computed:            true,
			PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
			Attributes: map[string]resourceschema.Attribute{
				"repository": resourceschema.StringAttribute{MarkdownDescription: agentJobFieldDescriptions["source.repository"], Computed: true},
				"ref":        resourceschema.StringAttribute{MarkdownDescription: agentJobFieldDescriptions["source.ref"], Computed: true},
			},
		},
	}
	for _, name := range agentJobStringFields {
		attrs[name] = resourceschema.StringAttribute{MarkdownDescription: agentJobFieldDescriptions[name], Computed: true, PlanModifiers: core.KeepString}
	}
	return attrs
}

// agentJobDataSourceFields are the fields' attributes in the data source's
// schema.
func agentJobDataSourceFields() map[string]datasourceschema.Attribute {
	attrs := map[string]datasourceschema.Attribute{
		"source": datasourceschema.SingleNestedAttribute{
			MarkdownDescription: agentJobFieldDescriptions["source"],
			Computed:            true,
			Attributes: map[string]datasourceschema.Attribute{
				"repository": datasourceschema.StringAttribute{MarkdownDescription: agentJobFieldDescriptions["source.repository"], Computed: true},
				"ref":        datasourceschema.StringAttribute{MarkdownDescription: agentJobFieldDescriptions["source.ref"], Computed: true},
			},
		},
	}
	for _, name := range agentJobStringFields {
		attrs[name] = datasourceschema.StringAttribute{MarkdownDescription: agentJobFieldDescriptions[name], Computed: true}
	}
	return attrs
}
