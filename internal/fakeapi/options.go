package fakeapi

import (
	"net/url"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
)

// Option configures a Server. The options are grouped by API area: each
// takes a struct of that area's settings, and sets only the fields that are
// not zero, so that two options of one area add up (the later one wins a
// field both set).
type Option func(*Server)

// WithClock makes the server read time from c: job progress, timestamps and
// link expiry all follow it. Defaults to clock.Real().
func WithClock(c clock.Clock) Option {
	return func(s *Server) { s.clock = c }
}

// KeyOptions are the admin API key the server accepts and how it refuses
// the others (keys.go).
type KeyOptions struct {
	// APIKey is the one bearer key the server accepts. Defaults to
	// DefaultAPIKey.
	APIKey string
	// Limits are what the key was created with: an expiry, an IP
	// allowlist, the read scope (SetKeyLimits changes them while the server
	// runs).
	Limits KeyLimits
	// BareRefusals makes every 401 and 403 of the API say only
	// "Unauthorized" or "Forbidden", whatever refused the request.
	BareRefusals bool
}

// WithKeys sets the key the server accepts, its limits and the words of
// its refusals.
func WithKeys(k KeyOptions) Option {
	return func(s *Server) {
		if k.APIKey != "" {
			s.apiKey = k.APIKey
		}
		if !isZeroKeyLimits(k.Limits) {
			s.keyLimits = k.Limits
		}
		if k.BareRefusals {
			s.bareRefusals = true
		}
	}
}

func isZeroKeyLimits(l KeyLimits) bool {
	return l.ExpiresAt.IsZero() && len(l.AllowedIPs) == 0 && !l.ReadOnly && !l.NoAPIAccess
}

// WithProjects names the projects that exist: creating an agent job, or
// starting a project-scoped static export, in any other answers 404.
// Without it, every project exists. Seeded agent jobs (AddAgentJob) may
// live in any project either way.
func WithProjects(ids ...string) Option {
	return func(s *Server) { s.projects = append([]string{}, ids...) }
}

// StaticExportOptions are how the static export behaves: the domain-scoped
// contract of today, its bundle links, and the project-scoped contract
// (Next).
type StaticExportOptions struct {
	// Disabled makes every static export operation of today's contract
	// answer 403, as for an organization without the Enterprise feature.
	Disabled bool
	// Plan decides how each new export job behaves. It is called once per
	// started job, outside the server's lock. Nil means DefaultJobPlan.
	Plan func(req StartRequest) JobPlan
	// Archive decides each job's archive. It is called once per job, when
	// the job's archive is first needed (its first bundle link), under the
	// server's lock: it must not call the server. Nil: every archive holds
	// the job's pages only.
	Archive func(StartRequest) Archive
	// LinkTTL is how long a presigned bundle link stays valid. It is
	// rounded up to whole seconds, as X-Amz-Expires counts seconds.
	// Defaults to one hour; values below one second keep the default.
	LinkTTL time.Duration
	// DownloadHost is the scheme and host (optionally followed by a path
	// prefix) that bundle links point at, such as
	// "https://downloads.example.com". By default links point back at the
	// server that generated them: the request's scheme and Host plus any
	// prefix stripped by http.StripPrefix.
	DownloadHost string
	// Next, when not nil, serves the project-scoped static export contract
	// as it says: alone, or beside today's (next_options.go).
	Next *NextExport
}

// WithStaticExport sets how the static export behaves.
func WithStaticExport(o StaticExportOptions) Option {
	return func(s *Server) {
		if o.Disabled {
			s.staticExportDisabled = true
		}
		if o.Plan != nil {
			s.jobPlan = o.Plan
		}
		if o.Archive != nil {
			s.archiveFor = o.Archive
		}
		if o.LinkTTL >= time.Second {
			s.linkTTL = o.LinkTTL
		}
		if o.DownloadHost != "" {
			s.downloadBase = strings.TrimSuffix(o.DownloadHost, "/")
		}
		if o.Next != nil {
			s.setNext(*o.Next)
		}
	}
}

// AgentJobOptions are how agent jobs behave.
type AgentJobOptions struct {
	// Plan decides how an agent job behaves after it is created or given a
	// follow-up message. It is called once per such request, outside the
	// server's lock. Nil means DefaultAgentJobPlan.
	Plan func(req AgentJobRequest) AgentJobPlan
}

// WithAgentJobs sets how agent jobs behave.
func WithAgentJobs(o AgentJobOptions) Option {
	return func(s *Server) {
		if o.Plan != nil {
			s.agentPlan = o.Plan
		}
	}
}

// DeploymentOptions are how deployments and previews behave.
type DeploymentOptions struct {
	// Plan decides how each deployment (of the deployment branch or of a
	// preview) behaves. It is called once per deployment, outside the
	// server's lock. Nil means DefaultDeploymentPlan.
	Plan func(req DeploymentRequest) DeploymentPlan
	// PreviewsDisabled makes "Trigger preview deployment" answer 403, as
	// for an organization whose plan has no previews.
	PreviewsDisabled bool
}

// WithDeployments sets how deployments and previews behave.
func WithDeployments(o DeploymentOptions) Option {
	return func(s *Server) {
		if o.Plan != nil {
			s.deploymentPlan = o.Plan
		}
		if o.PreviewsDisabled {
			s.previewsDisabled = true
		}
	}
}

// WithAutomations adds automations: "Trigger automation" runs one when it
// has a custom schedule, "Trigger automation webhook" when its trigger is
// Webhook.
func WithAutomations(automations ...Automation) Option {
	return func(s *Server) {
		for _, a := range automations {
			s.automations[a.ID] = a
		}
	}
}

// LimitOptions are the request limits the server enforces besides the
// documented per-organization ones (limits.go), which are on by default.
type LimitOptions struct {
	// PerSecond makes the server answer 429, with a Retry-After header in
	// whole seconds, to API requests beyond PerSecond a second, measured on
	// the server's clock: a token bucket that holds up to one second's
	// worth of requests (at least one). Refused requests reach no handler,
	// so they never start a job. Zero: no such limit.
	PerSecond float64
	// WithoutDocumented lifts the documented per-organization limits of
	// the deployment, preview and automation triggers and of the next
	// contract's static export starts, for tests that are about something
	// else and trigger more than the limits allow in a moment of virtual
	// time.
	WithoutDocumented bool
	// PlainText makes every documented limit answer 429 as plain text
	// without a Retry-After, as Mintlify's shared API-key layer may answer
	// an organization-wide limit.
	PlainText bool
	// OthersUse is the share (0 to 1) of each documented
	// per-organization limit that the rest of the organization uses: the
	// server counts that many requests of every window as sent by others,
	// evenly spaced. 0.5 leaves 5 trigger requests per 10 seconds.
	OthersUse float64
}

// WithLimits sets the server's request limits.
func WithLimits(o LimitOptions) Option {
	return func(s *Server) {
		if o.PerSecond > 0 {
			s.faults.limiter = newRateLimiter(o.PerSecond)
		}
		if o.WithoutDocumented {
			s.windows = nil
		}
		if o.PlainText {
			s.plainLimits = true
		}
		if o.OthersUse > 0 && s.windows != nil {
			s.windows.others = min(o.OthersUse, 1)
		}
	}
}

// WithFaults adds fault rules (see FaultRule); SetFaults changes them while
// the server runs.
func WithFaults(rules ...FaultRule) Option {
	return func(s *Server) { s.faults.addLocked(rules) }
}

// HostileOptions are hostile scenarios (hostile.go): a server that answers
// within HTTP but against the client's interests.
type HostileOptions struct {
	// UnannouncedSize makes every bundle announce no size (a sizeBytes of
	// 0) and every download go without a Content-Length, as a storage host
	// streaming an archive of unknown length would. The archive itself is
	// served whole. A sizeBytes of 0 is within the API's contract (an
	// integer).
	UnannouncedSize bool
	// JobIDs, when not nil, makes every new export job, agent job and
	// deployment (its status id), and every automation run (its
	// instanceId), take the id it returns instead of the usual one, as an
	// API that hands out hostile ids would: one with a terminal escape, ten
	// kilobytes long, or a path. The API documents an id as a string, so
	// this stays within its contract. The test keeps the ids unique.
	JobIDs func() string
	// UndocumentedStatus, when not empty, makes every export job and agent
	// job settle in that status, a value the API does not document (such
	// as "cancelled"), at the moment it would have completed, failed or
	// been archived. An export job in it has no bundle (generating one
	// answers 409). It breaks the contract's status enum: serve the server
	// without the contract checker.
	UndocumentedStatus string
	// DownloadRedirect, when not empty, makes every bundle download that
	// reaches the server under a host other than this absolute URL's answer
	// 307 Temporary Redirect to the same path and query under it, as a
	// storage host that moved would. Serve the same server there, for
	// instance behind a HeaderRecorder on a second loopback port, so that
	// the download completes there.
	DownloadRedirect string
	// StorageError, when not nil, makes the storage host answer every
	// bundle download with it.
	StorageError *StorageError
}

// StorageError is an error of the storage host: a status and an S3 error
// document holding Code and Message, which may be as long and as strange
// as a test needs (control characters, a link with its signature).
type StorageError struct {
	Status  int
	Code    string
	Message string
}

// WithHostile sets hostile scenarios.
func WithHostile(o HostileOptions) Option {
	return func(s *Server) {
		if o.UnannouncedSize {
			s.hostile.unannounced = true
		}
		if o.JobIDs != nil {
			s.hostile.jobIDs = o.JobIDs
		}
		if o.UndocumentedStatus != "" {
			s.hostile.status = o.UndocumentedStatus
		}
		if o.DownloadRedirect != "" {
			u, err := url.Parse(strings.TrimSuffix(o.DownloadRedirect, "/"))
			if err != nil || u.Host == "" {
				panic("fakeapi: HostileOptions.DownloadRedirect needs an absolute URL, got " + o.DownloadRedirect)
			}
			s.hostile.redirectTo = u
		}
		if o.StorageError != nil {
			s.hostile.storageCode = o.StorageError.Status
			s.hostile.storageError = &s3Error{Code: o.StorageError.Code, Message: o.StorageError.Message}
		}
	}
}
