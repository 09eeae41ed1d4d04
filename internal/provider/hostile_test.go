package provider

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// What a user sees when the API or the storage host is hostile
// (fakeapi/hostile.go): each diagnostic says what happened, and nothing the
// network sent reaches the terminal unchecked.

// expectDiagnostic applies config, which must fail with an error that holds
// every phrase of want in order (see providertest.ExpectError) and none of the strings
// of never (a signature, a control character, the tail of a long message).
func expectDiagnostic(t *testing.T, env *providertest.Env, config string, want, never []string) string {
	t.Helper()
	return expectDiagnosticUnder(t, env, nil, config, want, never)
}

// expectDiagnosticUnder is expectDiagnostic under the CLIs that versions
// admit (a CLI that is too old skips the test). It returns the error's
// text.
func expectDiagnosticUnder(t *testing.T, env *providertest.Env, versions []tfversion.TerraformVersionCheck, config string, want, never []string) string {
	t.Helper()
	var got error
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		TerraformVersionChecks:   versions,
		Steps:                    []resource.TestStep{{Config: config}},
		ErrorCheck: func(err error) error {
			got = err
			return nil
		},
	})
	if got == nil {
		t.Fatal("the apply succeeded, want an error")
	}
	if !providertest.ExpectError(want...).MatchString(got.Error()) {
		t.Errorf("the error does not say %q:\n%v", want, got)
	}
	for _, s := range never {
		if strings.Contains(got.Error(), s) {
			t.Errorf("the error shows %q:\n%v", s, got)
		}
	}
	return got.Error()
}

// TestAccHostile_plainHTTPLinkRefused: an API that is not on this machine
// hands out a plain-http bundle link. The apply fails, saying why, and
// never shows the link.
func TestAccHostile_plainHTTPLinkRefused(t *testing.T) {
	t.Parallel()
	env := providertest.NewTLSTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{DownloadHost: "http://storage.example.com"}))
	expectDiagnostic(t, env, env.Config(providertest.BundleConfig("docs.example.com", "")),
		[]string{"Unencrypted Bundle Link Refused", "uses plain http (host storage.example.com)",
			"an unencrypted link would expose the bundle, and the signature", "only when the provider's `base_url` is a loopback address"},
		[]string{"X-Amz-"})
	if n := env.Fake.Count(http.MethodGet, "/bundles/"); n != 0 {
		t.Errorf("%d downloads, want 0", n)
	}
}

// TestAccHostile_nonASCIILinkHostRefused: the API hands out a bundle link
// whose host is not ASCII (a Cyrillic letter that passes for a Latin one,
// and a right-to-left override). The apply fails, naming the host escaped:
// neither character reaches the terminal.
func TestAccHostile_nonASCIILinkHostRefused(t *testing.T) {
	t.Parallel()
	env := providertest.NewTLSTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{DownloadHost: "https://stor\u0430ge.ex\u202eample.com"}))
	out := expectDiagnostic(t, env, env.Config(providertest.BundleConfig("docs.example.com", "")),
		[]string{"Bundle Link Host Not ASCII", `stor\u0430ge.ex\u202eample.com`, "can pass for another one"},
		[]string{"X-Amz-", "\u0430", "\u202e"})
	if n := env.Fake.Count(http.MethodGet, "/bundles/"); n != 0 {
		t.Errorf("%d downloads, want 0:\n%s", n, out)
	}
}

// waitingResource is a resource whose create waits for a job, as the
// hostile tests drive it.
type waitingResource struct {
	name   string
	config func(extra string) string
	match  func(*http.Request) bool
	// stillRunning is the summary of its timeout, which a rate limit must
	// never be reported as.
	stillRunning string
}

var waitingResources = []waitingResource{
	{"bundle", func(extra string) string { return providertest.BundleConfig("docs.example.com", extra) },
		fakeapi.IsStatusRequest, "Static Export Timed Out"},
	{"agent job", func(extra string) string { return providertest.AgentJobResourceConfig("Document the release", extra) },
		fakeapi.IsAgentJobRequest, "Agent Job Still Running"},
}

// TestAccHostile_retryAfterADayWhilePolling: one status request of the
// create's wait is answered 429 with `Retry-After: 86400`, with retries
// disabled so that the wait itself handles it. The pause is capped at a
// minute and the apply succeeds; with less than a minute of the timeout
// left, the apply stops at once and says the API is rate limiting.
func TestAccHostile_retryAfterADayWhilePolling(t *testing.T) {
	t.Parallel()
	for _, r := range waitingResources {
		aDay429 := fakeapi.WithFaults(fakeapi.FaultRule{Match: r.match, Skip: 1, Count: 1,
			Faults: []fakeapi.Fault{fakeapi.TooManyRequests(24 * time.Hour)}})
		t.Run(r.name+" within the timeout", func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, aDay429)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: env.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: providertest.NoRetries(env, r.config(""))}},
			})
			if n := env.Fake.FaultsInjected(fakeapi.FaultStatus); n != 1 {
				t.Errorf("%d 429s answered, want 1", n)
			}
			if took := env.Clock.Now().Sub(providertest.TestStart); took > 10*time.Minute {
				t.Errorf("the apply took %s, want the job's time plus a minute", took)
			}
		})
		t.Run(r.name+" past the timeout", func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, aDay429)
			expectDiagnostic(t, env, providertest.NoRetries(env, r.config(`timeouts = { create = "45s" }`)),
				[]string{"Mintlify API Rate Limiting", "The Mintlify API is rate limiting: it answered HTTP 429",
					"asked the provider to wait 24h0m0s (`Retry-After`); the provider waits at most 1m0s",
					"the operation's timeout ends in", "stopped at once", "Run `terraform apply` again"},
				[]string{r.stillRunning, "Timed Out"})
			reqs := env.Fake.Requests()
			if last := reqs[len(reqs)-1]; last.Status != http.StatusTooManyRequests || !env.Clock.Now().Equal(last.At) {
				t.Errorf("the provider went on for %s after the 429, want it to stop at once", env.Clock.Now().Sub(last.At))
			}
		})
	}
}

// TestAccHostile_unknownStatusEndsTheWait: every job settles in `cancelled`,
// a status the API does not document. Each wait (the bundle's and the agent
// job's create, the data source's wait, the action's) ends as soon as the
// status appears, with an error naming it and the job, and never says the
// job keeps running. The fake breaks the contract here, so it is not
// checked.
func TestAccHostile_unknownStatusEndsTheWait(t *testing.T) {
	t.Parallel()
	never := []string{"keeps running", "Timed Out", "Still Running"}
	exportStatuses := "the API documents only `queued`, `running`, `completed` or `failed`"
	agentStatuses := "the API documents only `active`, `completed`, `archived` or `failed`"
	for _, tc := range []struct {
		name     string
		versions []tfversion.TerraformVersionCheck
		config   string
		want     []string
		job      func(env *providertest.Env) string
	}{
		{"bundle", nil, providertest.BundleConfig("docs.example.com", ""),
			[]string{"Unexpected Static Export Job Status", "The Mintlify API reported the status `cancelled` for static export job se_",
				exportStatuses, "stopped waiting at once", "the next apply replaces it with a new export"},
			func(env *providertest.Env) string { return env.Fake.JobIDs()[0] }},
		{"agent job resource", nil, providertest.AgentJobResourceConfig("Document the release", ""),
			[]string{"Unexpected Agent Job Status", "The Mintlify API reported the status `cancelled` for agent job aj_",
				agentStatuses, "stopped waiting at once", "the next apply replaces it", "another pull request"},
			func(env *providertest.Env) string { return env.Fake.AgentJobIDs()[0] }},
		{"agent job data source", nil, providertest.AgentJobConfig("aj_seeded", "wait_for_completion = true"),
			[]string{"Unexpected Agent Job Status", "the status `cancelled` for agent job aj_seeded", agentStatuses},
			func(*providertest.Env) string { return "aj_seeded" }},
		{"agent job action", providertest.ActionVersions, providertest.TriggeredAction("2.3.0", `prompt = "Document release 2.3"`),
			[]string{"Unexpected Agent Job Status", "the status `cancelled` for agent job aj_", agentStatuses,
				"`mintlify_agent_job` data source"},
			func(env *providertest.Env) string { return env.Fake.AgentJobIDs()[0] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewUncheckedTestEnv(t, fakeapi.WithHostile(fakeapi.HostileOptions{UndocumentedStatus: "cancelled"}))
			env.Fake.AddAgentJob(providertest.ProjectID, fakeapi.AgentJobSeed{ID: "aj_seeded", Repository: fakeapi.AgentRepository,
				ActiveFor: 5 * time.Minute})
			got := expectDiagnosticUnder(t, env, tc.versions, env.Config(tc.config), tc.want, never)
			if id := tc.job(env); !strings.Contains(got, id) {
				t.Errorf("the error does not name the job %s:\n%s", id, got)
			}
			reqs := env.Fake.Requests()
			if last := reqs[len(reqs)-1]; !strings.Contains(string(last.Response), `"cancelled"`) || !env.Clock.Now().Equal(last.At) {
				t.Errorf("the wait went on for %s after the status turned (last answer %s)", env.Clock.Now().Sub(last.At), last.Response)
			}
		})
	}
}

// hostileText is ten kilobytes of error text as a hostile server would send
// it, and hostileSecrets what of it must never reach the terminal: a
// terminal escape, a bidirectional override, a link's credential and
// signature, a bearer token, the API key echoed, the tail.
var (
	hostileText = "Export refused.\n\x1b[31mSee https://bucket.s3.amazonaws.com/b.tar.gz?X-Amz-Credential=AKIAHOSTILE&" +
		"X-Amz-Signature=feedface0123 \u202eBearer tok-hostile key " + fakeapi.DefaultAPIKey + "\r\n" +
		strings.Repeat("padding ", 1250) + "TAIL-MARKER"
	hostileSecrets = []string{"\x1b", "\u202e", "AKIAHOSTILE", "feedface0123", "tok-hostile", fakeapi.DefaultAPIKey, "TAIL-MARKER"}
)

// TestAccHostile_serverTextIsCleanedAndCut: a 10 KB error message from the
// API, and a 10 KB failure reason of a job, reach the diagnostic cut to
// about 300 characters on one line, with the signature, the token and the
// key masked.
func TestAccHostile_serverTextIsCleanedAndCut(t *testing.T) {
	t.Parallel()
	cleaned := "Export refused. [31mSee https://bucket.s3.amazonaws.com/b.tar.gz?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED " +
		"Bearer REDACTED key REDACTED padding padding"
	t.Run("error message", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t, fakeapi.WithFaults(fakeapi.FaultRule{Match: fakeapi.IsStartRequest,
			Faults: []fakeapi.Fault{{Kind: fakeapi.FaultStatus, Status: http.StatusBadRequest, Message: hostileText}}}))
		got := expectDiagnostic(t, env, env.Config(providertest.BundleConfig("docs.example.com", "")),
			[]string{"Mintlify Rejected The Request", "(HTTP 400: " + cleaned, "padding… (cut from 10", "characters)",
				"No static export job was started."}, hostileSecrets)
		if len(got) > 2000 {
			t.Errorf("the error is %d bytes long:\n%s", len(got), got)
		}
	})
	t.Run("failure reason", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
			return fakeapi.JobPlan{RunFor: time.Minute, FailWith: hostileText}
		}}))
		expectDiagnostic(t, env, env.Config(providertest.BundleConfig("docs.example.com", "")),
			[]string{"Static Export Job Failed", cleaned, "padding… (cut from 10"}, hostileSecrets)
	})
}

// TestAccHostile_jobIDRefused: the API hands out a job id with a terminal
// escape, or ten kilobytes long. The apply fails naming the call and the
// field, shows the id escaped and cut, and stores nothing.
func TestAccHostile_jobIDRefused(t *testing.T) {
	t.Parallel()
	for name, id := range map[string]string{
		"terminal escape": "se_\x1b[31mred",
		"ten kilobytes":   "se_" + strings.Repeat("b", 10<<10),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, fakeapi.WithHostile(fakeapi.HostileOptions{JobIDs: func() string { return id }}))
			text := expectDiagnostic(t, env, env.Config(providertest.BundleConfig("docs.example.com", "")),
				[]string{"Static Export May Have Started", "`POST /v1/static-export/jobs` with a `jobId` the provider does not accept",
					"an id is 1 to 128 letters", "neither stored nor used it", "a static export job may have started"},
				[]string{"\x1b", strings.Repeat("b", 100)})
			if len(text) > 3000 {
				t.Errorf("the error is %d bytes long", len(text))
			}
		})
	}
}

// TestAccHostile_downloadRedirectedToPlainHTTP: the storage host behind an
// https link redirects the download to plain http. The apply fails naming
// the hop by its hosts, downloads nothing, and leaves no file.
func TestAccHostile_downloadRedirectedToPlainHTTP(t *testing.T) {
	t.Parallel()
	env := providertest.NewTLSTestEnv(t, fakeapi.WithHostile(fakeapi.HostileOptions{DownloadRedirect: "http://plain.example.com"}))
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	expectDiagnostic(t, env, env.Config(providertest.BundleConfig("docs.example.com", "")+providertest.ArchiveConfig("mintlify_static_export_bundle.docs.job_id", out)),
		[]string{"Redirect To Plain HTTP Refused", "https://example.com redirected the request to plain http://plain.example.com",
			"Nothing was written to"},
		[]string{"X-Amz-", "?"})
	if err := providertest.ExpectOnlyFiles(filepath.Dir(out)); err != nil {
		t.Error(err)
	}
}
