package core

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TrackedJob is what the model of every resource that tracks one job in a
// project (an agent job, a deployment, a preview) has: the arguments that
// place and bound it, and the job's id. The models embed it.
type TrackedJob struct {
	// Inputs
	ProjectID         types.String   `tfsdk:"project_id"`
	Triggers          types.Map      `tfsdk:"triggers"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`

	// Computed
	ID types.String `tfsdk:"id"`
}

// ProjectInputs are the job's project and timeouts (BeginCreate, BeginRead,
// BeginResume).
func (m *TrackedJob) ProjectInputs() (*types.String, timeouts.Value) {
	return &m.ProjectID, m.Timeouts
}

// Waits is `wait_for_completion` (PlanResume).
func (m *TrackedJob) Waits() bool { return m.WaitForCompletion.ValueBool() }

// JobIdentitySchema is the identity of a job in a project: `project_id`,
// which an import may leave out (projectDescription says what it then
// defaults to), and the job's id, in the attribute idName.
func JobIdentitySchema(projectDescription, idName, idDescription string) identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project_id": identityschema.StringAttribute{Description: projectDescription, OptionalForImport: true},
			idName:       identityschema.StringAttribute{Description: idDescription, RequiredForImport: true},
		},
	}
}
