package providertest

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
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// What the families' tests share beyond the world of world.go: the
// provider of the test binary's families on the fake's clock (NewTestEnv),
// version gates, and checks of what Terraform says, what the API was asked,
// what is in state and what is on disk.

// families are the families of the provider under test: those that the
// test binary's TestMain names (Main).
var families []core.Family

// Main is the TestMain of a package's tests: they run against a provider
// that serves families. Then it removes the provider binary that the
// real-binary tests share (Built). The CLI is looked up by the
// tests that need it (Path), so that the others run without one.
func Main(m *testing.M, serve ...core.Family) {
	families = serve
	collectCLIGarbageLess()
	runRemovingBuilds(m)
}

// cliGOGC is the garbage collector's target for the processes the tests
// start: the CLI (a few hundred per package), and the providers and
// programs it runs. Each lives a fraction of a second and its heap stays
// near 55 MB whatever the target; at Go's default (100) it collects
// several times while it loads, and at 400 it spends about a fifth less
// CPU (internal/provider/deployment: 63 s of CPU against 51, the same peak
// memory). A GOGC the caller set is kept.
const cliGOGC = "400"

// collectCLIGarbageLess sets GOGC for the processes the tests start, not
// for the test binary, whose collector read it when the binary started.
func collectCLIGarbageLess() {
	if _, set := os.LookupEnv("GOGC"); !set {
		_ = os.Setenv("GOGC", cliGOGC)
	}
}

// TestStart is the virtual moment every acceptance test begins at.
var TestStart = fakeapitest.Start

// One test's world: an Env, the fake API on a virtual clock and
// the provider on the same clock, in the test process.

// TestProvider is the provider under test for a test's fake API: on its
// clock, and with its HTTP client where it has one (NewTLSTestEnv).
func TestProvider(api *fakeapi.Served) provider.Provider {
	return &core.Provider{Version: "test", Clock: api.Clock, HTTPClient: api.HTTPClient, Families: families}
}

// ProviderOn is the provider under test on clock c, for a test that
// serves it itself.
func ProviderOn(c clock.Clock) provider.Provider {
	return &core.Provider{Version: "test", Clock: c, Families: families}
}

// NewTestEnv serves the fake, every exchange validated against the in-repo
// OpenAPI description.
func NewTestEnv(t *testing.T, opts ...fakeapi.Option) *Env {
	t.Helper()
	return NewEnv(t, TestProvider, fakeapitest.Fake(opts...))
}

// NewUncheckedTestEnv serves the fake without the contract check, for
// faults that break an answer's body (a truncated or malformed JSON body),
// which the checker would rightly report as a violation.
func NewUncheckedTestEnv(t *testing.T, opts ...fakeapi.Option) *Env {
	t.Helper()
	return NewEnv(t, TestProvider, fakeapitest.Unchecked(), fakeapitest.Fake(opts...))
}

// NewTestEnvWithHandler serves the fake behind wrap, for tests that mount it
// under a path prefix.
func NewTestEnvWithHandler(t *testing.T, wrap func(http.Handler) http.Handler, opts ...fakeapi.Option) *Env {
	t.Helper()
	return NewEnv(t, TestProvider, fakeapitest.Fake(opts...),
		fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler { return wrap(fake) }))
}

// NewTLSTestEnv serves the fake over TLS, checked against the contract, and
// gives it a name that is not loopback: base_url is https://example.com
// (which the test server's certificate covers), and the provider's HTTP
// client dials the fake's loopback address whatever the host.
func NewTLSTestEnv(t *testing.T, opts ...fakeapi.Option) *Env {
	t.Helper()
	return NewEnv(t, TestProvider, fakeapitest.TLS(), fakeapitest.Fake(opts...))
}

// Untaint runs `terraform untaint` in the working directory of the running
// acceptance test, as a user would after an interrupted create.
func Untaint(t *testing.T, root, address string) {
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
	cmd := exec.Command(CLIPath(t), "untaint", "-no-color", address)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform untaint %s: %v\n%s", address, err, out)
	}
}

// Version gates: a test of a feature that an older CLI lacks skips under
// it, in words that make test-compat counts as a version skip.

// EphemeralResources gates the tests of ephemeral resources, which Terraform
// supports from 1.10 and OpenTofu from 1.11.
var EphemeralResources = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)}

// Resource identity needs Terraform 1.12 or OpenTofu 1.12.
var IdentityVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// Actions need Terraform 1.14; OpenTofu has none (its 1.12 is below the
// gate as well).
var ActionVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// What Terraform says.

// Refusal is a configuration that must fail at plan time with the phrases
// of want (separated by "|", see ExpectError).
type Refusal struct{ Config, Want string }

// ExpectRefusedAtPlan plans each configuration (one terraform plan each,
// in a working directory of its own), expects its error, and then checks
// that none of them sent a request. ExpectEachRefusedInOnePlan plans
// configurations that can share a plan once.
func ExpectRefusedAtPlan(t *testing.T, env *Env, refusals []Refusal) {
	t.Helper()
	for _, r := range refusals {
		cli := env.CLI(t)
		cli.WriteConfig(r.Config)
		res := cli.Run("plan", "-input=false", "-no-color")
		said := strings.Join(errorDiagnostics(res.Output), "\n")
		if res.Exit == 0 || !ExpectError(strings.Split(r.Want, "|")...).MatchString(said) {
			t.Errorf("the plan (exit %d) does not fail saying %q:\n%s\nthe configuration:\n%s",
				res.Exit, r.Want, Indent(res.Output), Indent(r.Config))
		}
	}
	expectNoRequest(t, env)
}

// expectNoRequest fails t when bad input reached env's API.
func expectNoRequest(t *testing.T, env *Env) {
	t.Helper()
	if n := len(env.Fake.Requests()); n != 0 {
		t.Errorf("bad input reached the API: %d requests, want 0", n)
	}
}

// ExpectApplyFails applies config and expects an error with the phrases of
// want; then that requests recorded requests matched match, and that jobs
// export jobs exist.
func ExpectApplyFails(t *testing.T, env *Env, config string, want []string, match func(*http.Request) bool, requests, jobs int) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps:                    []resource.TestStep{{Config: config, ExpectError: ExpectError(want...)}},
	})
	if n := CountMatching(env.Fake.Requests(), match); n != requests {
		t.Errorf("matching requests = %d, want %d", n, requests)
	}
	if n := env.Fake.ExportJobsStarted(); n != jobs {
		t.Errorf("export jobs started = %d, want %d", n, jobs)
	}
}

// SplitLines splits a command's output into lines.
func SplitLines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// What the API was asked.

// KeyCheckPath is the read with which a plan that creates something
// proves the API key (mintlify.Client.CheckKey).
const KeyCheckPath = "/v1/project/update-status/key-check"

// IsWorkRequest matches every request to the API but a plan's key check.
var IsWorkRequest = ButKeyChecks(fakeapi.IsAPIRequest)

// ButKeyChecks matches what match matches, but a plan's key check.
func ButKeyChecks(match func(*http.Request) bool) func(*http.Request) bool {
	return func(r *http.Request) bool { return match(r) && r.URL.Path != KeyCheckPath }
}

// WorkRequests counts the requests the API was sent, but the plans' key
// checks.
func (e *Env) WorkRequests() int {
	return CountMatching(e.Fake.Requests(), IsWorkRequest)
}

// CountMatching counts the recorded requests that match.
func CountMatching(reqs []fakeapi.Request, match func(*http.Request) bool) int {
	n := 0
	for _, r := range reqs {
		if match(&http.Request{Method: r.Method, URL: &url.URL{Path: r.Path}}) {
			n++
		}
	}
	return n
}

// startRequests counts the requests that started an export job.
func startRequests(env *Env) int {
	n := 0
	for _, r := range env.Fake.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/static-export/jobs" {
			n++
		}
	}
	return n
}

// ExportJobsStarted checks how many start requests reached the API.
func ExportJobsStarted(env *Env, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := startRequests(env); n != want {
			return fmt.Errorf("%d start requests reached the API, want %d", n, want)
		}
		return nil
	}
}

// DownloadRequests counts the bundle downloads the API served.
func DownloadRequests(env *Env) int {
	n := 0
	for _, r := range env.Fake.Requests() {
		if strings.HasPrefix(r.Path, "/bundles/") {
			n++
		}
	}
	return n
}

// What is in state.

// KnownJobID matches a static export job's id.
func KnownJobID() knownvalue.Check {
	return knownvalue.StringRegexp(regexp.MustCompile(`^se_[0-9a-f]{16}$`))
}

// AgentJobID matches an agent job's id.
var AgentJobID = knownvalue.StringRegexp(regexp.MustCompile(`^aj_[0-9a-f]{16}$`))

// Rfc3339 matches a timestamp as the provider writes it, in UTC.
var Rfc3339 = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`)

// Signature matches a presigned link's signature, the secret part of it.
var Signature = regexp.MustCompile(`X-Amz-Signature=([0-9a-f]+)`)

// Capture keeps an attribute's value for a later step to compare.
func Capture(dst *string) resource.CheckResourceAttrWithFunc {
	return func(v string) error {
		*dst = v
		return nil
	}
}

// Positive checks an integer attribute.
func Positive(v int64) error {
	if v <= 0 {
		return fmt.Errorf("want a positive number, got %d", v)
	}
	return nil
}

// Agent jobs in the fake.

// SeedImportableAgentJobs adds agent jobs started outside Terraform:
// aj_running (active for 10 more minutes) and aj_done, both completing
// with a pull request.
func SeedImportableAgentJobs(env *Env) {
	env.Fake.AddAgentJob(ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_running", Repository: fakeapi.AgentRepository, ActiveFor: 10 * time.Minute, PRLink: Ptr(fakeapi.AgentRepository + "/pull/7"),
	})
	env.Fake.AddAgentJob(ProjectID, fakeapi.AgentJobSeed{
		ID: "aj_done", Repository: fakeapi.AgentRepository, PRLink: Ptr(fakeapi.AgentRepository + "/pull/8"),
	})
}

// Files on disk.

// WriteUserFile writes a file of the user's at p.
func WriteUserFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// MustRemove deletes a file, as a user might.
func MustRemove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

// The rest.

// RandomKey is an API key no other test uses, for searching output for it.
func RandomKey(t *testing.T) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "mint_" + hex.EncodeToString(b)
}

// SyncBuffer collects a process's output from several goroutines.
type SyncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) WriteString(s string) { _, _ = b.Write([]byte(s)) }

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
