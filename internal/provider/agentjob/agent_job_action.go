package agentjob

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var (
	_ action.Action               = (*agentJobAction)(nil)
	_ action.ActionWithConfigure  = (*agentJobAction)(nil)
	_ action.ActionWithModifyPlan = (*agentJobAction)(nil)
)

// NewAgentJobAction returns the mintlify_agent_job action.
func NewAgentJobAction() action.Action {
	return &agentJobAction{core.ProjectAction{Doing: "Running the agent"}}
}

type agentJobAction struct {
	core.ProjectAction
}

type agentJobActionModel struct {
	// Required
	Prompt types.String `tfsdk:"prompt"`
	// Optional
	ProjectID         types.String `tfsdk:"project_id"`
	JobID             types.String `tfsdk:"job_id"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	Timeout           types.String `tfsdk:"timeout"`
}

func (m *agentJobActionModel) ProjectInputs() (projectID, timeout types.String) {
	return m.ProjectID, m.Timeout
}

func (a *agentJobAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (a *agentJobAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs the Mintlify documentation agent on a prompt, once, when the action is invoked, " +
			"and reports its progress. It records nothing in state.",
		Attributes: map[string]schema.Attribute{
			// Required
			"prompt": schema.StringAttribute{
				MarkdownDescription: "What the agent should do, such as `Document the changes of release 2.3`.",
				Required:            true,
				Validators:          []validator.String{core.NotBlank("Write what the agent should do, such as \"Document the new CLI flags\".")},
			},

			// Optional
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project to run the agent in. Defaults to the provider's `project_id`.",
				Optional:            true,
				Validators:          core.ProjectIDValidators,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "An existing agent job to send `prompt` to as a follow-up message, instead of " +
					"starting a new job. The agent works on it in the same branch and pull request.",
				Optional:   true,
				Validators: []validator.String{core.NotBlank("Set it to the ID of an agent job of the project, or remove it to start a new job.")},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the job ends, reporting its progress. Defaults to `true`.",
				Optional:            true,
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "How long to wait for the job. Defaults to `30m`.",
				Optional:            true,
				Validators:          []validator.String{core.Durations.Operation},
			},
		},
	}
}

func (a *agentJobAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	call, ok := core.BeginInvoke[agentJobActionModel](ctx, &a.ProjectAction, defaultAgentWaitTimeout, req, resp)
	defer call.Cancel()
	if !ok {
		return
	}
	m, projectID := call.Plan, call.ProjectID
	ctx, progress := core.WithProgress(call.Ctx, resp)
	client := a.Provider.Client

	job, ok := a.start(ctx, m, projectID, progress, resp)
	if !ok {
		return
	}
	if !m.WaitForCompletion.IsNull() && !m.WaitForCompletion.ValueBool() {
		progress("Not waiting for agent job %s (wait_for_completion = false): it runs on; read it with the "+
			"mintlify_agent_job data source.", job.ID)
		return
	}
	b := call.Budget
	follow := fmt.Sprintf("Follow the job with the `mintlify_agent_job` data source (`id = %q`, "+
		"`wait_for_completion = true`).", job.ID)
	done, diags := waitForAgentJob(ctx, client, projectID, job.ID, job, agentWait{Budget: b, Resume: follow, Retry: follow,
		Longer: agentTakesLonger(b),
		Unknown: fmt.Sprintf("Follow the job in the Mintlify dashboard, or with the `mintlify_agent_job` data source "+
			"(`id = %q`).", job.ID),
		Failed: fmt.Sprintf("Fix the cause, then invoke the action again: with `job_id = %q` it sends the prompt "+
			"to the same job as a follow-up, without it it starts a new job.", job.ID),
		OnChange: func(j mintlify.AgentJob) { progress("Agent job %s is now %s.", j.ID, j.Status) },
	})
	resp.Diagnostics.Append(diags...)
	switch {
	case diags.HasError():
		return
	case done.PRLink != nil:
		progress("Agent job %s %s: pull request %s", done.ID, done.Status, *done.PRLink)
	default:
		progress("Agent job %s %s without changes: the agent opened no pull request.", done.ID, done.Status)
	}
}

// start starts a new agent job, or sends a follow-up message to the
// configured one, and reports it. ok is false when it failed, with the
// diagnostic in resp.
func (a *agentJobAction) start(ctx context.Context, m agentJobActionModel, projectID string, progress func(string, ...any), resp *action.InvokeResponse) (job *mintlify.AgentJob, ok bool) {
	client := a.Provider.Client
	var err error
	if id := m.JobID.ValueString(); id != "" {
		job, err = client.SendAgentJobMessage(ctx, projectID, id, m.Prompt.ValueString())
		if err != nil {
			resp.Diagnostics.Append(SendAgentJobMessageOp(projectID, id).Diagnostic(err))
			return nil, false
		}
		progress("Sent the prompt to agent job %s in project %s as a follow-up message; the job is %s.", job.ID, projectID, job.Status)
		return job, true
	}
	job, err = client.CreateAgentJob(ctx, projectID, m.Prompt.ValueString())
	if err != nil {
		resp.Diagnostics.Append(CreateAgentJobOp(projectID).Diagnostic(err))
		return nil, false
	}
	progress("Started agent job %s in project %s; the job is %s.", job.ID, projectID, job.Status)
	return job, true
}
