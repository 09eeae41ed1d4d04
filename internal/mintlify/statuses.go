package mintlify

// The statuses the API documents for each kind of job. A wait ends on any
// status but the ones of a job still going (see jobKind), and on any status
// not listed here, which the API does not document.

const (
	// A static export job is queued, then running, then completed or
	// failed.
	StatusQueued    = "queued"
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusFailed    = "failed"

	// An agent job is active, then completed, archived or failed.
	AgentStatusActive    = "active"
	AgentStatusCompleted = "completed"
	AgentStatusArchived  = "archived"
	AgentStatusFailed    = "failed"

	// A deployment (of the deployment branch or of a preview) is queued,
	// then in_progress, then success or failure.
	DeployStatusQueued     = "queued"
	DeployStatusInProgress = "in_progress"
	DeployStatusSuccess    = "success"
	DeployStatusFailure    = "failure"
)

var (
	// StaticExportStatuses lists every documented static export job status.
	StaticExportStatuses = []string{StatusQueued, StatusRunning, StatusCompleted, StatusFailed}
	// AgentJobStatuses lists every documented agent job status.
	AgentJobStatuses = []string{AgentStatusActive, AgentStatusCompleted, AgentStatusArchived, AgentStatusFailed}
	// DeploymentStatuses lists every documented deployment status.
	DeploymentStatuses = []string{DeployStatusQueued, DeployStatusInProgress, DeployStatusSuccess, DeployStatusFailure}
)
