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
	// Importing is set by ImportState for the refresh that follows it,
	// which may adopt the job at once (adoptAtImport).
	Importing bool `json:"importing,omitempty"`
	// AdoptedAtImport is true from the import's refresh that adopted the
	// job and its link until an apply changes the bundle: until then, as
	// for a job the apply adopts, a plan takes `triggers` and `base_path`
	// from configuration instead of replacing the job (justImported), since
	// the API never returned them. A `terraform import` is followed by a
	// plan of its own, and an import block that plans no change by no
	// apply, so no refresh can tell that the configuration was seen.
	AdoptedAtImport bool `json:"adopted_at_import,omitempty"`
}
