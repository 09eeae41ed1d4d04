package provider

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestSecretsNeverReachLogsOrState runs, for every type, the real
// terraform CLI against the provider built as a plugin binary, at
// TF_LOG=TRACE, and searches the whole output (stdout, stderr and
// TF_LOG_PATH) and `terraform show -json` of the state and of a saved plan
// for the API key; and the logs for the signature of every presigned link
// the API handed out or served. With the right key the apply succeeds; with
// a wrong one it fails on the API's 401. The key is given in the
// configuration or in MINTLIFY_API_KEY.
//
// With the right key, the types run together, one configuration for the
// types each CLI has (forFixturesTogether): each does its whole work, and
// the key reaches each the same way, through the provider's
// configuration. With a wrong key, a type runs alone: in a run of them all,
// the first refusal would end the plan before the other types' own calls.
func TestSecretsNeverReachLogsOrState(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	sources := []bool{false, true}
	t.Run("right key", func(t *testing.T) {
		t.Parallel()
		forFixturesTogether(t, suiteSecrets, func(t *testing.T, names []string) {
			for _, inConfig := range sources {
				t.Run(keySource(inConfig), func(t *testing.T) {
					t.Parallel()
					secretsNeverReachLogsOrState(t, names, false, inConfig)
				})
			}
		})
	})
	t.Run("wrong key", func(t *testing.T) {
		t.Parallel()
		forEachFixture(t, suiteSecrets, func(t *testing.T, name string, _ fixture) {
			for _, inConfig := range sources {
				t.Run(keySource(inConfig), func(t *testing.T) {
					t.Parallel()
					secretsNeverReachLogsOrState(t, []string{name}, true, inConfig)
				})
			}
		})
	})
}

// keySource names where a case of TestSecretsNeverReachLogsOrState gives
// the key.
func keySource(inConfig bool) string {
	if inConfig {
		return "in the configuration"
	}
	return "from the environment"
}

// secretsNeverReachLogsOrState is one case of
// TestSecretsNeverReachLogsOrState: the types of the fixtures names, in one
// configuration.
func secretsNeverReachLogsOrState(t *testing.T, names []string, wrongKey, inConfig bool) {
	t.Helper()
	serverKey := providertest.RandomKey(t)
	key := serverKey
	if wrongKey {
		key = providertest.RandomKey(t)
	}
	fake := fakeapi.New(append([]fakeapi.Option{fakeapi.WithClock(clock.Real()),
		fakeapi.WithKeys(fakeapi.KeyOptions{APIKey: serverKey})}, fixtureOptions(names)...)...)
	// A download link is in no answer of the API: note its signatures as
	// they arrive.
	var signatures providertest.SyncBuffer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sig := r.URL.Query().Get("X-Amz-Signature"); sig != "" {
			signatures.WriteString(sig + "\n")
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	body := fixtureBodies(t, names, world{URL: srv.URL, Key: serverKey, Fake: fake, Clock: clock.Real()})
	// starts is how many jobs, deployments and runs the apply makes;
	// linkTypes how many of the types handle presigned links, each at
	// least one.
	starts, linkTypes := 0, 0
	for _, name := range names {
		starts += fixtures[name].starts
		if fixtures[name].links {
			linkTypes++
		}
	}
	before := started(fake)

	logPath := filepath.Join(t.TempDir(), "terraform.log")
	env := []string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logPath}
	providerArgs := fmt.Sprintf("base_url   = %q\n  project_id = %q", srv.URL, providertest.ProjectID)
	if inConfig {
		providerArgs += fmt.Sprintf("\n  api_key    = %q", key)
	} else {
		env = append(env, "MINTLIFY_API_KEY="+key)
	}
	cli := providertest.BuiltCLI(t, providertest.WithEnv(env...))
	cli.WriteConfig(fmt.Sprintf("provider \"mintlify\" {\n  %s\n}\n", providerArgs) + body)

	outputs := runSecretsCLI(t, cli, wrongKey, inConfig)
	logs, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) < 10_000 || !bytes.Contains(logs, []byte("Mintlify API response")) {
		t.Fatalf("TF_LOG_PATH holds %d bytes without the provider's trace: the test would prove nothing", len(logs))
	}
	outputs["TF_LOG_PATH"] = string(logs)
	for name, out := range outputs {
		for _, secret := range []string{key, serverKey, strings.TrimPrefix(key, "mint_")} {
			if i := strings.Index(out, secret); i >= 0 {
				t.Errorf("%s: the key appears: …%s…", name, out[max(0, i-200):min(len(out), i+len(secret)+50)])
			}
		}
	}
	if i := strings.Index(string(logs), "Bearer "); i >= 0 {
		t.Errorf("an Authorization header appears in the log: …%s…", logs[max(0, i-100):min(len(logs), i+60)])
	}
	links := linkSignatures(&signatures, fake)
	if !wrongKey && len(links) < linkTypes {
		t.Fatalf("%d presigned links were handed out or downloaded for %d types that handle them: the test would prove nothing",
			len(links), linkTypes)
	}
	for _, sig := range links {
		if bytes.Contains(logs, []byte(sig)) {
			t.Errorf("the signature %s of a presigned link appears in the log", sig)
		}
	}
	want := starts
	if wrongKey {
		want = 0
	}
	if n := started(fake) - before; n != want {
		t.Errorf("starts (see started) = %d, want %d", n, want)
	}
}

// runSecretsCLI applies the configuration in cli and, when the key is
// right, shows the state, plans, and shows the saved plan (unless the key
// is in the configuration, which a saved plan holds as main.tf does). It
// returns each place the key must not reach, by name, with what it held.
func runSecretsCLI(t *testing.T, cli *providertest.CLI, wrongKey, inConfig bool) map[string]string {
	t.Helper()
	outputs := map[string]string{}
	run := func(name string, args ...string) int {
		res := cli.Run(args...)
		outputs[name] = res.Stdout + res.Stderr
		return res.Exit
	}
	exit := run("terraform apply", "apply", "-auto-approve", "-input=false", "-no-color")
	if wrongKey {
		if exit == 0 || !strings.Contains(outputs["terraform apply"], "Mintlify API Key Rejected") {
			t.Fatalf("apply with a wrong key: exit %d, want the 401 diagnostic:\n%s", exit, outputs["terraform apply"])
		}
		return outputs
	}
	if exit != 0 {
		t.Fatalf("apply: exit %d\n%s", exit, outputs["terraform apply"])
	}
	steps := [][]string{{"terraform show -json (state)", "show", "-json"},
		{"terraform plan", "plan", "-out=tfplan", "-input=false", "-no-color"}}
	// A saved plan holds the configuration itself, so a key written in it
	// is in the plan's JSON as it is in main.tf: Terraform's doing, and why
	// the docs recommend the environment variable. A key from the
	// environment must not be there.
	if !inConfig {
		steps = append(steps, []string{"terraform show -json (saved plan)", "show", "-json", "tfplan"})
	}
	for _, step := range steps {
		if exit := run(step[0], step[1:]...); exit != 0 {
			t.Fatalf("%s: exit %d\n%s", step[0], exit, outputs[step[0]])
		}
	}
	return outputs
}

// linkSignatures are the signatures of every link the API handed out, and
// of every download (noted in downloads as they arrived: a download link
// is in no answer of the API), each once.
func linkSignatures(downloads *providertest.SyncBuffer, fake *fakeapi.Server) []string {
	links := strings.Fields(downloads.String())
	for _, r := range fake.Requests() {
		for _, m := range providertest.Signature.FindAllSubmatch(r.Response, -1) {
			links = append(links, string(m[1]))
		}
	}
	slices.Sort(links)
	return slices.Compact(links)
}
