package docstest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The module of the guide "Testing modules that use this provider", and
// its test file, with the mocked provider whose defaults the guide
// documents.
var (
	testKitModule = filepath.Join("..", "..", "examples", "guides", "testing-modules", "docs-release")
	testKitFile   = filepath.Join("tests", "docs_release.tftest.hcl")
)

// testsPassed reads the summary line of `terraform test` and `tofu test`.
var testsPassed = regexp.MustCompile(`Success! (\d+) passed, 0 failed`)

// mockProviderVersion is the constraint a CLI must meet for `mock_provider`
// in test files: Terraform added it in 1.7, OpenTofu in 1.8. Both print
// their own version in `version -json`, which providertest.SkipUnlessVersion
// checks the constraint against.
func mockProviderVersion(t *testing.T) string {
	t.Helper()
	if openTofu(t) {
		return ">= 1.8"
	}
	return ">= 1.7"
}

// openTofu reports whether the CLI under test is OpenTofu, for a feature
// that came to the two CLIs in different releases.
func openTofu(t *testing.T) bool {
	t.Helper()
	bin, err := devprovider.IdentifyBinary(providertest.CLIPath(t), os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	return bin.OpenTofu
}

// testKitFiles returns the module's main.tf and its test file, parsed so
// that a test can change the test file.
func testKitFiles(t *testing.T) (mainTF []byte, tests *hclwrite.File) {
	t.Helper()
	mainTF, err := os.ReadFile(filepath.Join(testKitModule, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(testKitModule, testKitFile))
	if err != nil {
		t.Fatal(err)
	}
	tests, diags := hclwrite.ParseConfig(raw, testKitFile, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing the module's tests: %v", diags)
	}
	return mainTF, tests
}

// runModuleTests writes the module into the CLI's directory, with tests as
// its test file, runs `init` and `test`, and fails unless every run block
// of tests passed.
func runModuleTests(t *testing.T, cli *providertest.CLI, mainTF []byte, tests *hclwrite.File) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(cli.Dir, "tests"), 0o700); err != nil {
		t.Fatal(err)
	}
	cli.WriteFile("main.tf", string(mainTF))
	cli.WriteFile(testKitFile, string(tests.Bytes()))
	runs := 0
	for _, block := range tests.Body().Blocks() {
		if block.Type() == "run" {
			runs++
		}
	}
	cli.MustRun("init", "-input=false", "-no-color")
	res := cli.Run("test", "-no-color")
	m := testsPassed.FindStringSubmatch(res.Output)
	if res.Exit != 0 || m == nil || m[1] != strconv.Itoa(runs) {
		t.Fatalf("the module's %d runs did not all pass:\n%s", runs, res)
	}
}

// TestExampleModuleTestKitMocked runs the example module's tests as a user runs
// them: `terraform test` (or `tofu test`) with the mocked provider of the
// test file, whose defaults keep helm_values YAML, the links https links
// and the ids in their API shapes, as its assertions check. The CLI still
// reads the provider's schema, from the provider built from this checkout;
// no API is served.
func TestExampleModuleTestKitMocked(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	providertest.SkipUnlessVersion(t, mockProviderVersion(t))
	mainTF, tests := testKitFiles(t)
	runModuleTests(t, providertest.BuiltCLI(t), mainTF, tests)
}

// TestAccExampleModuleTestKitAgainstTheStandIn runs the same test file against
// the stand-in API instead of the mocked provider: its mock_provider block
// gives way to a provider block pointed at the fake, and every assertion
// must hold for what the API really answers, so the mocked defaults are in
// the shapes the API gives. The fake's links point at an https storage
// host, as the API's do.
func TestAccExampleModuleTestKitAgainstTheStandIn(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	providertest.SkipUnlessVersion(t, ">= 1.6") // `terraform test`; no mock here
	env := newTestEnv(t,
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{DownloadHost: "https://storage.example.com"}),
		fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
			return fakeapi.DeploymentPlan{QueuedFor: 20 * time.Second, RunFor: 3 * time.Minute,
				CommitSHA: "3b1f0c9d2e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c", CommitRef: "main", Logs: []string{"Built 48 pages"}}
		}}))
	env.Fake.AddAgentJob(providertest.ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_8e7d4a063f9a2c1b", Repository: "https://github.com/acme/docs", Ref: providertest.Ptr("docs/release-notes"),
		ActiveFor: time.Minute, PRLink: providertest.Ptr("https://github.com/acme/docs/pull/42"),
	})
	env.Clock.Advance(2 * time.Minute)

	mainTF, tests := testKitFiles(t)
	mocks := 0
	for _, block := range tests.Body().Blocks() {
		if block.Type() == "mock_provider" {
			tests.Body().RemoveBlock(block)
			mocks++
		}
	}
	if mocks != 1 {
		t.Fatalf("the module's tests have %d mock_provider blocks, want 1", mocks)
	}
	provider, diags := hclwrite.ParseConfig([]byte(env.Config("")), "provider.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, block := range provider.Body().Blocks() {
		tests.Body().AppendBlock(block)
	}
	runModuleTests(t, env.CLI(t), mainTF, tests)
	var branches []string
	for _, d := range env.Fake.DeploymentRequests() {
		branches = append(branches, d.Branch)
	}
	// The docs deployment and the preview do not depend on each other:
	// Terraform triggers them in either order.
	slices.Sort(branches)
	if want := []string{"", "release-2026-12"}; !slices.Equal(branches, want) {
		t.Errorf("deployments triggered of branches %q, want %q (the docs and the preview)", branches, want)
	}
	if n := env.Fake.ExportJobsStarted(); n != 1 {
		t.Errorf("export jobs started = %d, want 1", n)
	}
}

// TestExampleModuleTestKitFailsWithoutTheDefaults runs the example
// module's tests with a bare `mock_provider "mintlify" {}`, whose made-up
// values are what the guide says they are: no chart values, no link, no ID
// in its API shape. Every assertion that reads one fails, so the defaults
// are what the mocked run passes by.
func TestExampleModuleTestKitFailsWithoutTheDefaults(t *testing.T) {
	t.Parallel()
	providertest.SkipUnlessVersion(t, mockProviderVersion(t))
	mainTF, tests := testKitFiles(t)
	for _, block := range tests.Body().Blocks() {
		if block.Type() == "mock_provider" {
			block.Body().Clear()
		}
	}
	cli := providertest.BuiltCLI(t)
	if err := os.MkdirAll(filepath.Join(cli.Dir, "tests"), 0o700); err != nil {
		t.Fatal(err)
	}
	cli.WriteFile("main.tf", string(mainTF))
	cli.WriteFile(testKitFile, string(tests.Bytes()))
	cli.MustRun("init", "-input=false", "-no-color")
	res := cli.Run("test", "-no-color")
	if res.Exit == 0 {
		t.Fatalf("the module's tests passed without the mocked defaults:\n%s", res)
	}
	for _, message := range []string{
		"helm_values is not the chart's values as YAML.", "bundle_url is not an https link.",
		"export_job_id is not a static export job ID.", "deployment_id is not a deployment status ID.",
		"preview_url is not the address of a preview.", "release_pull_request is not a pull request's link.",
	} {
		if !strings.Contains(oneLine(res.Output), message) {
			t.Errorf("without the defaults, no assertion failed with %q:\n%s", message, res)
		}
	}
}
