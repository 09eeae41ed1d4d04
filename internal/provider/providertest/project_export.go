package providertest

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The project-scoped static export contract (fakeapi.StaticExportOptions.Next):
// the bundle without `domain`, and what the API was asked under it.

// ProjectBundleConfig is a bundle resource named "docs" without `domain`,
// with extra arguments (HCL lines): the project-scoped contract, in the
// provider's project unless extra names another.
func ProjectBundleConfig(extra string) string {
	return fmt.Sprintf(`
resource "mintlify_static_export_bundle" "docs" {
  %[1]s
}
`, extra)
}

// NextOnly serves only the project-scoped contract, as the API will once
// the domain-scoped one is retired; NextAndToday serves both.
var (
	NextOnly     = fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext}})
	NextAndToday = fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeBoth}})
)

// ProjectJobID matches a project-scoped job's id.
var ProjectJobID = knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{24}$`))

// ProjectStarts counts the starts of project-scoped jobs that reached the
// API, whatever their answer.
func ProjectStarts(env *Env) int {
	n := 0
	for _, r := range env.Fake.Requests() {
		if r.Method == http.MethodPost && strings.HasPrefix(r.Path, "/v1/static-export/") &&
			strings.HasSuffix(r.Path, "/jobs") && r.Path != "/v1/static-export/jobs" {
			n++
		}
	}
	return n
}

// StartProjectExportOutsideTerraform starts a project-scoped export of
// projectID through the API client, as a CI script or the dashboard would,
// and returns its id.
func StartProjectExportOutsideTerraform(t *testing.T, env *Env, projectID string) string {
	t.Helper()
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(env.URL), mintlify.WithClock(env.Clock))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartProjectExport(t.Context(), projectID, mintlify.ProjectExportRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return job.JobID
}

// ExpectRetiredPlan fails t unless res, a plan of a domain-scoped bundle
// whose contract the API has retired (its calls answered 404 as a path
// without a route, or 410), changes nothing and warns once that the
// contract is retired: naming jobID, saying it neither replaces nor renews,
// what to change and the move guide, never that the job is gone.
func ExpectRetiredPlan(t *testing.T, res Result, jobID string) {
	t.Helper()
	out := strings.Join(strings.Fields(res.Output), " ")
	for _, want := range []string{"Warning: Domain-Scoped Static Export Retired", jobID, "neither replaces nor renews",
		"remove `domain`, `version` and `paths`, and set `project_id`", "Moving to project-scoped exports", "No changes."} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, res)
		}
	}
	if strings.Contains(out, "No Longer Exists") || strings.Count(out, "Static Export Retired") != 1 {
		t.Errorf("the plan speaks of a job gone, or repeats itself:\n%s", res)
	}
	if strings.Contains(out, "destroy") || strings.Contains(out, "replaced") {
		t.Errorf("the plan destroys or replaces something:\n%s", res)
	}
}
