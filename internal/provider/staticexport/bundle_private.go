package staticexport

import "time"

// bundleFacts are the bundle's facts in its private state.
type bundleFacts struct {
	// JobGone is true when the last refresh got HTTP 404 for the job.
	JobGone bool `json:"job_gone,omitempty"`
	// DomainRetired is true when the last refresh found the domain-scoped
	// contract of the job in state retired (mintlify.IsDomainExportRetired).
	DomainRetired bool `json:"domain_retired,omitempty"`
	// LinkGeneratedAt is when the link in state was generated, so that the
	// default renewal policy knows the link's whole lifetime; zero when the
	// state holds no link.
	LinkGeneratedAt time.Time `json:"link_generated_at,omitzero"`
}
