package mintlify

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What the client does with what the network hands it, none of which it
// trusts: bundle links are checked before anyone may use them, and the text
// a server wrote is cleaned (see serverText in mask.go) before it reaches
// an error.

// UnsafeLinkError is a bundle link that GenerateBundle refused to return:
// one that is not an absolute http(s) URL, whose host is not ASCII, or that
// uses plain http while the API itself is not on this machine. Neither the
// link nor its query appears in it.
type UnsafeLinkError struct {
	JobID string
	// Host is the link's host, escaped for printing (ShowHost); empty when
	// the link is not a URL at all.
	Host string
	// Plain is true for a plain-http link.
	Plain bool
	// NotASCII is true for a link whose host is not an IP address or a DNS
	// name in ASCII (IDNA A-labels).
	NotASCII bool
}

func (e *UnsafeLinkError) Error() string {
	switch {
	case e.NotASCII:
		return fmt.Sprintf("refused the bundle link of static export job %s: its host %s is not an IP address or "+
			"a DNS name in ASCII letters, digits and hyphens (an internationalized name is written in IDNA "+
			"A-labels, xn--...); such a host can pass for another one in a message", e.JobID, e.Host)
	case e.Plain:
		return fmt.Sprintf("refused the bundle link of static export job %s: it uses plain http (host %s), and an "+
			"unencrypted link would expose the bundle and its signature to anyone on the network path; plain http "+
			"is accepted only from an API on a loopback address", e.JobID, e.Host)
	}
	return fmt.Sprintf("refused the bundle link of static export job %s: it is not an absolute http(s) URL", e.JobID)
}

// checkBundleLink refuses a link that is not an absolute http(s) URL, one
// whose host is not ASCII, and a plain-http one unless the API itself is
// loopback (the in-repo fake, a local test server): GenerateBundle is the
// one place every consumer of a link (the bundle resource, the ephemeral
// resource, the archive download) gets it from.
func (c *Client) checkBundleLink(jobID, link string) error {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return &UnsafeLinkError{JobID: jobID}
	}
	if !isASCIIHost(u.Hostname()) {
		return &UnsafeLinkError{JobID: jobID, Host: ShowHost(u.Host), NotASCII: true}
	}
	if u.Scheme == "http" && !isLoopback(c.baseURL.Hostname()) {
		return &UnsafeLinkError{JobID: jobID, Host: ShowHost(u.Host), Plain: true}
	}
	return nil
}

// UnknownStatusError is a job in a status the API does not document, such
// as "cancelled". A wait ends at once on it rather than poll until its
// deadline for a status that may never come.
type UnknownStatusError struct {
	// What is "static export job" or "agent job".
	What  string
	JobID string
	// Status is the status the API reported.
	Status string
	// Known lists the statuses the API documents for such a job.
	Known []string
}

func (e *UnknownStatusError) Error() string {
	return fmt.Sprintf("%s %s reports the status %q, which the API has not documented (it documents %s)",
		e.What, e.JobID, e.Status, strings.Join(e.Known, ", "))
}

// serverText cleans text the API wrote, masking the API key in it as well.
func (c *Client) serverText(s string) string { return serverText(s, []string{c.apiKey}) }

// Identifiers and links that the API returns reach state, import ids,
// request paths and diagnostics, so they must be what they claim to be.
const (
	// maxIDLength bounds a job id: the API's are about 20 characters
	// (se_3f9a2c1b8e7d4a06).
	maxIDLength = 128
	// maxLinkLength bounds a pull request or repository link.
	maxLinkLength = 2048
	// maxNameLength bounds a branch or model name.
	maxNameLength = 256
	// shownLength is how much of a refused value an error shows.
	shownLength = 40
)

// idPattern is what a job id may be: letters, digits, '_', '-', '.' and
// ':', starting with a letter or digit (so never "." or ".."), at most
// maxIDLength characters.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,` + strconv.Itoa(maxIDLength-1) + `}$`)

// InvalidValueError is an answer of the API that holds a value the client
// refuses to pass on (to state, a diagnostic, a request path): a job id
// outside idPattern, a pull request link that is not an http(s) URL. It
// names the call and the field, and shows the value escaped and cut, never
// raw.
type InvalidValueError struct {
	// Route is the call, such as "POST /v1/static-export/jobs".
	Route string
	// Field is the API's name of the value, such as "jobId".
	Field string
	// Shown is the value, quoted with Go's escapes (control characters,
	// terminal escapes and non-ASCII as \x, \u), secrets masked, and cut to
	// a few dozen characters.
	Shown string
	// Rule says what the value must be.
	Rule string
}

func (e *InvalidValueError) Error() string {
	return fmt.Sprintf("%s: the API answered with a %s the provider does not accept, %s: %s", e.Route, e.Field, e.Shown, e.Rule)
}

// showValue quotes a refused value for an error: masked, escaped and cut.
func showValue(s string) string {
	s, n := cut(strings.ToValidUTF8(s, "\uFFFD"), shownLength)
	shown := strconv.QuoteToASCII(maskSecrets(s, nil))
	if n > shownLength {
		shown += cutNote(n)
	}
	return shown
}

// checkID refuses a job id that is not a clean, bounded identifier.
func checkID(route, field, id string) error {
	if idPattern.MatchString(id) {
		return nil
	}
	return &InvalidValueError{Route: route, Field: field, Shown: showValue(id), Rule: fmt.Sprintf("an id is 1 to %d "+
		"letters, digits, '_', '-', '.' or ':', starting with a letter or digit", maxIDLength)}
}

// checkLinkValue refuses a link (a pull request, a repository, a preview's
// address) that is not an absolute http(s) URL of printable ASCII without
// credentials, at most maxLinkLength long. An empty one is accepted: the API
// leaves it out. Whether a preview's address must be https is the
// provider's call: the preview is deployed whatever the address says.
func checkLinkValue(route, field, link string) error {
	if link == "" {
		return nil
	}
	u, err := url.Parse(link)
	printable := !strings.ContainsFunc(link, func(r rune) bool { return r <= ' ' || r >= 0x7f })
	if len(link) <= maxLinkLength && printable && err == nil && (u.Scheme == "https" || u.Scheme == "http") &&
		u.Host != "" && u.User == nil {
		return nil
	}
	if err == nil {
		// Neither a password nor a query is shown.
		u.User, u.RawQuery, u.ForceQuery = nil, "", false
		link = u.String()
	}
	return &InvalidValueError{Route: route, Field: field, Shown: showValue(link), Rule: fmt.Sprintf("a link is an "+
		"absolute http(s) URL of printable ASCII without a user name or password, at most %d characters", maxLinkLength)}
}

// checkName refuses a name (a branch, a model) with a control, format or
// space character, or longer than maxNameLength.
func checkName(route, field, name string) error {
	if len(name) <= maxNameLength && utf8.ValidString(name) && !strings.ContainsFunc(name, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.In(r, unicode.Cf)
	}) {
		return nil
	}
	return &InvalidValueError{Route: route, Field: field, Shown: showValue(name), Rule: fmt.Sprintf("a name is at "+
		"most %d bytes of UTF-8, without spaces, control or formatting characters", maxNameLength)}
}

// cleanExportJob refuses a job whose id is not an identifier, and cleans
// its status and failure reason, which reach errors and diagnostics.
func (c *Client) cleanExportJob(route string, job *StaticExportJob) error {
	if err := checkID(route, "jobId", job.JobID); err != nil {
		return err
	}
	job.Status = c.serverText(job.Status)
	if job.Error != nil {
		reason := c.serverText(*job.Error)
		job.Error = &reason
	}
	return nil
}

// cleanAgentJob refuses an agent job whose id, links, branch or model the
// provider cannot pass on, and cleans its status.
func (c *Client) cleanAgentJob(route string, job *AgentJob) error {
	checks := []error{
		checkID(route, "id", job.ID),
		checkLinkValue(route, "source.repository", job.Source.Repository),
		checkName(route, "model", job.Model),
	}
	if job.PRLink != nil {
		checks = append(checks, checkLinkValue(route, "prLink", *job.PRLink))
	}
	if job.Source.Ref != nil {
		checks = append(checks, checkName(route, "source.ref", *job.Source.Ref))
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	job.Status = c.serverText(job.Status)
	return nil
}

// callRoute names a call in errors: its method and path, such as
// "GET /v1/static-export/jobs/se_1".
func callRoute(method string, segments []string) string {
	return method + " /" + strings.Join(segments, "/")
}
