package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// What a user sees when the API refuses the key (401) or the request (403):
// through the real CLI, against the fake refusing as a restricted key would,
// with answers that say why and with bare "Unauthorized" and "Forbidden".
// diagnostic_refusals_test.go has the table's every case.

// failed runs a command that must fail and returns its output as one line
// of words, without the frame Terraform draws around a diagnostic.
func failed(t *testing.T, cli *providertest.CLI, args ...string) string {
	t.Helper()
	res := cli.Run(append(args, "-input=false", "-no-color")...)
	if res.Exit == 0 {
		t.Fatalf("succeeded, want a failure: %s", res)
	}
	var words []string
	for _, w := range strings.Fields(res.Output) {
		if w != "│" && w != "╷" && w != "╵" {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// expectSaid checks that out has each of want.
func expectSaid(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("the output lacks %q:\n%s", w, out)
		}
	}
}

// TestAccKeyRefusals: each call, refused for each cause, names the causes
// possible for it, or the one its answer names, each with its fix.
func TestAccKeyRefusals(t *testing.T) {
	t.Parallel()
	expired := fakeapi.KeyLimits{ExpiresAt: fakeapitest.Start.Add(-time.Hour)}
	offAllowlist := fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.0/24"}}
	readOnly := fakeapi.KeyLimits{ReadOnly: true}
	bundle := providertest.BundleConfig("docs.example.com", "")
	agentJob := providertest.AgentJobResourceConfig("Document the CLI", "")
	exportJob := "\ndata \"mintlify_static_export_job\" \"this\" {\n  job_id = \"se_0000000000000000\"\n}\n"
	for name, c := range map[string]struct {
		opts    []fakeapi.Option
		config  string
		summary string
		causes  []string
		also    []string
	}{
		"create with an expired key": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: expired})}, bundle,
			"Mintlify API Key Expired", []string{"expired"},
			[]string{"while checking the API key at plan time (HTTP 401: API key expired at 2026-11-21T08:00:00.000Z)"}},
		"create with an expired key, bare": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: expired}), fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true})}, bundle,
			"Mintlify API Key Rejected", []string{"expired", "revoked"}, []string{"while checking the API key at plan time (HTTP 401: Unauthorized)"}},
		"agent job with an expired key": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: expired})}, agentJob,
			"Mintlify API Key Expired", []string{"expired"}, []string{"while checking the API key at plan time"}},

		"start refused, bare": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: offAllowlist}), fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true})}, bundle,
			"Mintlify API Request Forbidden", []string{"allowlist", "read-only", "not enabled"},
			[]string{"refused starting the static export of docs.example.com (HTTP 403: Forbidden)", "No static export job was started."}},
		"start refused by the allowlist": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: offAllowlist})}, bundle,
			"Mintlify API Key Not Allowed From This Address", []string{"allowlist"},
			[]string{"(HTTP 403: Request from IP address 127.0.0.1 is not on the allowlist of this API key)"}},
		"start refused to a read-only key": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: readOnly})}, bundle,
			"Mintlify API Key Is Read-Only", []string{"read-only"}, []string{"No static export job was started."}},
		"start refused, static export not enabled": {[]fakeapi.Option{fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Disabled: true})}, bundle,
			"Static Export Not Enabled", []string{"not enabled"}, []string{"No static export job was started."}},
		"agent job refused, bare": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: readOnly}), fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true})}, agentJob,
			"Mintlify API Request Forbidden", []string{"allowlist", "read-only"}, []string{"No agent job was started."}},

		"export job read refused, bare": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: offAllowlist}), fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true})}, exportJob,
			"Mintlify API Request Forbidden", []string{"allowlist"},
			[]string{"refused reading static export job se_0000000000000000 (HTTP 403: Forbidden). The answer does not say why, and one cause is possible"}},
		"agent job read refused, bare": {[]fakeapi.Option{fakeapi.WithKeys(fakeapi.KeyOptions{Limits: offAllowlist}), fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true})}, providertest.AgentJobConfig("aj_1", ""),
			"Mintlify API Request Forbidden", []string{"allowlist"}, []string{"refused reading agent job aj_1 in project proj_test (HTTP 403: Forbidden)"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, c.opts...)
			cli := env.CLI(t)
			cli.WriteConfig(env.Config(c.config))
			out := failed(t, cli, "apply", "-auto-approve")
			expectSaid(t, out, append([]string{"Error: " + c.summary}, c.also...)...)
			checkCauses(t, name, out, c.causes)
			if n := env.Fake.ExportJobsStarted(); n != 0 {
				t.Errorf("%d export jobs started", n)
			}
		})
	}
}

// TestAccKeyRefusals_renewal: a renewal refused to a read-only key names the
// allowlist and the key's scope, says that a read-only key cannot renew,
// and until when the link in state still works; the link stays in state,
// and no export starts. Once the key can write, the next apply renews.
func TestAccKeyRefusals_renewal(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: 2 * time.Hour}), fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true}))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com", `renew_before = "1h"`)))
	cli.MustRun("apply", "-auto-approve", "-input=false")
	before := cli.Instance(providertest.BundleAddr)
	expiresAt, err := time.Parse(time.RFC3339, before.Attr("expires_at"))
	if err != nil {
		t.Fatalf("expires_at in state: %v", err)
	}

	env.Clock.Advance(61 * time.Minute) // due: less than renew_before left
	env.Fake.SetKeyLimits(fakeapi.KeyLimits{ReadOnly: true})
	out := failed(t, cli, "apply", "-auto-approve")
	jobID := before.Attr("job_id")
	expectSaid(t, out, "Error: Mintlify API Request Forbidden",
		"refused generating the bundle link of static export job "+jobID+" (HTTP 403: Forbidden)",
		"generating a fresh link is a POST, so this key cannot renew the link",
		"The current link of static export job "+jobID+" keeps working until "+before.Attr("expires_at")+
			" (in "+toTheMinute(expiresAt.Sub(env.Clock.Now()))+"): fix the key before then, and apply again to renew it.")
	checkCauses(t, "renewal", out, []string{"allowlist", "read-only"})
	after := cli.Instance(providertest.BundleAddr)
	if after.Attr("bundle_url") != before.Attr("bundle_url") || after.Attr("expires_at") != before.Attr("expires_at") {
		t.Errorf("the refused renewal changed the link in state: %v, was %v", after.Attr("expires_at"), before.Attr("expires_at"))
	}
	if err := env.ExpectExportJobsAndLinks(1, 1); err != nil {
		t.Error(err)
	}

	env.Fake.SetKeyLimits(fakeapi.KeyLimits{})
	cli.MustRun("apply", "-auto-approve", "-input=false")
	if err := env.ExpectExportJobsAndLinks(1, 2); err != nil {
		t.Error(err)
	}
}

// TestAccKeyRefusals_refreshOffTheAllowlist: a refresh (a GET) refused
// from an address off the key's allowlist names the allowlist only: never
// a read-only key, nor static export not enabled.
func TestAccKeyRefusals_refreshOffTheAllowlist(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithKeys(fakeapi.KeyOptions{BareRefusals: true}))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com", "")))
	cli.MustRun("apply", "-auto-approve", "-input=false")
	jobID := cli.Instance(providertest.BundleAddr).Attr("job_id")

	env.Fake.SetKeyLimits(fakeapi.KeyLimits{AllowedIPs: []string{"203.0.113.7"}})
	out := failed(t, cli, "plan")
	expectSaid(t, out, "Error: Mintlify API Request Forbidden",
		"refused refreshing static export job "+jobID+" (HTTP 403: Forbidden). The answer does not say why, and one "+
			"cause is possible for this request: the API key is limited to an IP allowlist")
	checkCauses(t, "refresh", out, []string{"allowlist"})
}

// TestAccKeyCheckedAtPlan: a plan that creates something checks the API
// key first, so a refused key fails `terraform plan -out` instead of the
// apply of the saved plan; an accepted key costs the plan one read (and the
// apply, which plans the create again, one more), and nothing once another
// read has proven it.
func TestAccKeyCheckedAtPlan(t *testing.T) {
	t.Parallel()
	keyCheck := providertest.KeyCheckPath
	expired := fakeapi.KeyLimits{ExpiresAt: fakeapitest.Start.Add(-time.Hour)}
	env := providertest.NewTestEnv(t, fakeapi.WithKeys(fakeapi.KeyOptions{Limits: expired}))
	cli := env.CLI(t)
	config := providertest.BundleConfig("docs.example.com", "") + providertest.AgentJobResourceConfig("Document the CLI", "")
	cli.WriteConfig(env.Config(config))
	out := failed(t, cli, "plan", "-out=tfplan")
	expectSaid(t, out, "Error: Mintlify API Key Expired",
		"while checking the API key at plan time (HTTP 401: API key expired at 2026-11-21T08:00:00.000Z)")
	if n := strings.Count(out, "Error: "); n != 1 {
		t.Errorf("the plan said %d errors, want the key's once:\n%s", n, out)
	}
	if n, checks := len(env.Fake.Requests()), env.Fake.Count("GET", keyCheck); n != 1 || checks != 1 {
		t.Errorf("the plan sent %d requests (%d key checks), want the one check", n, checks)
	}

	env.Fake.SetKeyLimits(fakeapi.KeyLimits{})
	cli.MustRun("plan", "-out=tfplan", "-input=false")
	if n := env.Fake.Count("GET", keyCheck); n != 2 {
		t.Errorf("%d key checks after a second plan, want 2", n)
	}
	// The apply plans the create again, so it checks the key once more,
	// before it starts anything.
	cli.MustRun("apply", "-input=false", "tfplan")
	if n := env.Fake.Count("GET", keyCheck); n != 3 {
		t.Errorf("%d key checks after the apply, want 3", n)
	}
	// A data source read at plan proves the key before the create is
	// planned (depends_on orders the two).
	cli.WriteConfig(env.Config(config + "\ndata \"mintlify_static_export_job\" \"this\" {\n  job_id = mintlify_static_export_bundle.docs.job_id\n}\n" +
		strings.Replace(providertest.BundleConfig("docs.example.com", "depends_on = [data.mintlify_static_export_job.this]"), `"docs"`, `"more"`, 1)))
	cli.MustRun("plan", "-input=false")
	if n := env.Fake.Count("GET", keyCheck); n != 3 {
		t.Errorf("%d key checks after a plan whose read of a job proved the key, want still 3", n)
	}
}

// toTheMinute is d as a failed renewal states it: to the minute ("1h47m"),
// or "less than a minute".
func toTheMinute(d time.Duration) string {
	if d < time.Minute {
		return "less than a minute"
	}
	return strings.Replace(strings.TrimSuffix(d.Round(time.Minute).String(), "0s"), "h0m", "h", 1)
}
