package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The log lines that people and tools read: the guides in templates/ quote
// them, and tools/bench/e2e finds them by these names. Changing one changes what users read.
const (
	// LogExportProgress is logged at INFO for each change of a static
	// export job's status, progress or page count, with the job's id
	// (LogFieldJobID) and those three.
	LogExportProgress = "Static export progress"
	// LogFieldJobID names the static export job of a log line.
	LogFieldJobID = "job_id"
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

// logProjectExportProgress logs each change of a project-scoped job's
// status, which is all it reports.
func logProjectExportProgress(ctx context.Context) func(mintlify.ProjectExportJob) {
	return func(j mintlify.ProjectExportJob) {
		tflog.Info(ctx, LogExportProgress, map[string]any{LogFieldJobID: j.JobID, "status": j.Status})
	}
}
