package provider

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// What the test files of this package share: a test's world (the fake API
// and the provider on its clock), version gates, and checks of what
// Terraform says, what the API was asked, what is in state and what is on
// disk. What internal/docstest's tests need too is in internal/acctest (the
// Env itself, the provider block, ExpectError, the checks of a bundle's
// link and an archive on disk, the fake's counts); the HCL the tests apply
// is built in config_test.go; the CLI is driven by internal/acctest. A helper
// that one file alone uses stays in that file.

// TestMain runs the tests, then removes the provider binary that the
// real-binary tests share (acctest.Built). The CLI is looked up by the tests
// that need it (acctest.Path), so that the others run without one.
func TestMain(m *testing.M) { acctest.Main(m) }

// testStart is the virtual moment every acceptance test begins at.
var testStart = fakeapitest.Start

// One test's world: an acctest.Env, the fake API on a virtual clock and
// the provider on the same clock, in the test process.

// testProvider is the provider under test for a test's fake API: on its
// clock, and with its HTTP client where it has one (newTLSTestEnv).
func testProvider(api *fakeapitest.API) provider.Provider {
	return &mintlifyProvider{version: "test", clock: api.Clock, httpClient: api.HTTPClient}
}

// newTestEnv serves the fake, every exchange validated against the in-repo
// OpenAPI description.
func newTestEnv(t *testing.T, opts ...fakeapi.Option) *acctest.Env {
	t.Helper()
	return acctest.New(t, testProvider, fakeapitest.Fake(opts...))
}

// newUncheckedTestEnv serves the fake without the contract check, for
// faults that break an answer's body (a truncated or malformed JSON body),
// which the checker would rightly report as a violation.
func newUncheckedTestEnv(t *testing.T, opts ...fakeapi.Option) *acctest.Env {
	t.Helper()
	return acctest.New(t, testProvider, fakeapitest.Unchecked(), fakeapitest.Fake(opts...))
}

// newTestEnvWithHandler serves the fake behind wrap, for tests that mount it
// under a path prefix.
func newTestEnvWithHandler(t *testing.T, wrap func(http.Handler) http.Handler, opts ...fakeapi.Option) *acctest.Env {
	t.Helper()
	return acctest.New(t, testProvider, fakeapitest.Fake(opts...),
		fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler { return wrap(fake) }))
}

// newTLSTestEnv serves the fake over TLS, checked against the contract, and
// gives it a name that is not loopback: base_url is https://example.com
// (which the test server's certificate covers), and the provider's HTTP
// client dials the fake's loopback address whatever the host.
func newTLSTestEnv(t *testing.T, opts ...fakeapi.Option) *acctest.Env {
	t.Helper()
	return acctest.New(t, testProvider, fakeapitest.TLS(), fakeapitest.Fake(opts...))
}

// untaint runs `terraform untaint` in the working directory of the running
// acceptance test, as a user would after an interrupted create.
func untaint(t *testing.T, root, address string) {
	t.Helper()
	var dir string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "terraform.tfstate" {
			dir = filepath.Dir(p)
		}
		return nil
	})
	if dir == "" {
		t.Fatalf("no terraform.tfstate under %s", root)
	}
	cmd := exec.Command(acctest.CLIPath(t), "untaint", "-no-color", address)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform untaint %s: %v\n%s", address, err, out)
	}
}

// Version gates: a test of a feature that an older CLI lacks skips under
// it, in words that make test-compat counts as a version skip.

// ephemeralResources gates the tests of ephemeral resources, which Terraform
// supports from 1.10 and OpenTofu from 1.11.
var ephemeralResources = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)}

// Resource identity needs Terraform 1.12 or OpenTofu 1.12.
var identityVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// Actions need Terraform 1.14; OpenTofu has none (its 1.12 is below the
// gate as well).
var actionVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// What Terraform says.

// refusal is a configuration that must fail at plan time with the phrases
// of want (separated by "|", see acctest.ExpectError).
type refusal struct{ config, want string }

// expectRefusedAtPlan plans each configuration, expects its error, and then
// checks that none of them sent a request.
func expectRefusedAtPlan(t *testing.T, env *acctest.Env, refusals []refusal) {
	t.Helper()
	var steps []resource.TestStep
	for _, r := range refusals {
		steps = append(steps, resource.TestStep{
			Config:      r.config,
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(strings.Split(r.want, "|")...),
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.ProviderFactories(), Steps: steps})
	if n := len(env.Fake.Requests()); n != 0 {
		t.Errorf("bad input reached the API: %d requests, want 0", n)
	}
}

// expectApplyFails applies config and expects an error with the phrases of
// want; then that requests recorded requests matched match, and that jobs
// export jobs exist.
func expectApplyFails(t *testing.T, env *acctest.Env, config string, want []string, match func(*http.Request) bool, requests, jobs int) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps:                    []resource.TestStep{{Config: config, ExpectError: acctest.ExpectError(want...)}},
	})
	if n := countMatching(env.Fake.Requests(), match); n != requests {
		t.Errorf("matching requests = %d, want %d", n, requests)
	}
	if n := env.Fake.ExportJobsStarted(); n != jobs {
		t.Errorf("export jobs started = %d, want %d", n, jobs)
	}
}

// splitLines splits a command's output into lines.
func splitLines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// What the API was asked.

// countMatching counts the recorded requests that match.
func countMatching(reqs []fakeapi.Request, match func(*http.Request) bool) int {
	n := 0
	for _, r := range reqs {
		if match(&http.Request{Method: r.Method, URL: &url.URL{Path: r.Path}}) {
			n++
		}
	}
	return n
}

// startRequests counts the requests that started an export job.
func startRequests(env *acctest.Env) int {
	n := 0
	for _, r := range env.Fake.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/static-export/jobs" {
			n++
		}
	}
	return n
}

// exportJobsStarted checks how many start requests reached the API.
func exportJobsStarted(env *acctest.Env, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := startRequests(env); n != want {
			return fmt.Errorf("%d start requests reached the API, want %d", n, want)
		}
		return nil
	}
}

// downloadRequests counts the bundle downloads the API served.
func downloadRequests(env *acctest.Env) int {
	n := 0
	for _, r := range env.Fake.Requests() {
		if strings.HasPrefix(r.Path, "/bundles/") {
			n++
		}
	}
	return n
}

// What is in state.

// knownJobID matches a static export job's id.
func knownJobID() knownvalue.Check {
	return knownvalue.StringRegexp(regexp.MustCompile(`^se_[0-9a-f]{16}$`))
}

// agentJobID matches an agent job's id.
var agentJobID = knownvalue.StringRegexp(regexp.MustCompile(`^aj_[0-9a-f]{16}$`))

// rfc3339 matches a timestamp as the provider writes it, in UTC.
var rfc3339 = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`)

// signature matches a presigned link's signature, the secret part of it.
var signature = regexp.MustCompile(`X-Amz-Signature=([0-9a-f]+)`)

// capture keeps an attribute's value for a later step to compare.
func capture(dst *string) resource.CheckResourceAttrWithFunc {
	return func(v string) error {
		*dst = v
		return nil
	}
}

// positive checks an integer attribute.
func positive(v int64) error {
	if v <= 0 {
		return fmt.Errorf("want a positive number, got %d", v)
	}
	return nil
}

// Agent jobs in the fake.

// seedImportableAgentJobs adds agent jobs started outside Terraform:
// aj_running (active for 10 more minutes) and aj_done, both completing
// with a pull request.
func seedImportableAgentJobs(env *acctest.Env) {
	env.Fake.AddAgentJob(acctest.ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_running", Repository: fakeapi.AgentRepository, ActiveFor: 10 * time.Minute, PRLink: acctest.Ptr(fakeapi.AgentRepository + "/pull/7"),
	})
	env.Fake.AddAgentJob(acctest.ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_done", Repository: fakeapi.AgentRepository, PRLink: acctest.Ptr(fakeapi.AgentRepository + "/pull/8"),
	})
}

// Files on disk.

// writeUserFile writes a file of the user's at p.
func writeUserFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// mustRemove deletes a file, as a user might.
func mustRemove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

// The rest.

// randomKey is an API key no other test uses, for searching output for it.
func randomKey(t *testing.T) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "mint_" + hex.EncodeToString(b)
}

// syncBuffer collects a process's output from several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) WriteString(s string) { _, _ = b.Write([]byte(s)) }

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tfjsonpathRoot is the path of a top-level attribute.
func tfjsonpathRoot(name string) tfjsonpath.Path { return tfjsonpath.New(name) }
