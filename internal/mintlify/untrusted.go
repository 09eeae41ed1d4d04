package mintlify

import (
	"fmt"
	"net/url"
	"strings"
)

// What the client does with what the network hands it, none of which it
// trusts: bundle links are checked before anyone may use them, and the text
// a server wrote is cleaned (see serverText in mask.go) before it reaches
// an error.

// UnsafeLinkError is a bundle link that GenerateBundle refused to return:
// one that is not an absolute http(s) URL, or that uses plain http while
// the API itself is not on this machine. Neither the link nor its query
// appears in it.
type UnsafeLinkError struct {
	JobID string
	// Host is the link's host, empty when the link is not a URL at all.
	Host string
	// Plain is true for a plain-http link.
	Plain bool
}

func (e *UnsafeLinkError) Error() string {
	if e.Plain {
		return fmt.Sprintf("refused the bundle link of static export job %s: it uses plain http (host %s), and an "+
			"unencrypted link would expose the bundle and its signature to anyone on the network path; plain http "+
			"is accepted only from an API on a loopback address", e.JobID, e.Host)
	}
	return fmt.Sprintf("refused the bundle link of static export job %s: it is not an absolute http(s) URL", e.JobID)
}

// checkBundleLink refuses a link that is not an absolute http(s) URL, and
// a plain-http one unless the API itself is loopback (the in-repo fake, a
// local test server): GenerateBundle is the one place every consumer of a
// link (the bundle resource, the ephemeral resource, the archive download)
// gets it from.
func (c *Client) checkBundleLink(jobID, link string) error {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return &UnsafeLinkError{JobID: jobID}
	}
	if u.Scheme == "http" && !isLoopback(c.baseURL.Hostname()) {
		return &UnsafeLinkError{JobID: jobID, Host: u.Host, Plain: true}
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

// cleanExportJob cleans the job's status and failure reason, which reach
// errors and diagnostics.
func (c *Client) cleanExportJob(job *StaticExportJob) {
	job.Status = c.serverText(job.Status)
	if job.Error != nil {
		reason := c.serverText(*job.Error)
		job.Error = &reason
	}
}
