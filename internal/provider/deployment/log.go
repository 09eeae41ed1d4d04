package deployment

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The log lines that people and tools read: the guides in templates/ quote
// them. Changing one changes what users read.
const (
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
	// LogPreviewResumed is logged at INFO when the resource, replacing a
	// preview whose wait a timeout or an interruption cut short, waits for
	// that same deployment instead of deploying the preview again.
	LogPreviewResumed = "Resuming the wait for the preview deployment of the replaced resource"
	// LogDeploymentStatus is logged at INFO for each new status or log line
	// of a deployment while the provider waits for it.
	LogDeploymentStatus = "Deployment status"
)

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
