package fakeapi

import "net/http"

// Mintlify is replacing the domain-scoped static export (three calls:
// start, status, bundle) with a project-scoped one (API.md, "Static export,
// the next contract"): jobs are started and read under a project, a
// completed job's status carries a fresh link at every read, and the
// bundle is a ZIP archive. The fake serves either contract, or both at
// once, on the same clock; StaticExportOptions.Next chooses.

// Contracts selects the static export contracts the server serves.
type Contracts int

const (
	// ServeToday serves only today's domain-scoped contract: the default.
	ServeToday Contracts = iota
	// ServeNext serves only the project-scoped contract, as the API will
	// once the domain-scoped one is retired: its calls then answer
	// NextExport.RetiredStatus.
	ServeNext
	// ServeBoth serves both contracts at once, as the API does while it
	// moves from one to the other.
	ServeBoth
)

// NextExport is how the server serves the project-scoped static export
// contract. Its zero value serves today's contract only, as a server
// without StaticExportOptions.Next does.
type NextExport struct {
	// Contracts selects the contracts served; zero is ServeToday.
	Contracts Contracts
	// NotEnabled, when 401 or 403, answers every project-scoped call with
	// that status and the text "Static export is not enabled for this
	// project": the API documents the refusal as 403 in one revision and as
	// 401 in a later one. Zero: enabled. (StaticExportOptions.Disabled refuses
	// today's contract only.)
	NotEnabled int
	// Plan decides how each job behaves; nil means DefaultJobPlan. It is
	// called once per started job, outside the server's lock. A plan's
	// Pages set the number of pages in the job's ZIP archive.
	Plan func(ProjectStartRequest) JobPlan
	// Archive decides what each job's archive is; only Defect is honoured
	// (ArchiveTruncated, ArchiveCorrupt; and ArchiveEscapingEntry,
	// ArchiveSymlinkChain, whose hostile entries follow the job's pages in
	// a well-formed ZIP), the archive holding the job's pages. Nil serves
	// it intact. It is called under the server's lock.
	Archive func(ProjectStartRequest) Archive
	// PlainTextLimit makes the hourly start limit answer 429 as plain text,
	// without a Retry-After, as the API's shared key layer may answer an
	// organization-wide limit; by default it answers the API's JSON error
	// with a Retry-After in whole seconds.
	PlainTextLimit bool
	// RetiredStatus is the answer of the domain-scoped calls when only the
	// next contract is served: http.StatusNotFound (the default, as for a
	// route that no longer exists) or http.StatusGone.
	RetiredStatus int
}

// ProjectStartRequest is a start of the project-scoped contract, as the
// server decoded it.
type ProjectStartRequest struct {
	// ProjectID is the path's project.
	ProjectID string
	// BasePath is the body's optional basePath: "", "/docs" or
	// "/documentation".
	BasePath string
}

// setNext serves the project-scoped static export contract as n says.
func (s *Server) setNext(n NextExport) {
	if n.RetiredStatus != http.StatusGone {
		n.RetiredStatus = http.StatusNotFound
	}
	s.next = n
}
