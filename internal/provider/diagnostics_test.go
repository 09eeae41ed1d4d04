package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/agentjob"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/automation"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/deployment"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/staticexport"
)

// operations are an operation of every call, with the ids the tests look
// for.
var operations = []core.APIOperation{
	staticexport.StartStaticExportOp("docs.example.com"), staticexport.GetStaticExportJobOp("se_1"), staticexport.GenerateBundleOp("se_1"),
	staticexport.StartProjectExportOp("proj_1"), staticexport.GetProjectExportJobOp("proj_1", "6520f3a1c9b1a20012ab34cd"),
	agentjob.CreateAgentJobOp("proj_1"), agentjob.GetAgentJobOp("proj_1", "aj_1"), agentjob.SendAgentJobMessageOp("proj_1", "aj_1"),
	deployment.TriggerDeploymentOp("proj_1"), deployment.GetDeploymentOp("proj_1", "6650f1c2a0b1c2d300000001"),
	deployment.TriggerPreviewOp("proj_1", "feature/new-api"), automation.TriggerAutomationOp("proj_1", "6650f1c2a0b1c2d3000000a1"),
	automation.TriggerAutomationWebhookOp("proj_1", "6650f1c2a0b1c2d3000000a5"),
}

// opFor is the operation of the call with an operationId, if any.
func opFor(operationID string) (core.APIOperation, bool) {
	for _, op := range operations {
		if op.Call.OperationID == operationID {
			return op, true
		}
	}
	return core.APIOperation{}, false
}

// scopedSummaries is, for each call, the summary of its 404 and 409,
// and of a 400 to a prompt: the statuses whose meaning depends on the
// operation.
var scopedSummaries = map[string]map[int]string{
	"startStaticExportJob":        {404: "Mintlify API Endpoint Not Found", 409: "Mintlify API Conflict"},
	"getStaticExportJob":          {404: "Static Export Job Not Found", 409: "Mintlify API Conflict"},
	"generateStaticExportBundle":  {404: "Static Export Job Not Found", 409: "Static Export Not Finished"},
	"startProjectStaticExportJob": {404: "Mintlify Project Not Found", 409: "Another Static Export Is Running"},
	"getProjectStaticExportJob":   {404: "Static Export Job Not Found", 409: "Mintlify API Conflict"},
	"createAgentJob":              {400: "Mintlify Rejected The Prompt", 404: "Mintlify Project Not Found", 409: "Mintlify API Conflict"},
	"getAgentJob":                 {404: "Agent Job Not Found", 409: "Mintlify API Conflict"},
	"sendAgentJobMessage":         {400: "Mintlify Rejected The Prompt", 404: "Agent Job Not Found", 409: "Mintlify API Conflict"},
	"triggerDeployment":           {404: "Mintlify Project Not Found", 409: "Mintlify API Conflict"},
	"getDeploymentStatus":         {404: "Deployment Not Found", 409: "Mintlify API Conflict"},
	"triggerPreviewDeployment":    {400: "Mintlify Rejected The Preview", 404: "Mintlify Project Not Found", 409: "Mintlify API Conflict"},
	"triggerAutomation":           {400: "Mintlify Refused The Automation Run", 404: "Mintlify Automation Not Found", 409: "Mintlify API Conflict"},
	"triggerAutomationWebhook":    {400: "Mintlify Refused The Automation Run", 404: "Mintlify Automation Has No Webhook Trigger", 409: "Mintlify API Conflict"},
}

// commonSummaries are the summaries of the statuses that mean the same for
// every operation (with a text that names no cause, for 401 and 403: the
// causes are diagnostic_refusals_test.go's).
var commonSummaries = map[int]string{
	400: "Mintlify Rejected The Request",
	401: "Mintlify API Key Rejected",
	403: "Mintlify API Request Forbidden",
	429: "Mintlify API Rate Limit Exceeded",
	500: "Mintlify API Unavailable",
	503: "Mintlify API Unavailable",
}

// TestDiagnosticPerOperationAndStatus covers every (operation, status) pair
// the API's description documents, and 403, 404 and 409 on every operation
// besides: each diagnostic speaks of the operation that failed, quotes the
// API, and says nothing that belongs to another operation.
func TestDiagnosticPerOperationAndStatus(t *testing.T) {
	t.Parallel()
	doc, err := contract.Description()
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string][]int{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			call := op.OperationID
			if _, ok := opFor(call); !ok {
				t.Errorf("the API documents %s, which has no APIOperation constructor", op.OperationID)
				continue
			}
			for code := range op.Responses.Map() {
				if status, err := strconv.Atoi(code); err == nil && status >= 400 {
					pairs[call] = append(pairs[call], status)
				}
			}
		}
	}
	documented := 0
	for _, op := range operations {
		call := op.Call.OperationID
		documented += len(pairs[call])
		statuses := append(slices.Clone(pairs[call]), 401, 403, 404, 409, 429, 500)
		slices.Sort(statuses)
		for _, status := range slices.Compact(statuses) {
			t.Run(fmt.Sprintf("%s/%d", call, status), func(t *testing.T) {
				checkOperationDiagnostic(t, call, status)
			})
		}
	}
	if documented < 12 {
		t.Errorf("only %d documented error statuses found in the API description: %v", documented, pairs)
	}
}

func checkOperationDiagnostic(t *testing.T, call string, status int) {
	op, _ := opFor(call)
	const message = "Something the API said"
	d := op.Diagnostic(&mintlify.APIError{Route: "X /v", StatusCode: status, Message: message + "."})
	want, ok := scopedSummaries[call][status]
	if !ok {
		want, ok = commonSummaries[status]
	}
	if !ok {
		t.Fatalf("no expected summary for HTTP %d: add it to the table", status)
	}
	if d.Summary() != want {
		t.Errorf("summary %q, want %q", d.Summary(), want)
	}
	detail := d.Detail()
	if !strings.Contains(detail, fmt.Sprintf("HTTP %d", status)) || !strings.Contains(detail, message) {
		t.Errorf("detail does not quote the status and the API's message:\n%s", detail)
	}
	if !strings.Contains(detail, op.Doing) && !strings.Contains(detail, op.JobID) {
		t.Errorf("detail does not say which operation failed (%q):\n%s", op.Doing, detail)
	}
	text := strings.ToLower(d.Summary() + " " + detail)
	if strings.Contains(call, "StaticExport") {
		foreigners := []string{"agent", "project"}
		if strings.Contains(call, "Project") { // the next contract's calls run under a project
			foreigners = foreigners[:1]
		}
		for _, foreign := range foreigners {
			if strings.Contains(text, foreign) {
				t.Errorf("a static export diagnostic speaks of %q:\n%s", foreign, detail)
			}
		}
	} else {
		foreigners := []string{"static export", "enterprise", "plan"}
		if call == deployment.CallTriggerPreview.OperationID {
			foreigners = foreigners[:2] // previews are on some plans only: a 403 may say so
		}
		for _, foreign := range foreigners {
			if strings.Contains(text, foreign) {
				t.Errorf("an agent job diagnostic speaks of %q:\n%s", foreign, detail)
			}
		}
	}
}

// TestNotFoundDiagnostics: one builder words every 404, names the subject,
// takes the caller's advice, and points at the attribute that names the
// subject.
func TestNotFoundDiagnostics(t *testing.T) {
	t.Parallel()
	notFound := &mintlify.APIError{StatusCode: http.StatusNotFound, Message: "No static export job with ID \"se_1\""}
	d := staticexport.GetStaticExportJobOp("se_1").At(path.Root("job_id")).Diagnostic(notFound)
	if d.Summary() != "Static Export Job Not Found" || !strings.Contains(d.Detail(), `has no static export job "se_1"`) ||
		!strings.Contains(d.Detail(), "Check the job ID") {
		t.Errorf("default 404: %s: %s", d.Summary(), d.Detail())
	}
	if with, ok := d.(diag.DiagnosticWithPath); !ok || !with.Path().Equal(path.Root("job_id")) {
		t.Errorf("the 404 does not point at job_id: %#v", d)
	}
	d = staticexport.GenerateBundleOp("se_1").Advise(http.StatusNotFound, "Do this instead.").Diagnostic(notFound)
	if !strings.HasSuffix(d.Detail(), "Do this instead.") || strings.Contains(d.Detail(), "Check the job ID") {
		t.Errorf("advised 404: %s", d.Detail())
	}
	if _, ok := d.(diag.DiagnosticWithPath); ok {
		t.Errorf("a 404 without an attribute points at one: %#v", d)
	}
	d = staticexport.GetStaticExportJobOp("se_1").At(path.Root("job_id")).Diagnostic(&mintlify.APIError{StatusCode: 502, Message: "Bad gateway"})
	if _, ok := d.(diag.DiagnosticWithPath); ok {
		t.Errorf("a 502 points at the attribute: %#v", d)
	}
}

// TestDiagnosticKinds: each kind of failure gets its own summary and a
// detail that names the operation and what to do.
func TestDiagnosticKinds(t *testing.T) {
	t.Parallel()
	const route = "GET /v1/static-export/jobs/se_1"
	apiErr := func(status int, msg string) error {
		return &mintlify.APIError{Route: route, StatusCode: status, Message: msg}
	}
	transport := &mintlify.TransportError{Route: route, Err: errors.New("connection reset by peer")}
	read := staticexport.GetStaticExportJobOp("se_1")
	start := staticexport.StartStaticExportOp("docs.example.com")
	cases := []struct {
		name    string
		op      core.APIOperation
		err     error
		summary string
		detail  []string
	}{
		{"401", read, apiErr(401, "Invalid or missing API key"), "Mintlify API Key Rejected", []string{"HTTP 401", "`api_key`", "`MINTLIFY_API_KEY`"}},
		{"403", read, apiErr(403, "Not enabled"), "Static Export Not Enabled", []string{"HTTP 403", "Enterprise plans"}},
		{"400", start, apiErr(400, "domain must be a bare hostname."), "Mintlify Rejected The Request", []string{"HTTP 400: domain must be a bare hostname)"}},
		{"404", read, apiErr(404, "Job not found"), "Static Export Job Not Found", []string{"while reading static export job se_1", "HTTP 404"}},
		{"409", staticexport.GenerateBundleOp("se_1"), apiErr(409, "Job is running"), "Static Export Not Finished", []string{"HTTP 409: Job is running", "once the job completes"}},
		{"429 after retries", read, &mintlify.RetryError{Attempts: 6, Err: apiErr(429, "Rate limit exceeded")},
			"Mintlify API Rate Limit Exceeded", []string{"HTTP 429 (Rate limit exceeded)", "after 6 attempts", "`max_retries`"}},
		{"502 once", read, apiErr(502, "Bad gateway"), "Mintlify API Unavailable", []string{"HTTP 502 (Bad gateway) while reading static export job se_1. The problem"}},
		{"transport after retries", read, &mintlify.RetryError{Attempts: 3, Err: transport},
			"Mintlify API Unreachable", []string{"after 3 attempts: connection reset by peer", "`request_timeout`"}},
		{"deadline before a retry", read, &mintlify.RetryError{Attempts: 2, Err: apiErr(503, "Down"), Stop: context.DeadlineExceeded, Wait: 40 * time.Second, Left: 12 * time.Second},
			"Mintlify API Retry Would Outlast The Timeout", []string{"(HTTP 503: Down)", "due in 40s", "ends in 12s", "`timeouts`"}},
		{"rate limit past the deadline", read, &mintlify.RetryError{Attempts: 1, Stop: context.DeadlineExceeded, Wait: time.Minute, Left: 20 * time.Second,
			Err: &mintlify.APIError{StatusCode: 429, Message: "Rate limit exceeded", RetryAfter: 24 * time.Hour}},
			"Mintlify API Rate Limiting", []string{"rate limiting: it answered HTTP 429 (Rate limit exceeded) while reading static export job se_1",
				"wait 24h0m0s (`Retry-After`); the provider waits at most 1m0s", "ends in 20s", "stopped at once"}},
		{"deadline", read, fmt.Errorf("waiting: %w", context.DeadlineExceeded), "Mintlify Operation Timed Out", []string{"Raise the resource's `timeouts`"}},
		{"interrupted", read, &mintlify.RetryError{Attempts: 2, Err: transport, Stop: context.Canceled}, "Operation Interrupted", []string{"interrupted while reading static export job se_1"}},
		{"start refused", start, &mintlify.StartError{Err: apiErr(401, "Invalid")}, "Mintlify API Key Rejected", []string{"No static export job was started."}},
		{"start lost", start, &mintlify.StartError{MayHaveStarted: true, Err: transport}, "Static Export May Have Started",
			[]string{"connection reset by peer", "a static export job may have started", "did not retry", "nothing was saved in state"}},
		{"agent job lost", agentjob.CreateAgentJobOp("proj_1"), &mintlify.StartError{MayHaveStarted: true, Err: transport},
			"Agent Job May Have Started", []string{"an agent job may have started in project proj_1", "second pull request"}},
		{"agent job refused", agentjob.CreateAgentJobOp("proj_1"), &mintlify.StartError{Err: apiErr(400, "prompt is required")},
			"Mintlify Rejected The Prompt", []string{"Correct `prompt`", "No agent job was started."}},
		{"follow-up lost", agentjob.SendAgentJobMessageOp("proj_1", "aj_1"), &mintlify.StartError{MayHaveStarted: true, Err: transport},
			"Follow-Up Message May Have Been Sent", []string{"agent job aj_1 may be working on it"}},
		{"follow-up refused", agentjob.SendAgentJobMessageOp("proj_1", "aj_1"), &mintlify.StartError{Err: apiErr(429, "Slow down")},
			"Mintlify API Rate Limit Exceeded", []string{"The follow-up message was not sent."}},
		{"a read is never a start", read, &mintlify.StartError{MayHaveStarted: true, Err: transport},
			"Mintlify API Unreachable", []string{"connection reset by peer"}},
		{"waiting", read.While("waiting for static export job se_1 (`running` at 40%)"), apiErr(500, "Oops"),
			"Mintlify API Unavailable", []string{"while waiting for static export job se_1 (`running` at 40%)"}},
	}
	for _, c := range cases {
		d := c.op.Diagnostic(c.err)
		if d.Summary() != c.summary {
			t.Errorf("%s: summary %q, want %q", c.name, d.Summary(), c.summary)
		}
		for _, want := range c.detail {
			if !strings.Contains(d.Detail(), want) {
				t.Errorf("%s: detail lacks %q:\n%s", c.name, want, d.Detail())
			}
		}
	}
}
