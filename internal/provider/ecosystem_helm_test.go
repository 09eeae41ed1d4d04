//go:build ecosystem

package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// testChart is a local chart with the Enterprise chart's static export
// values; Mintlify's chart registry cannot be reached from tests.
var testChart, _ = filepath.Abs(filepath.Join("testdata", "charts", "mintlify"))

// helmCLI is a working directory with the CLI under test, our provider and
// helm installed (providertest.BuiltCLIWithHelm), and a fake API whose exports
// complete at once; opts come after those defaults, so they win. env is
// added to the CLI's environment.
type helmCLI struct {
	*providertest.CLI
	t    *testing.T
	fake *fakeapi.Server
	// shown lists the plan, apply and destroy commands whose output held a
	// link's signature; leakDocumented says the configuration is one whose
	// plans the docs say show the link.
	shown          []string
	leakDocumented bool
}

func newHelmCLI(t *testing.T, env []string, opts ...fakeapi.Option) *helmCLI {
	t.Helper()
	fake := fakeapi.New(append([]fakeapi.Option{fakeapi.WithClock(clock.Real()), fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{}
	}})}, opts...)...)
	url := contract.Serve(t, fake)
	cli := providertest.BuiltCLIWithHelm(t, providertest.WithEnv(append([]string{
		"MINTLIFY_API_KEY=" + fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL=" + url, "MINTLIFY_PROJECT_ID=" + providertest.ProjectID,
		// No cluster: data "helm_template" renders offline and helm_release is only planned.
		"KUBECONFIG=" + filepath.Join(t.TempDir(), "no-kubeconfig")}, env...)...))
	c := &helmCLI{CLI: cli, t: t, fake: fake}
	t.Cleanup(c.checkShownSignatures)
	return c
}

// Run runs terraform and notes a plan, apply or destroy whose output (what
// a CI log or a pull request comment keeps) holds a link's signature.
func (c *helmCLI) Run(args ...string) providertest.Result {
	c.t.Helper()
	res := c.CLI.Run(args...)
	if len(args) > 0 && slices.Contains([]string{"plan", "apply", "destroy"}, args[0]) {
		if lines := signatureLines(res.Stdout + res.Stderr); len(lines) > 0 {
			c.shown = append(c.shown, strings.Join(args, " ")+":\n"+strings.Join(lines, "\n"))
		}
	}
	return res
}

// signatureLines returns the lines of out that hold a link's signature,
// with the signature masked.
func signatureLines(out string) []string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if providertest.Signature.MatchString(line) {
			lines = append(lines, "    "+strings.TrimSpace(providertest.Signature.ReplaceAllString(line, "X-Amz-Signature=<masked>")))
		}
	}
	return lines
}

// checkShownSignatures fails the test when a plan, apply or destroy
// printed a link's signature; for the configuration whose caveat the docs
// state (helm_values through `values`), when none did.
func (c *helmCLI) checkShownSignatures() {
	switch {
	case !c.leakDocumented && len(c.shown) > 0:
		c.t.Errorf("a link's signature is in the output of:\n%s", strings.Join(c.shown, "\n"))
	case c.leakDocumented && len(c.shown) == 0:
		c.t.Error("no plan or apply printed the link: the helm provider no longer shows helm_values in the " +
			"release's metadata (hashicorp/terraform-provider-helm#1287); revisit the caveat of the Helm guides")
	}
}

// documentLeak marks the configuration as the one the docs say prints the
// link in a plan that upgrades the release: the test then fails unless one
// did.
func (c *helmCLI) documentLeak() { c.leakDocumented = true }

// Write puts an example, as written, into the working directory. The one
// change: the chart from Mintlify's repository becomes the local test chart.
func (c *helmCLI) Write(name, hcl string) {
	c.t.Helper()
	c.WriteFile(name, withLocalChart(hcl, "chart = "+quote(testChart)))
}

// chartSource matches an example's chart reference: `chart = "mintlify"`
// with an optional `repository` line.
var chartSource = regexp.MustCompile(`(?m)^\s*(repository\s*=\s*[^\n]*\n\s*)?chart\s*=\s*"mintlify"`)

// chartVersionDefault matches the default of an example's chart_version.
var chartVersionDefault = regexp.MustCompile(`(variable "chart_version" \{[^}]*default\s*=\s*)"[^"]*"`)

// withLocalChart replaces an example's chart reference with local, the
// arguments that install the test chart; the example's chart_repository
// variable, which only the replaced reference used, gets a default, and its
// chart_version the test chart's version.
func withLocalChart(hcl, local string) string {
	hcl = chartSource.ReplaceAllString(hcl, local)
	hcl = chartVersionDefault.ReplaceAllString(hcl, `${1}"0.1.0"`)
	return strings.Replace(hcl, `variable "chart_repository" {`, `variable "chart_repository" {`+"\n  default = \"\"", 1)
}

// quote is a string as Helm's `quote` writes it.
func quote(s string) string { return strconv.Quote(s) }

// must runs terraform, fails the test with its output when it fails, and
// returns its stdout.
func (c *helmCLI) must(args ...string) string {
	c.t.Helper()
	res := c.Run(append(args, "-no-color")...)
	if res.Exit != 0 {
		c.t.Fatal(res)
	}
	return res.Stdout
}

// expectNoChanges plans again and fails unless the plan is empty.
func (c *helmCLI) expectNoChanges(args ...string) {
	c.t.Helper()
	if res := c.Run(append([]string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}, args...)...); res.Exit != 0 {
		c.t.Fatalf("the plan after apply is not empty (exit %d):\n%s", res.Exit, res.Output)
	}
}

// state returns `terraform show -json`'s resources by address.
func (c *helmCLI) state() map[string]map[string]any {
	c.t.Helper()
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(c.must("show", "-json")), &doc); err != nil {
		c.t.Fatal(err)
	}
	byAddr := map[string]map[string]any{}
	for _, r := range doc.Values.RootModule.Resources {
		byAddr[r.Address] = r.Values
	}
	return byAddr
}

// readExampleAsWritten returns an example file under examples/, terraform
// block and all.
func readExampleAsWritten(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestHelmTemplateRendersTheLink applies the Helm guide's offline check:
// data "helm_template" renders the chart with our helm_values, and with
// bundle_url through set_sensitive; both manifests carry the link and the
// deployed commit as the version, and the next plan is empty.
func TestHelmTemplateRendersTheLink(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	c := newHelmCLI(t, nil)
	c.Write("main.tf", readExampleAsWritten(t, "guides/deploy-with-helm/template/main.tf"))
	c.must("init", "-input=false")
	c.must("validate")
	c.must("apply", "-auto-approve", "-input=false", "-var=docs_commit=abc123")

	state := c.state()
	bundle := state["mintlify_static_export_bundle.docs"]
	link, _ := bundle["bundle_url"].(string)
	if !strings.Contains(link, "X-Amz-Signature=") {
		t.Fatalf("bundle_url in state is %q, want a presigned link", link)
	}
	// The export is tagged with the commit its deployment put live.
	version, _ := state["mintlify_deployment.docs"]["commit_sha"].(string)
	if version == "" || bundle["version"] != version {
		t.Fatalf("the bundle's version is %v, want the deployed commit %q", bundle["version"], version)
	}
	for _, addr := range []string{"data.helm_template.values", "data.helm_template.set_sensitive"} {
		manifest, _ := state[addr]["manifest"].(string)
		for _, want := range []string{"value: " + quote(link), `mintlify.com/static-export-version: "` + version + `"`} {
			if !strings.Contains(manifest, want) {
				t.Errorf("%s's manifest lacks %s:\n%s", addr, want, manifest)
			}
		}
	}
	c.expectNoChanges("-var=docs_commit=abc123")
}
