package provider

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/agentjob"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// TestAgentDiagnosticsSpeakOfAgentJobs: whatever fails in an agent job
// call, the diagnostic names the call's project (and job), and never
// speaks of static export or Enterprise plans; a 403 names the key's
// causes that the call's method allows.
func TestAgentDiagnosticsSpeakOfAgentJobs(t *testing.T) {
	t.Parallel()
	apiErr := func(status int) error {
		return &mintlify.APIError{Route: "POST /v2/agent/proj_1/job", StatusCode: status, Message: http.StatusText(status)}
	}
	transport := &mintlify.TransportError{Route: "POST /v2/agent/proj_1/job", Err: errors.New("connection reset by peer")}
	errs := map[string]error{
		"400":                 apiErr(400),
		"401":                 apiErr(401),
		"403":                 apiErr(403),
		"404":                 apiErr(404),
		"409":                 apiErr(409),
		"429 after retries":   &mintlify.RetryError{Attempts: 6, Err: apiErr(429)},
		"503":                 apiErr(503),
		"transport":           transport,
		"canceled":            context.Canceled,
		"may have started":    &mintlify.StartError{MayHaveStarted: true, Err: apiErr(502), What: "agent job"},
		"certainly not taken": &mintlify.StartError{Err: apiErr(403), What: "agent job"},
	}
	calls := map[string]core.APIOperation{
		"create":  agentjob.CreateAgentJobOp("proj_1"),
		"message": agentjob.SendAgentJobMessageOp("proj_1", "aj_1"),
		"read":    agentjob.GetAgentJobOp("proj_1", "aj_1"),
	}
	for callName, call := range calls {
		for errName, err := range errs {
			d := call.Diagnostic(err)
			text := d.Summary() + "\n" + d.Detail()
			for _, banned := range []string{"static export", "Static Export", "Enterprise", "export job"} {
				if strings.Contains(text, banned) {
					t.Errorf("%s, %s: the diagnostic mentions %q:\n%s", callName, errName, banned, text)
				}
			}
			if !strings.Contains(text, "proj_1") || call.JobID != "" && errName != "may have started" && !strings.Contains(text, call.JobID) {
				t.Errorf("%s, %s: the diagnostic does not name the project and job:\n%s", callName, errName, text)
			}
		}
	}
	d := calls["create"].Diagnostic(apiErr(403))
	if d.Summary() != "Mintlify API Request Forbidden" {
		t.Errorf("403: %s: %s", d.Summary(), d.Detail())
	}
	checkCauses(t, "403 of a create", d.Detail(), []string{"allowlist", "read-only"})
	checkCauses(t, "403 of a read", calls["read"].Diagnostic(apiErr(403)).Detail(), []string{"allowlist"})
}
