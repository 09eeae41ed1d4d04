package fakeapi

import (
	"net/http"
	"strings"
)

// Request matchers for FaultRule.Match.

// IsAPIRequest matches every request to the API (/v1/... and /v2/...), but
// not bundle downloads.
func IsAPIRequest(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/v1/") || strings.HasPrefix(r.URL.Path, "/v2/")
}

// IsStartRequest matches "Start static export job".
func IsStartRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.TrimSuffix(r.URL.Path, "/") == "/v1/static-export/jobs"
}

// IsStatusRequest matches "Get static export job status".
func IsStatusRequest(r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, "/v1/static-export/jobs/")
	return ok && r.Method == http.MethodGet && rest != "" && !strings.Contains(rest, "/")
}

// IsBundleRequest matches "Generate bundle".
func IsBundleRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/static-export/jobs/") &&
		strings.HasSuffix(r.URL.Path, "/bundle")
}

// IsAgentJobRequest matches "Get agent job".
func IsAgentJobRequest(r *http.Request) bool {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/v2/agent/"), "/")
	return r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/agent/") &&
		len(parts) == 3 && parts[0] != "" && parts[1] == "job" && parts[2] != ""
}

// IsCreateAgentJobRequest matches "Create agent job".
func IsCreateAgentJobRequest(r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, "/v2/agent/")
	project, tail, _ := strings.Cut(rest, "/")
	return ok && r.Method == http.MethodPost && project != "" && tail == "job"
}

// IsAgentMessageRequest matches "Send follow-up message".
func IsAgentMessageRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v2/agent/") &&
		strings.HasSuffix(r.URL.Path, "/message")
}

// AnyOf matches the requests that any of matchers matches.
func AnyOf(matchers ...func(*http.Request) bool) func(*http.Request) bool {
	return func(r *http.Request) bool {
		for _, m := range matchers {
			if m(r) {
				return true
			}
		}
		return false
	}
}
