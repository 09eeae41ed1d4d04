package automation

// The log lines that people and tools read: the guides in templates/ quote
// them. Changing one changes what users read.
const (
	// LogAutomationRunQueued is logged at INFO when the resource or the
	// action has queued a run of an automation, with its ids.
	LogAutomationRunQueued = "Automation run queued"
)
