package provider

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/tfcli"
)

// What the test files of this package share: a test's world (the fake API
// and the provider on its clock), version gates, and checks of what
// Terraform says, what the API was asked, what is in state and what is on
// disk. The HCL they apply is built in config_test.go; the CLI is driven by
// internal/tfcli. A helper that one file alone uses stays in that file.

// TestMain runs the tests, then removes the provider binary that the
// real-binary tests share (tfcli.Built). The CLI is looked up by the tests
// that need it (tfcli.Path), so that the others run without one.
func TestMain(m *testing.M) { tfcli.Main(m) }

// testStart is the virtual moment every acceptance test begins at.
var testStart = fakeapitest.Start

const testProjectID = "proj_test"

// One test's world: the fake API on a virtual clock, and the provider on
// the same clock, in the test process.

// testEnv is one acceptance test's world: a fake Mintlify API on a
// loopback port, checked against the vendor contract, and a virtual clock
// shared by the fake and the provider, so that a 30-minute export runs in
// milliseconds.
type testEnv struct {
	fake  *fakeapi.Server
	clock *clock.Fake
	url   string
	// httpClient, when not nil, replaces the provider's HTTP client (see
	// newTLSTestEnv).
	httpClient *http.Client
}

// newTestEnv serves the fake (fakeapitest), every exchange validated
// against the in-repo OpenAPI description.
func newTestEnv(t *testing.T, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	return newTestEnvServing(t, fakeapitest.Fake(opts...))
}

// newUncheckedTestEnv serves the fake without the contract check, for
// faults that break an answer's body (a truncated or malformed JSON body),
// which the checker would rightly report as a violation.
func newUncheckedTestEnv(t *testing.T, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	return newTestEnvServing(t, fakeapitest.Unchecked(), fakeapitest.Fake(opts...))
}

// newTestEnvWithHandler serves the fake behind wrap, for tests that mount it
// under a path prefix.
func newTestEnvWithHandler(t *testing.T, wrap func(http.Handler) http.Handler, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	return newTestEnvServing(t, fakeapitest.Fake(opts...),
		fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler { return wrap(fake) }))
}

// newTLSTestEnv serves the fake over TLS, checked against the contract, and
// gives it a name that is not loopback: base_url is https://example.com
// (which the test server's certificate covers), and the provider's HTTP
// client dials the fake's loopback address whatever the host.
func newTLSTestEnv(t *testing.T, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	return newTestEnvServing(t, fakeapitest.TLS(), fakeapitest.Fake(opts...))
}

// newTestEnvServing serves the fake as opts say. The env is for tests
// that run the CLI (through terraform-plugin-testing, or tfcli), so it
// finds the CLI first: terraform-plugin-testing would download one.
func newTestEnvServing(t *testing.T, opts ...fakeapitest.Option) *testEnv {
	t.Helper()
	tfcli.Path(t)
	env := fakeapitest.New(t, opts...)
	return &testEnv{fake: env.Fake, clock: env.Clock, url: env.URL, httpClient: env.HTTPClient}
}

// factories runs the provider in the test process on the env's clock, for
// terraform-plugin-testing.
func (e *testEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"mintlify": providerserver.NewProtocol6WithError(e.provider()),
	}
}

// provider is the provider under test on the env's clock and HTTP client.
func (e *testEnv) provider() *mintlifyProvider {
	return &mintlifyProvider{version: "test", clock: e.clock, httpClient: e.httpClient}
}

// cli is the CLI with the provider served on the env's clock (tfcli.Served),
// for the commands terraform-plugin-testing does not run and for the CLI's
// output as a user sees it (warnings, an action's progress).
func (e *testEnv) cli(t *testing.T) *tfcli.CLI {
	t.Helper()
	return tfcli.Served(t, providerserver.NewProtocol6(e.provider()))
}

// startJobDirectly starts an export through the client, as a CI script
// would, and returns its id.
func startJobDirectly(t *testing.T, env *testEnv) string {
	t.Helper()
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(env.url), mintlify.WithClock(env.clock))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return job.JobID
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
	cmd := exec.Command(tfcli.Path(t), "untaint", "-no-color", address)
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

// expectError matches diagnostics as Terraform prints them: the phrases in
// order, each space free to be a line break where the CLI wrapped the text.
func expectError(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// refusal is a configuration that must fail at plan time with the phrases
// of want (separated by "|", see expectError).
type refusal struct{ config, want string }

// expectRefusedAtPlan plans each configuration, expects its error, and then
// checks that none of them sent a request.
func expectRefusedAtPlan(t *testing.T, env *testEnv, refusals []refusal) {
	t.Helper()
	var steps []resource.TestStep
	for _, r := range refusals {
		steps = append(steps, resource.TestStep{
			Config:      r.config,
			PlanOnly:    true,
			ExpectError: expectError(strings.Split(r.want, "|")...),
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: env.factories(), Steps: steps})
	if n := len(env.fake.Requests()); n != 0 {
		t.Errorf("bad input reached the API: %d requests, want 0", n)
	}
}

// expectApplyFails applies config and expects an error with the phrases of
// want; then that requests recorded requests matched match, and that jobs
// export jobs exist.
func expectApplyFails(t *testing.T, env *testEnv, config string, want []string, match func(*http.Request) bool, requests, jobs int) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories(),
		Steps:                    []resource.TestStep{{Config: config, ExpectError: expectError(want...)}},
	})
	if n := countMatching(env.fake.Requests(), match); n != requests {
		t.Errorf("matching requests = %d, want %d", n, requests)
	}
	if n := env.fake.ExportJobsStarted(); n != jobs {
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

// expectCounts checks how many export jobs and bundle links the fake made.
func expectCounts(env *testEnv, jobs, bundles int) error {
	if got := env.fake.ExportJobsStarted(); got != jobs {
		return fmt.Errorf("export jobs started = %d, want %d", got, jobs)
	}
	if got := env.fake.BundlesGenerated(); got != bundles {
		return fmt.Errorf("bundle links generated = %d, want %d", got, bundles)
	}
	return nil
}

// expectAgentJobs checks how many agent jobs the fake created, and that
// no follow-up message was sent.
func expectAgentJobs(env *testEnv, jobs int) error {
	if got := env.fake.AgentJobsCreated(); got != jobs {
		return fmt.Errorf("agent jobs created = %d, want %d", got, jobs)
	}
	if got := env.fake.AgentMessagesSent(); got != 0 {
		return fmt.Errorf("follow-up messages sent = %d, want none", got)
	}
	return nil
}

// startRequests counts the requests that started an export job.
func startRequests(env *testEnv) int {
	n := 0
	for _, r := range env.fake.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/static-export/jobs" {
			n++
		}
	}
	return n
}

// exportJobsStarted checks how many start requests reached the API.
func exportJobsStarted(env *testEnv, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := startRequests(env); n != want {
			return fmt.Errorf("%d start requests reached the API, want %d", n, want)
		}
		return nil
	}
}

// downloadRequests counts the bundle downloads the API served.
func downloadRequests(env *testEnv) int {
	n := 0
	for _, r := range env.fake.Requests() {
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

// checkLinkWorks downloads the bundle link in state and checks its size.
func checkLinkWorks(env *testEnv) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[bundleAddr].Primary.Attributes
		resp, err := http.Get(attrs["bundle_url"])
		if err != nil {
			return err
		}
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("downloading the bundle: HTTP %d: %s", resp.StatusCode, body)
		}
		if want := attrs["size_bytes"]; strconv.Itoa(len(body)) != want {
			return fmt.Errorf("downloaded %d bytes, size_bytes says %s", len(body), want)
		}
		return nil
	}
}

// Agent jobs in the fake.

// agentPlan is a fake agent job plan: active for activeFor, then final
// ("" for completed), with or without changes.
func agentPlan(activeFor time.Duration, final string, noChanges bool) fakeapi.Option {
	return fakeapi.WithAgentJobPlan(func(fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		return fakeapi.AgentJobPlan{ActiveFor: activeFor, FinalStatus: final, NoChanges: noChanges}
	})
}

// seedImportableAgentJobs adds agent jobs started outside Terraform:
// aj_running (active for 10 more minutes) and aj_done, both completing
// with a pull request.
func seedImportableAgentJobs(env *testEnv) {
	env.fake.AddAgentJob(testProjectID, fakeapi.AgentJobSeed{
		ID: "aj_running", Repository: fakeapi.AgentRepository, ActiveFor: 10 * time.Minute, PRLink: ptr(fakeapi.AgentRepository + "/pull/7"),
	})
	env.fake.AddAgentJob(testProjectID, fakeapi.AgentJobSeed{
		ID: "aj_done", Repository: fakeapi.AgentRepository, PRLink: ptr(fakeapi.AgentRepository + "/pull/8"),
	})
}

// ptr is a pointer to a copy of v, for the fake's optional fields.
func ptr[T any](v T) *T { return &v }

// Archives on disk.

// sizedArchives makes every job's archive about size bytes.
func sizedArchives(size int64) fakeapi.Option {
	return fakeapi.WithArchive(func(fakeapi.StartRequest) fakeapi.Archive { return fakeapi.Archive{Size: size} })
}

// checkArchiveOnDisk compares every attribute of the archive in state with
// the file on disk, and checks that nothing else is beside it.
func checkArchiveOnDisk(outputPath string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[archiveAddr].Primary.Attributes
		raw, err := os.ReadFile(outputPath)
		if err != nil {
			return err
		}
		sha := sha256.Sum256(raw)
		sum := md5.Sum(raw) //nolint:gosec
		entries, err := countEntries(raw)
		if err != nil {
			return fmt.Errorf("the file is not a tar.gz: %w", err)
		}
		want := map[string]string{
			"id":            hex.EncodeToString(sha[:]),
			"sha256":        hex.EncodeToString(sha[:]),
			"base64sha256":  base64.StdEncoding.EncodeToString(sha[:]),
			"md5":           hex.EncodeToString(sum[:]),
			"size_bytes":    strconv.Itoa(len(raw)),
			"file_count":    strconv.Itoa(entries),
			"output_path":   outputPath,
			"downloaded_at": attrs["downloaded_at"],
		}
		for k, v := range want {
			if attrs[k] != v {
				return fmt.Errorf("%s = %q, the file on disk says %q", k, attrs[k], v)
			}
		}
		if !rfc3339.MatchString(attrs["downloaded_at"]) {
			return fmt.Errorf("downloaded_at = %q, want RFC 3339", attrs["downloaded_at"])
		}
		return onlyThese(filepath.Dir(outputPath), filepath.Base(outputPath))
	}
}

// countEntries reads a tar.gz to its end and counts its entries.
func countEntries(raw []byte) (int, error) {
	gz, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return 0, err
	}
	tr := tar.NewReader(gz)
	n := 0
	for {
		if _, err := tr.Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return n, err
		}
		n++
	}
	_, err = io.Copy(io.Discard, gz)
	return n, err
}

// onlyThese fails unless dir holds exactly the named files, no partial
// download among them, under any subdirectory.
func onlyThese(dir string, names ...string) error {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			found = append(found, rel)
		}
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if fmt.Sprint(found) != fmt.Sprint(names) {
		return fmt.Errorf("%s holds %v, want %v", dir, found, names)
	}
	return nil
}

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
