package deployment

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
	_ action.Action               = (*deploymentAction)(nil)
	_ action.ActionWithConfigure  = (*deploymentAction)(nil)
	_ action.ActionWithModifyPlan = (*deploymentAction)(nil)
)

// NewDeploymentAction returns the mintlify_deployment action.
func NewDeploymentAction() action.Action {
	return &deploymentAction{core.ProjectAction{Doing: "Triggering a deployment"}}
}

type deploymentAction struct {
	core.ProjectAction
}

type deploymentActionModel struct {
	ProjectID         types.String `tfsdk:"project_id"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	Timeout           types.String `tfsdk:"timeout"`
}

func (m *deploymentActionModel) ProjectInputs() (projectID, timeout types.String) {
	return m.ProjectID, m.Timeout
}

func (a *deploymentAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deployment"
}

func (a *deploymentAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Deploys a Mintlify project's docs site from its deployment branch, once, when the " +
			"action is invoked, and reports its progress. It records nothing in state.",
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The Mintlify project to deploy. Defaults to the provider's `project_id` (or `" +
					core.Env.ProjectID + "`).",
				Optional:   true,
				Validators: core.ProjectIDValidators,
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Wait until the deployment is `success` or `failure`, reporting its progress. " +
					"With `false`, the action ends once the deployment is triggered. Defaults to `true`.",
				Optional: true,
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "How long to wait for the deployment. Defaults to `" +
					core.FormatDuration(defaultDeploymentWaitTimeout) + "`.",
				Optional:   true,
				Validators: []validator.String{core.Durations.Operation},
			},
		},
	}
}

func (a *deploymentAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	call, ok := core.BeginInvoke[deploymentActionModel](ctx, &a.ProjectAction, defaultDeploymentWaitTimeout, req, resp)
	defer call.Cancel()
	if !ok {
		return
	}
	m, projectID := call.Plan, call.ProjectID
	ctx, progress := core.WithProgress(call.Ctx, resp)
	client := a.Provider.Client

	statusID, err := client.TriggerDeployment(ctx, projectID)
	if err != nil {
		resp.Diagnostics.Append(TriggerDeploymentOp(projectID).Diagnostic(err))
		return
	}
	progress("Triggered deployment %s of project %s.", statusID, projectID)
	if !m.WaitForCompletion.IsNull() && !m.WaitForCompletion.ValueBool() {
		progress("Not waiting for deployment %s (wait_for_completion = false): it goes on; read it with the "+
			"mintlify_deployment data source.", statusID)
		return
	}
	b := call.Budget
	follow := fmt.Sprintf("Follow the deployment with the `mintlify_deployment` data source (`id = %q`, "+
		"`wait_for_completion = true`).", statusID)
	onChange, leftOut := deploymentProgress(progress)
	done, diags := handoffsOf(a.Provider).wait(ctx, client, historyKey(projectID), projectID, statusID, deploymentWait{Budget: b, Resume: follow,
		Retry: follow, Longer: takesLonger(b, "deployments"), Unknown: fmt.Sprintf("Follow the deployment in the Mintlify dashboard, or with the "+
			"`mintlify_deployment` data source (`id = %q`).", statusID),
		Failed:   "Fix the cause in the docs repository, then invoke the action again to deploy again.",
		OnChange: onChange,
	}, foretold{fresh: true})
	leftOut(statusID)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	progress("Deployment %s %s: commit %s (%s).", done.ID, done.Status, orUnknown(done.Commit.SHA), orUnknown(done.Summary))
}

// progressLogLines is how many log lines of a deployment one invocation
// of the action reports as progress, at most.
const progressLogLines = 200

// deploymentProgress reports each change of a deployment that a wait
// sees: a new status, and the log lines past the furthest one reported
// before. A log line is reported once, by its place in the log: when the
// API rewrites the log (shorter, or the same lines again), only lines
// beyond the furthest place seen are new. At most progressLogLines lines
// are reported; leftOut, called once the wait ends, reports in one line
// how many more there were.
func deploymentProgress(progress func(string, ...any)) (onChange func(mintlify.Deployment), leftOut func(statusID string)) {
	var status string
	var seen, reported int // the furthest place in the log seen, and the lines reported
	onChange = func(d mintlify.Deployment) {
		if d.Status != status {
			status = d.Status
			progress("Deployment %s is now %s.", d.ID, d.Status)
		}
		for ; seen < len(d.Logs); seen++ {
			if reported < progressLogLines {
				progress("Deployment %s: %s", d.ID, d.Logs[seen])
				reported++
			}
		}
	}
	leftOut = func(statusID string) {
		if n := seen - reported; n > 0 {
			progress("Deployment %s: %d more log lines not shown (only the first %d are); the Mintlify dashboard "+
				"shows them all.", statusID, n, progressLogLines)
		}
	}
	return onChange, leftOut
}

// orUnknown is s, or "unknown" when the API sent nothing.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
