package fakeapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// StartRequest is the body of "Start static export job", as decoded.
type StartRequest struct {
	Domain  string   `json:"domain"`
	Version string   `json:"version,omitempty"`
	Paths   []string `json:"paths,omitempty"`
}

// bareHostnameHint prefixes every message about a malformed domain.
const bareHostnameHint = "domain must be a bare hostname such as docs.example.com"

// decodeStartRequest decodes and validates a start request body. Its error
// messages are meant for the API's 400 response.
func decodeStartRequest(body []byte) (StartRequest, error) {
	var req StartRequest
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return req, errors.New(`request body is required: send a JSON object such as {"domain": "docs.example.com"}`)
	}
	if trimmed[0] != '{' {
		return req, errors.New("request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&req); err != nil {
		return req, decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return req, errors.New("request body must contain a single JSON object")
	}
	if err := validateDomain(req.Domain); err != nil {
		return req, err
	}
	return req, validatePaths(req.Paths)
}

// decodeError turns a JSON decoding error into an API message.
func decodeError(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		field, _, _ := strings.Cut(typeErr.Field, ".")
		switch field {
		case "domain", "version":
			return fmt.Errorf("%s must be a string", field)
		case "paths":
			return errors.New("paths must be an array of strings")
		}
	}
	return fmt.Errorf("request body is not valid JSON: %v", err)
}

// validateDomain checks that domain is a bare, lowercase hostname, and says
// precisely what to remove when it is not.
func validateDomain(domain string) error {
	if domain == "" {
		return errors.New("domain is required: provide the hostname of the deployment, such as docs.example.com")
	}
	if i := strings.Index(domain, "://"); i >= 0 {
		return fmt.Errorf("%s: remove the scheme %q", bareHostnameHint, domain[:i+3])
	}
	if strings.ContainsFunc(domain, unicode.IsSpace) {
		return fmt.Errorf("%s: remove the spaces from %q", bareHostnameHint, domain)
	}
	if i := strings.Index(domain, "/"); i >= 0 {
		if i == len(domain)-1 {
			return fmt.Errorf("%s: remove the trailing slash", bareHostnameHint)
		}
		return fmt.Errorf("%s: remove the path %q", bareHostnameHint, domain[i:])
	}
	if i := strings.Index(domain, ":"); i >= 0 {
		return fmt.Errorf("%s: remove the port %q", bareHostnameHint, domain[i:])
	}
	if lower := strings.ToLower(domain); lower != domain {
		return fmt.Errorf("%s: use lowercase letters (%q)", bareHostnameHint, lower)
	}
	if i := strings.IndexFunc(domain, func(r rune) bool { return !isHostnameRune(r) }); i >= 0 {
		return fmt.Errorf("%s: it contains the invalid character %q", bareHostnameHint, []rune(domain[i:])[0])
	}
	return validateLabels(domain)
}

// validateLabels checks the dot-separated labels of a hostname made only of
// lowercase letters, digits, hyphens and dots.
func validateLabels(domain string) error {
	if len(domain) > 253 {
		return fmt.Errorf("%s: it is longer than 253 characters", bareHostnameHint)
	}
	for label := range strings.SplitSeq(domain, ".") {
		switch {
		case label == "":
			return fmt.Errorf("%s: it must not start or end with a dot or contain two dots in a row", bareHostnameHint)
		case len(label) > 63:
			return fmt.Errorf("%s: the label %q is longer than 63 characters", bareHostnameHint, label)
		case strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-"):
			return fmt.Errorf("%s: the label %q must not start or end with a hyphen", bareHostnameHint, label)
		}
	}
	return nil
}

func isHostnameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.'
}

// validatePaths checks that every entry is a relative page path.
func validatePaths(paths []string) error {
	for i, p := range paths {
		switch {
		case p == "":
			return fmt.Errorf("paths[%d] must not be empty", i)
		case strings.HasPrefix(p, "/"):
			return fmt.Errorf("paths[%d] must be a page path without a leading slash: use %q instead of %q", i, strings.TrimLeft(p, "/"), p)
		case hasDotSegment(p):
			return fmt.Errorf(`paths[%d] must not contain "." or ".." segments: %q`, i, p)
		}
	}
	return nil
}

func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
