package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The log lines that people and tools read: the guides in templates/ quote
// them, and tools/bench/e2e finds them by these names. Changing one changes
// what users read.
const (
	// LogExportProgress is logged at INFO for each change of a static
	// export job's status, progress or page count, with the job's id
	// (LogFieldJobID) and those three.
	LogExportProgress = "Static export progress"
	// LogFieldJobID names the static export job of a log line.
	LogFieldJobID = "job_id"
	// LogAgentJobStarted is logged at INFO the moment the resource starts
	// an agent job, with the id to import it by, for a run that is killed
	// before the state records it (guide "Running in CI").
	LogAgentJobStarted = "Agent job started"
	// LogAgentJobStatus is logged at INFO for each change of an agent job's
	// status while the provider waits for it.
	LogAgentJobStatus = "Agent job status"
	// LogAutomationRunQueued is logged at INFO when the resource or the
	// action has queued a run of an automation, with its ids.
	LogAutomationRunQueued = "Automation run queued"
	// LogPreviewTriggered is logged at INFO the moment the resource
	// triggers a preview deployment, with its status id and address.
	LogPreviewTriggered = "Preview deployment triggered"
	// LogDeploymentTriggered is logged at INFO the moment the resource
	// triggers a deployment, with the status id to import it by, for a run
	// that is killed before the state records it.
	LogDeploymentTriggered = "Deployment triggered"
	// LogDeploymentResumed is logged at INFO when the resource, replacing
	// a deployment whose wait a timeout or an interruption cut short,
	// waits for that same deployment instead of triggering another.
	LogDeploymentResumed = "Resuming the wait for the deployment of the replaced resource"
	// LogDeploymentStatus is logged at INFO for each new status or log line
	// of a deployment while the provider waits for it.
	LogDeploymentStatus = "Deployment status"
)

// logExportProgress logs each change of a static export job that a wait
// reports (mintlify.OnChange).
func logExportProgress(ctx context.Context) func(mintlify.StaticExportJob) {
	return func(j mintlify.StaticExportJob) {
		tflog.Info(ctx, LogExportProgress, map[string]any{
			LogFieldJobID: j.JobID, "status": j.Status, "progress": j.Progress, "page_count": j.PageCount,
		})
	}
}

// logAgentJobStatus logs each new status of an agent job that a wait
// reports (mintlify.OnChange).
func logAgentJobStatus(ctx context.Context) func(mintlify.AgentJob) {
	return func(j mintlify.AgentJob) {
		tflog.Info(ctx, LogAgentJobStatus, map[string]any{"status": j.Status})
	}
}

// logDeploymentStatus logs each new status or log line of a deployment
// that a wait reports (mintlify.OnChange).
func logDeploymentStatus(ctx context.Context) func(mintlify.Deployment) {
	return func(d mintlify.Deployment) {
		fields := map[string]any{"status": d.Status, "log_lines": len(d.Logs)}
		if n := len(d.Logs); n > 0 {
			fields["last_log_line"] = d.Logs[n-1]
		}
		tflog.Info(ctx, LogDeploymentStatus, fields)
	}
}
