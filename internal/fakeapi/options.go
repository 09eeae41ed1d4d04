package fakeapi

import (
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// Option configures a Server.
type Option func(*Server)

// WithClock makes the server read time from c: job progress, timestamps and
// link expiry all follow it. Defaults to clock.Real().
func WithClock(c clock.Clock) Option {
	return func(s *Server) { s.clock = c }
}

// WithAPIKey sets the one bearer key the server accepts. Defaults to
// DefaultAPIKey.
func WithAPIKey(key string) Option {
	return func(s *Server) { s.apiKey = key }
}

// WithStaticExportDisabled makes every static export operation answer 403,
// as for an organization without the Enterprise feature.
func WithStaticExportDisabled() Option {
	return func(s *Server) { s.staticExportDisabled = true }
}

// WithJobPlan sets the function that decides how each new export job behaves.
// It is called once per started job, outside the server's lock. Defaults to
// DefaultJobPlan; nil keeps the default.
func WithJobPlan(f func(req StartRequest) JobPlan) Option {
	return func(s *Server) {
		if f != nil {
			s.jobPlan = f
		}
	}
}

// WithAgentJobPlan sets the function that decides how an agent job behaves
// after it is created or given a follow-up message. It is called once per
// such request, outside the server's lock. Defaults to DefaultAgentJobPlan;
// nil keeps the default.
func WithAgentJobPlan(f func(req AgentJobRequest) AgentJobPlan) Option {
	return func(s *Server) {
		if f != nil {
			s.agentPlan = f
		}
	}
}

// WithProjects names the projects that exist: creating an agent job in any
// other answers 404. Without it, agent jobs can be created in any project.
// Seeded agent jobs (AddAgentJob) may live in any project either way.
func WithProjects(ids ...string) Option {
	return func(s *Server) { s.projects = append([]string{}, ids...) }
}

// WithLinkTTL sets how long a presigned bundle link stays valid. It is
// rounded up to whole seconds, as X-Amz-Expires counts seconds. Defaults to
// one hour; values below one second keep the default.
func WithLinkTTL(d time.Duration) Option {
	return func(s *Server) {
		if d >= time.Second {
			s.linkTTL = d
		}
	}
}

// WithDownloadHost sets the scheme and host (optionally followed by a path
// prefix) that bundle links point at, such as "https://downloads.example.com".
// By default links point back at the server that generated them: the
// request's scheme and Host plus any prefix stripped by http.StripPrefix.
func WithDownloadHost(base string) Option {
	return func(s *Server) { s.downloadBase = strings.TrimSuffix(base, "/") }
}

// WithRateLimit makes the server answer 429, with a Retry-After header in
// whole seconds, to API requests beyond perSecond a second, measured on the
// server's clock: a token bucket that holds up to one second's worth of
// requests (at least one). Refused requests reach no handler, so they never
// start a job. Zero or less means no limit.
func WithRateLimit(perSecond float64) Option {
	return func(s *Server) {
		s.faults.limiter = nil
		if perSecond > 0 {
			s.faults.limiter = newRateLimiter(perSecond)
		}
	}
}

// WithFaults adds fault rules (see FaultRule); SetFaults changes them while
// the server runs.
func WithFaults(rules ...FaultRule) Option {
	return func(s *Server) { s.faults.addLocked(rules) }
}
