package staticexport

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// TestLinkCutShort: a timeout or an interrupt while the link of a completed
// job is generated says so, and never that the job keeps running.
func TestLinkCutShort(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err     error
		w       bundleWait
		summary string
		want    string
	}{
		{context.Canceled, bundleWait{creating: true}, "Static Export Interrupted", "Run `terraform apply` again to generate the link of this same job"},
		{context.Canceled, bundleWait{}, "Static Export Interrupted", "Apply again to generate the link"},
		{context.DeadlineExceeded, bundleWait{budget: core.Budget("timeouts.update", time.Minute)}, "Static Export Timed Out", "`timeouts.update` (1m0s) ran out"},
	} {
		d := linkCutShort(c.err, "se_1", c.w)
		if d.Summary() != c.summary || !strings.Contains(d.Detail(), c.want) || !strings.Contains(d.Detail(), "completed") ||
			strings.Contains(d.Detail(), "keeps running") {
			t.Errorf("%v, %+v: %s: %s", c.err, c.w, d.Summary(), d.Detail())
		}
	}
}

// TestMalformedProjectIDOfTheAPI: a project ID of the right form that the
// API still answers with 400 (the plan refuses every other) is named as
// such, with where to copy the right one.
func TestMalformedProjectIDOfTheAPI(t *testing.T) {
	t.Parallel()
	err := &mintlify.APIError{Route: "POST /v1/static-export/proj_gone0/jobs", StatusCode: http.StatusBadRequest,
		Message: "Invalid project id."}
	d := StartProjectExportOp("proj_gone0").Diagnostic(err)
	if d.Summary() != "Malformed Project ID" || !strings.Contains(d.Detail(), `"proj_gone0"`) ||
		!strings.Contains(d.Detail(), "API keys page") {
		t.Errorf("%s: %s", d.Summary(), d.Detail())
	}
}
