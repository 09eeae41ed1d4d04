package agentjob

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The log lines that people and tools read: the guides in templates/ quote
// them. Changing one changes what users read.
const (
	// LogAgentJobStarted is logged at INFO the moment the resource starts
	// an agent job, with the id to import it by, for a run that is killed
	// before the state records it (guide "Running in CI").
	LogAgentJobStarted = "Agent job started"
	// LogAgentJobStatus is logged at INFO for each change of an agent job's
	// status while the provider waits for it.
	LogAgentJobStatus = "Agent job status"
	// LogAgentJobResumed is logged at INFO when a create takes over the job
	// of the resource it replaces instead of starting one.
	LogAgentJobResumed = "Resuming the agent job of the replaced resource"
)

// logAgentJobStatus logs each new status of an agent job that a wait
// reports (mintlify.OnChange).
func logAgentJobStatus(ctx context.Context) func(mintlify.AgentJob) {
	return func(j mintlify.AgentJob) {
		tflog.Info(ctx, LogAgentJobStatus, map[string]any{"status": j.Status})
	}
}
