package docstest

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The move guide (guides/project-scoped-exports) walked from the chain
// guide's state (guides/commit-to-cluster), on one stand-in API that serves
// both contracts and then retires the domain-scoped one. The helm_release
// of both examples is a terraform_data holding the values the chart would
// get (releaseAsData), so the test needs no cluster.

// chainVarFlags are the chain's variables for one docs commit.
var chainVarFlags = []string{"-var=docs_commit=4f1c2e9", "-var=chart_repository=oci://registry.example.com/mintlify"}

// TestAccExampleMoveFromTheChain: from the chain guide's state, applied
// while Mintlify serves both contracts, the move guide's configuration
// starts exactly one new export and hands the release a ZIP link, the
// deployed commit as its version, and no null value; a plan after it is
// empty. A second directory with the same state does not move: once the
// domain-scoped calls answer 404, then 410, its plans change nothing,
// destroy nothing, and say what to change, while the directory that moved
// plans no change without a word; applying the move guide's configuration
// then starts one export and the release gets its ZIP link.
func TestAccExampleMoveFromTheChain(t *testing.T) {
	t.Parallel()
	checker := contract.New(t)
	env := providertest.NewEnv(t, testProvider, fakeapitest.Checker(checker),
		fakeapitest.Fake(deploysCommit(), providertest.NextAndToday))
	chain := env.Config(releaseAsData(t, readExample(t, filepath.Join("guides", "commit-to-cluster"), "main.tf")))
	moved := env.Config(releaseAsData(t, readExample(t, filepath.Join("guides", "project-scoped-exports"), "main.tf")))
	apply := append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, chainVarFlags...)

	// The chain guide's state, under both contracts.
	mover := env.CLI(t)
	mover.WriteConfig(chain)
	mover.MustRun(apply...)
	expectRelease(t, mover, "the chain guide's configuration", "bundle.tar.gz")
	domainJob := mover.Instance(bundleAddr).Attr("job_id")
	stayer := env.CLI(t)
	stayer.WriteConfig(chain)
	stayer.WriteFile("terraform.tfstate", mover.ReadFile("terraform.tfstate"))

	// The move, while Mintlify serves both contracts.
	mover.WriteConfig(moved)
	res := planExit(t, mover, 2)
	for _, want := range []string{bundleAddr + " must be replaced", "Plan: 1 to add, 1 to change, 1 to destroy."} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("the move's plan does not say %q:\n%s", want, res)
		}
	}
	mover.MustRun(apply...)
	expectRelease(t, mover, "after the move", "export.zip")
	expectExports(t, env, "after the move", 1, 1)
	planExit(t, mover, 0)

	// Retirement day: the domain-scoped calls answer 404 (no route), then 410.
	for _, status := range []int{404, 410} {
		env.Fake.Retire(status)
		providertest.ExpectRetiredPlan(t, planExit(t, stayer, 0), domainJob)
		if res := planExit(t, mover, 0); strings.Contains(res.Output, "Warning") {
			t.Errorf("after the retirement (%d), the moved configuration's plan warns:\n%s", status, res)
		}
	}

	// The move after the day.
	stayer.WriteConfig(moved)
	stayer.MustRun(apply...)
	expectRelease(t, stayer, "the move after the retirement", "export.zip")
	expectExports(t, env, "after the move after the retirement", 1, 2)
	planExit(t, stayer, 0)

	if got := len(env.Fake.DeploymentRequests()); got != 1 {
		t.Errorf("%d deployments triggered, want the chain's one: the move deploys nothing", got)
	}
	expectOnlyRetiredViolations(t, checker)
}

// releaseAsData replaces an example's helm_release with a terraform_data
// "release" whose output is what the chart would get: each entry of
// `values` decoded from YAML, and each `set` and `set_sensitive` by name.
func releaseAsData(t *testing.T, example string) string {
	t.Helper()
	file, diags := hclwrite.ParseConfig([]byte(example), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var input []string
	for _, block := range file.Body().Blocks() {
		if block.Type() != "resource" || block.Labels()[0] != "helm_release" {
			continue
		}
		if attr := block.Body().GetAttribute("values"); attr != nil {
			input = append(input, "values = [for v in "+string(attr.Expr().BuildTokens(nil).Bytes())+" : yamldecode(v)]")
		}
		for _, name := range []string{"set", "set_sensitive"} {
			if attr := block.Body().GetAttribute(name); attr != nil {
				input = append(input, name+" = { for s in "+string(attr.Expr().BuildTokens(nil).Bytes())+" : s.name => s.value }")
			}
		}
		file.Body().RemoveBlock(block)
	}
	if len(input) == 0 {
		t.Fatal("the example has no helm_release with values")
	}
	return string(file.Bytes()) + "\nresource \"terraform_data\" \"release\" {\n  input = {\n    " +
		strings.Join(input, "\n    ") + "\n  }\n}\n"
}

// expectRelease checks what the chart would get from the release in the
// working directory's state: the deployed commit as staticExport.version,
// a link to archive (the file its path ends in), and no null value.
func expectRelease(t *testing.T, cli *providertest.CLI, when, archive string) {
	t.Helper()
	// The output of terraform_data is dynamic: its state holds the value
	// beside its type.
	dynamic, _ := cli.Instance("terraform_data.release").Attrs["output"].(map[string]any)
	output, _ := dynamic["value"].(map[string]any)
	if output == nil {
		t.Fatalf("%s: the release's values are not in state: %v", when, dynamic)
	}
	for _, null := range nulls("", output) {
		t.Errorf("%s: the release's value %s is null", when, null)
	}
	values, _ := output["values"].([]any)
	var version any
	for _, v := range values {
		if se, ok := v.(map[string]any)["staticExport"].(map[string]any); ok {
			version = se["version"]
		}
	}
	if version != "3b1f0c9" {
		t.Errorf("%s: staticExport.version = %v, want the deployed commit 3b1f0c9 (values %v)", when, version, values)
	}
	sets, _ := output["set_sensitive"].(map[string]any)
	link, _ := sets["staticExport.bundleUrl"].(string)
	u, err := url.Parse(link)
	if err != nil || path.Base(u.Path) != archive || u.Query().Get("X-Amz-Signature") == "" {
		t.Errorf("%s: staticExport.bundleUrl = %q, want a presigned link to %s", when, u.Redacted(), archive)
	}
}

// nulls lists the paths of the null values in v.
func nulls(at string, v any) []string {
	var found []string
	switch v := v.(type) {
	case nil:
		return []string{at}
	case map[string]any:
		for k, e := range v {
			found = append(found, nulls(at+"."+k, e)...)
		}
	case []any:
		for i, e := range v {
			found = append(found, nulls(fmt.Sprintf("%s[%d]", at, i), e)...)
		}
	}
	slices.Sort(found)
	return found
}

// planExit runs `terraform plan -detailed-exitcode` with the chain's
// variables, and fails t unless it exits want.
func planExit(t *testing.T, cli *providertest.CLI, want int) providertest.Result {
	t.Helper()
	res := cli.Run(append([]string{"plan", "-detailed-exitcode", "-no-color", "-input=false"}, chainVarFlags...)...)
	if res.Exit != want {
		t.Fatalf("want exit %d:\n%s", want, res)
	}
	return res
}

// expectExports checks how many domain-scoped and project-scoped export
// jobs the stand-in started.
func expectExports(t *testing.T, env *providertest.Env, when string, domain, project int) {
	t.Helper()
	if d, p := len(env.Fake.JobIDs()), len(env.Fake.ProjectJobIDs()); d != domain || p != project {
		t.Errorf("%s: %d domain-scoped and %d project-scoped exports started, want %d and %d", when, d, p, domain, project)
	}
}

// retiredCall is a contract violation that only the retirement explains:
// a domain-scoped call answered 404 (no route) or 410, neither of which
// the API's description documents.
var retiredCall = regexp.MustCompile(`^(POST /v1/static-export/jobs|GET /v1/static-export/jobs/\{jobId\}|` +
	`POST /v1/static-export/jobs/\{jobId\}/bundle) \(.*\) answered (404 .*No route for|410 .*has been retired)`)

// expectOnlyRetiredViolations fails t on any exchange with the stand-in
// that breaks the API's description, but for the retired calls.
func expectOnlyRetiredViolations(t *testing.T, checker *contract.Checker) {
	t.Helper()
	for _, v := range checker.Violations() {
		if !retiredCall.MatchString(v) {
			t.Errorf("API contract violation: %s", v)
		}
	}
}
