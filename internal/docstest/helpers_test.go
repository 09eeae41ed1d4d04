package docstest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/md5" //nolint:gosec // a checksum the provider reports, not security
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
	"github.com/mintlify/terraform-provider-mintlify/internal/tfcli"
)

// The environment variables the provider reads, as the docs name them.
const (
	envAPIKey    = "MINTLIFY_API_KEY"
	envBaseURL   = "MINTLIFY_BASE_URL"
	envProjectID = "MINTLIFY_PROJECT_ID"
)

const (
	testProjectID = "proj_test"
	bundleAddr    = "mintlify_static_export_bundle.docs"
	archiveAddr   = "mintlify_static_export_archive.docs"
)

// identityVersions are the CLIs that import by resource identity.
var identityVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// testEnv is one test's fake API (fakeapitest) and the provider on its
// virtual clock.
type testEnv struct {
	fake  *fakeapi.Server
	clock *clock.Fake
	url   string
}

// newTestEnv finds the CLI first: terraform-plugin-testing would download
// one.
func newTestEnv(t *testing.T, opts ...fakeapi.Option) *testEnv {
	t.Helper()
	tfcli.Path(t)
	env := fakeapitest.New(t, fakeapitest.Fake(opts...))
	return &testEnv{fake: env.Fake, clock: env.Clock, url: env.URL}
}

// newAgentEnv seeds the fake with agent jobs in testProjectID: aj_active
// (active for 20 minutes, then completed with a pull request), aj_nopr
// (completed without changes, no branch) and aj_archived.
func newAgentEnv(t *testing.T) *testEnv {
	t.Helper()
	env := newTestEnv(t)
	env.fake.AddAgentJob(testProjectID, fakeapi.AgentJobSeed{
		ID: "aj_active", Repository: "https://github.com/acme/docs", Ref: ptr("docs/update-quickstart"),
		Model: "opus", ActiveFor: 20 * time.Minute, PRLink: ptr("https://github.com/acme/docs/pull/42"),
	})
	env.fake.AddAgentJob(testProjectID, fakeapi.AgentJobSeed{
		ID: "aj_nopr", Repository: "https://github.com/acme/docs",
	})
	env.fake.AddAgentJob(testProjectID, fakeapi.AgentJobSeed{
		ID: "aj_archived", Repository: "https://github.com/acme/docs", Ref: ptr("main"),
		ActiveFor: time.Minute, FinalStatus: "archived", PRLink: ptr("https://github.com/acme/docs/pull/7"),
	})
	env.clock.Advance(2 * time.Minute)
	return env
}

// factories runs the provider in the test process on the env's clock.
func (e *testEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"mintlify": providerserver.NewProtocol6WithError(provider.NewOnClock("test", e.clock)()),
	}
}

// cli is the CLI with the provider served on the env's clock (tfcli.Served),
// for the commands terraform-plugin-testing does not run, such as
// `terraform apply -invoke` (Terraform 1.14).
func (e *testEnv) cli(t *testing.T) *tfcli.CLI {
	t.Helper()
	return tfcli.Served(t, providerserver.NewProtocol6(provider.NewOnClock("test", e.clock)()))
}

// config prepends a provider block pointed at the fake.
func (e *testEnv) config(body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key    = %[1]q
  base_url   = %[2]q
  project_id = %[3]q
}
%[4]s`, fakeapi.DefaultAPIKey, e.url, testProjectID, body)
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

// agentPlan is a fake agent job plan: active for activeFor, then final
// ("" for completed), with or without changes.
func agentPlan(activeFor time.Duration, final string, noChanges bool) fakeapi.Option {
	return fakeapi.WithAgentJobPlan(func(fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		return fakeapi.AgentJobPlan{ActiveFor: activeFor, FinalStatus: final, NoChanges: noChanges}
	})
}

// agentPlanByPrompt runs agent jobs for four minutes; a prompt that says
// "typo" changes nothing, one that says "impossible" fails, one that says
// "forever" runs for a day.
func agentPlanByPrompt() fakeapi.Option {
	return fakeapi.WithAgentJobPlan(func(req fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
		plan := fakeapi.AgentJobPlan{ActiveFor: 4 * time.Minute}
		switch {
		case strings.Contains(req.Prompt, "typo"):
			plan.NoChanges = true
		case strings.Contains(req.Prompt, "impossible"):
			plan.FinalStatus = "failed"
		case strings.Contains(req.Prompt, "forever"):
			plan.ActiveFor = 24 * time.Hour
		}
		return plan
	})
}

// sizedArchives makes every job's archive about size bytes.
func sizedArchives(size int64) fakeapi.Option {
	return fakeapi.WithArchive(func(fakeapi.StartRequest) fakeapi.Archive { return fakeapi.Archive{Size: size} })
}

// renewal expects the bundle's link to be renewed in place: same job, new
// link.
func renewal() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
		plancheck.ExpectUnknownValue(bundleAddr, tfjsonpath.New("bundle_url")),
		plancheck.ExpectUnknownValue(bundleAddr, tfjsonpath.New("expires_at")),
		plancheck.ExpectUnknownValue(bundleAddr, tfjsonpath.New("helm_values")),
		plancheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("job_id"), knownvalue.StringRegexp(regexp.MustCompile(`^se_[0-9a-f]{16}$`))),
	}}
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

// checkLinkWorks downloads the bundle link in state and checks its size.
func checkLinkWorks(*testEnv) resource.TestCheckFunc {
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
		if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`).MatchString(attrs["downloaded_at"]) {
			return fmt.Errorf("downloaded_at = %q, want RFC 3339", attrs["downloaded_at"])
		}
		return onlyFile(outputPath)
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

// onlyFile fails unless path is the only file in its directory, no
// partial download beside it, under any subdirectory.
func onlyFile(path string) error {
	var found []string
	err := filepath.WalkDir(filepath.Dir(path), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = append(found, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(found) != 1 || found[0] != path {
		return fmt.Errorf("the directory holds %v, want only %s", found, filepath.Base(path))
	}
	return nil
}

// expectError matches diagnostics as Terraform prints them: the phrases in
// order, each space free to be a line break where the CLI wrapped the text.
func expectError(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// progressLines returns the progress an action reported, in order: the
// messages of the CLI's "Action <address> (triggered by <what>): " lines.
func progressLines(out, address, trigger string) []string {
	prefix := fmt.Sprintf("Action %s (triggered by %s): ", address, trigger)
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if msg, ok := strings.CutPrefix(line, prefix); ok {
			lines = append(lines, msg)
		}
	}
	return lines
}

// expectLines checks that got matches want line by line, each want a
// regular expression.
func expectLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = regexp.MustCompile("^" + want[i] + "$").MatchString(got[i])
	}
	if !ok {
		t.Errorf("%s:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func ptr[T any](v T) *T { return &v }
