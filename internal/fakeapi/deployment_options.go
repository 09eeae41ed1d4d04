package fakeapi

// WithDeploymentPlan sets the function that decides how each deployment
// (of the deployment branch or of a preview) behaves. It is called once per
// deployment, outside the server's lock. Defaults to DefaultDeploymentPlan;
// nil keeps the default.
func WithDeploymentPlan(f func(req DeploymentRequest) DeploymentPlan) Option {
	return func(s *Server) {
		if f != nil {
			s.deploymentPlan = f
		}
	}
}

// WithPreviewsDisabled makes "Trigger preview deployment" answer 403, as for
// an organization whose plan has no previews.
func WithPreviewsDisabled() Option {
	return func(s *Server) { s.previewsDisabled = true }
}

// WithAutomation adds an automation that "Trigger automation" can run.
func WithAutomation(a Automation) Option {
	return func(s *Server) { s.automations[a.ID] = a }
}

// WithoutDocumentedRateLimits lifts the documented per-organization limits
// of the deployment, preview and automation triggers and of the next
// contract's static export starts (see limits.go), for
// tests that are about something else and trigger more than the limits
// allow in a moment of virtual time.
func WithoutDocumentedRateLimits() Option {
	return func(s *Server) { s.windows = nil }
}
