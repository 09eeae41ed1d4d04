package mintlify

import (
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// How the project-scoped static export contract refuses a call, read so
// that the provider can name the cause and its fix. Its 401 and 403 move
// between revisions (API.md, "Static export, the next contract"): 401 for a
// missing or invalid key, a plan without API access, or static export not
// enabled for the project; 403 for a key without the write scope or used
// off its IP allowlist, and in the first revision for static export not
// enabled. Mintlify's shared API-key layer answers with an error text and
// no code, a service's own refusals carry a code. The texts are not
// documented: a cause counts as named only when the text says it in so
// many words, and otherwise every cause the status allows is possible.

// The causes of the project-scoped contract that RefusalsNamed's reading of
// today's contract does not have.
const (
	// RefusalInvalidKey is a key that is missing, unknown or malformed (401).
	RefusalInvalidKey Refusal = "invalid key"
	// RefusalNoAPIAccess is an organization whose plan has no access to
	// the admin API (401; Pro and Enterprise plans have it).
	RefusalNoAPIAccess Refusal = "plan without API access"
	// RefusalExportNotEnabled is static export not enabled for the
	// project (401 or 403).
	RefusalExportNotEnabled Refusal = "static export not enabled"
)

// projectRefusalWords are the words that name each cause, and the statuses
// each cause may come with, in the order causes are listed.
var projectRefusalWords = []struct {
	refusal  Refusal
	statuses []int
	words    *regexp.Regexp
}{
	{RefusalInvalidKey, []int{401}, regexp.MustCompile(`(?i)\b(invalid|missing|unknown|malformed|no)( admin)?( api)? (key|token)\b`)},
	{RefusalExpiredKey, []int{401}, refusalWords[http.StatusUnauthorized][0].words},
	{RefusalRevokedKey, []int{401}, refusalWords[http.StatusUnauthorized][1].words},
	{RefusalNoAPIAccess, []int{401, 403}, regexp.MustCompile(`(?i)\b(api access|access to the (admin )?api)\b`)},
	{RefusalExportNotEnabled, []int{401, 403}, regexp.MustCompile(`(?i)\bexport\b[^.]*\b(not enabled|disabled|not available)\b`)},
	{RefusalReadOnlyKey, []int{403}, refusalWords[http.StatusForbidden][1].words},
	{RefusalIPAllowlist, []int{403}, refusalWords[http.StatusForbidden][0].words},
}

// ProjectExportRefusal is a 401 or 403 of the project-scoped contract, read.
type ProjectExportRefusal struct {
	// StatusCode is 401 or 403.
	StatusCode int
	// Named are the causes the answer's text names.
	Named []Refusal
	// Possible are the causes the answer allows, most likely first: Named
	// when the text names any, otherwise every cause of the status, the
	// answer's layer and the call's method.
	Possible []Refusal
	// KeyLayer is true for an answer of Mintlify's shared API-key layer:
	// an error text without a code.
	KeyLayer bool
}

// ReadProjectExportRefusal reads the 401 or 403 in err's chain; false for
// any other error.
func ReadProjectExportRefusal(err error) (ProjectExportRefusal, bool) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || (apiErr.StatusCode != http.StatusUnauthorized && apiErr.StatusCode != http.StatusForbidden) {
		return ProjectExportRefusal{}, false
	}
	r := ProjectExportRefusal{StatusCode: apiErr.StatusCode, KeyLayer: apiErr.Code == ""}
	for _, w := range projectRefusalWords {
		if slices.Contains(w.statuses, r.StatusCode) && w.words.MatchString(apiErr.Message) {
			r.Named = append(r.Named, w.refusal)
		}
	}
	r.Possible = r.Named
	if len(r.Possible) == 0 {
		r.Possible = possibleRefusals(r.StatusCode, r.KeyLayer, strings.HasPrefix(apiErr.Route, http.MethodPost+" "))
	}
	return r, true
}

// possibleRefusals are the causes of a 401 or 403 whose text names none:
// a service's own answer (with a code) is about static export or the
// plan; the key layer's is about the key first.
func possibleRefusals(status int, keyLayer, write bool) []Refusal {
	switch {
	case status == http.StatusUnauthorized && keyLayer:
		return []Refusal{RefusalInvalidKey, RefusalExpiredKey, RefusalNoAPIAccess, RefusalExportNotEnabled}
	case status == http.StatusUnauthorized:
		return []Refusal{RefusalExportNotEnabled, RefusalNoAPIAccess}
	case !keyLayer:
		return []Refusal{RefusalExportNotEnabled}
	case write:
		return []Refusal{RefusalReadOnlyKey, RefusalIPAllowlist, RefusalExportNotEnabled}
	}
	return []Refusal{RefusalIPAllowlist, RefusalExportNotEnabled}
}

// ProjectExportProblem is why the project-scoped contract refused a call
// with 400, 404, 409 or 429, where the answer tells.
type ProjectExportProblem string

const (
	// ProblemBasePath is a base path the API does not support (400).
	ProblemBasePath ProjectExportProblem = "unsupported base path"
	// ProblemProjectID is a malformed project id (400).
	ProblemProjectID ProjectExportProblem = "malformed project id"
	// ProblemProjectNotFound is a project that does not exist or is not
	// the key's organization's (404).
	ProblemProjectNotFound ProjectExportProblem = "project not found"
	// ProblemJobNotFound is a job the project does not have (404).
	ProblemJobNotFound ProjectExportProblem = "job not found"
	// ProblemExportActive is another job of the deployment queued or
	// running (409 on a start).
	ProblemExportActive ProjectExportProblem = "another export active"
	// ProblemStartLimit is the limit of 10 starts per organization per
	// hour (429 on a start).
	ProblemStartLimit ProjectExportProblem = "hourly start limit"
)

var (
	basePathWords = regexp.MustCompile(`(?i)\bbase ?path\b`)
	projectWords  = regexp.MustCompile(`(?i)\bproject\b`)
	jobWords      = regexp.MustCompile(`(?i)\bjob\b`)
)

// ProjectExportProblemOf returns the problem of the project-scoped call
// that err is the refusal of, and "" when err is none of them (today's
// domain-scoped calls included) or its text does not tell (a 400 or a read's 404 that names neither a base path, a
// project nor a job).
func ProjectExportProblemOf(err error) ProjectExportProblem {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !isProjectExportRoute(apiErr.Route) {
		return ""
	}
	start := strings.HasPrefix(apiErr.Route, http.MethodPost+" ")
	msg := apiErr.Message
	switch apiErr.StatusCode {
	case http.StatusBadRequest:
		return firstNamed(msg, basePathWords, ProblemBasePath, projectWords, ProblemProjectID)
	case http.StatusNotFound:
		if start { // a start names no job
			return ProblemProjectNotFound
		}
		return firstNamed(msg, jobWords, ProblemJobNotFound, projectWords, ProblemProjectNotFound)
	case http.StatusConflict:
		return ProblemExportActive
	case http.StatusTooManyRequests:
		if start {
			return ProblemStartLimit
		}
	}
	return ""
}

// firstNamed returns a when msg matches aWords, else b when it matches
// bWords, else "".
func firstNamed(msg string, aWords *regexp.Regexp, a ProjectExportProblem, bWords *regexp.Regexp,
	b ProjectExportProblem) ProjectExportProblem {
	switch {
	case aWords.MatchString(msg):
		return a
	case bWords.MatchString(msg):
		return b
	}
	return ""
}

// IsAnotherExportActive reports whether err is a project-scoped start
// refused because another job of the deployment is queued or running
// (409), also once the wait for it ran out of time.
func IsAnotherExportActive(err error) bool {
	return ProjectExportProblemOf(err) == ProblemExportActive
}

// IsDomainExportRetired reports whether err says that the API no longer
// serves today's domain-scoped static export calls, as it will once the
// project-scoped contract replaces them.
//
// The API has not said how a retired call answers. The assumption: as any
// path without a route (404, or 405 where another method's route matches),
// or as a deliberately retired one (410 Gone). A 410 on any of the three
// calls counts. A 404 or 405 counts only on the start, POST
// /v1/static-export/jobs, whose path names nothing that could be missing:
// there the domain-scoped contract documents only 400, 401 and 403. A 404
// of a status read or a bundle request cannot tell a retired route from a
// job the platform purged, so it does not count; the caller keeps what it
// has (a link still valid), and the next start tells.
func IsDomainExportRetired(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.StatusCode {
	case http.StatusGone:
		return isDomainExportRoute(apiErr.Route)
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return apiErr.Route == domainExportStart || isDomainExportRoute(apiErr.Route) && IsNoRoute(err)
	}
	return false
}

// IsProjectExportNotServed reports whether err says that the API does not
// serve the project-scoped static export calls (yet): a project-scoped call
// answered as a path without a route (IsNoRoute), which Mintlify does
// today, and the project's stand-in when it serves today's contract only.
// A 404 of the project-scoped contract itself ("no such project", "no such
// job") carries a service `code` and is no such answer.
func IsProjectExportNotServed(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && isProjectExportRoute(apiErr.Route) && IsNoRoute(err)
}

// IsNoRoute reports whether err is an answer to a path the server has no
// route for, rather than a refusal of the service behind it: a 405, or a
// 404 without the service's `code` whose text names the request as a
// router does ("No route for POST /v1/…", Express's "Cannot POST /v1/…").
// The API documents no such answer; these are the shapes routers give.
func IsNoRoute(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "" {
		return false
	}
	switch apiErr.StatusCode {
	case http.StatusMethodNotAllowed:
		return true
	case http.StatusNotFound:
		for _, prefix := range []string{"No route for ", "Cannot "} {
			if rest, ok := strings.CutPrefix(apiErr.Message, prefix); ok {
				method, _, _ := strings.Cut(rest, " ")
				return method == http.MethodGet || method == http.MethodPost
			}
		}
	}
	return false
}

// domainExportStart is the route of today's start, as APIError.Route
// names it.
const domainExportStart = http.MethodPost + " /v1/static-export/jobs"

// isProjectExportRoute reports whether route is a project-scoped static
// export call: a start or a status read.
func isProjectExportRoute(route string) bool {
	_, rest, _ := strings.Cut(route, " ")
	return strings.HasPrefix(rest, "/v1/static-export/") && !isDomainExportRoute(route)
}

// isDomainExportRoute reports whether route is one of today's three
// domain-scoped calls: the start, a status read, a bundle request.
func isDomainExportRoute(route string) bool {
	if route == domainExportStart {
		return true
	}
	if rest, ok := strings.CutPrefix(route, http.MethodGet+" /v1/static-export/jobs/"); ok {
		return !strings.Contains(rest, "/")
	}
	if rest, ok := strings.CutPrefix(route, domainExportStart+"/"); ok {
		id, tail, _ := strings.Cut(rest, "/")
		return id != "" && tail == "bundle"
	}
	return false
}
