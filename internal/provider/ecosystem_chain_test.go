//go:build ecosystem

package provider

import (
	"archive/zip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/kubetest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The chain tests run what the Helm guide shows, end to end: the CLI under
// test, our provider built as a plugin binary against the fake API in real
// time, the real hashicorp/helm provider, and a real Kubernetes API server
// (kubetest) that the release is installed into. What a test asserts is
// read back from the cluster: the ConfigMap the chart renders from
// `staticExport`, the checksum annotation that rolls the Deployment's pods,
// and Helm's own record of the release's revisions.
//
// The examples run as written, with three mechanical changes (chainCLI.write):
// the chart is the local test chart, the release goes into the test's own
// namespace, and `wait = false`, since no kubelet ever makes a pod ready.

// TestHelmChain starts one API server and runs every scenario in it, each in
// its own namespace.
func TestHelmChain(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	cluster := kubetest.Start(t)
	failingPushes := &providertest.DocsRepository{}
	for _, tc := range []struct {
		name    string
		minimum string // the CLI version the scenario needs, if any
		run     func(*chainCLI)
		fake    []fakeapi.Option // the scenario's own options of the fake API
	}{
		{"install/set_sensitive", "", func(c *chainCLI) { c.installQuietly(setSensitiveExample) }, nil},
		{"install/helm_values", "", func(c *chainCLI) { c.installQuietly(helmValuesExample) }, nil},
		{"renewal", "", func(c *chainCLI) { c.renewal(setSensitiveExample) }, nil},
		// The second way the guides show prints the link in the plan of the
		// upgrade, as their caveat says.
		{"renewal/helm_values", "", func(c *chainCLI) { c.documentLeak(); c.renewal(helmValuesExample) }, nil},
		// Ephemeral resources need 1.10, write-only arguments 1.11.
		{"write_only", "1.11.0", (*chainCLI).writeOnly, nil},
		{"write_only/other_change", "1.11.0", func(c *chainCLI) { c.writeOnlyOtherChange(true) }, nil},
		{"write_only/other_change_without_renew_triggers", "1.11.0", func(c *chainCLI) { c.writeOnlyOtherChange(false) }, nil},
		{"triggers_and_destroy", "", (*chainCLI).triggersAndDestroy, nil},
		{"air_gapped", "", (*chainCLI).airGapped, nil},
		{"failed_install", "", (*chainCLI).failedInstall, nil},
		{"deployment_first", "", (*chainCLI).deploymentFirst, deploymentChainFake(false)},
		{"failed_deployment", "", (*chainCLI).failedDeployment, deploymentChainFake(true)},
		{"failing_commits", "", func(c *chainCLI) { c.failingCommits(failingPushes) }, []fakeapi.Option{fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: failingPushes.Plan})}},
		{"move_to_project_scoped", "", (*chainCLI).moveToProjectScoped, []fakeapi.Option{instantProjectExports()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.minimum != "" {
				providertest.SkipUnlessVersion(t, ">= "+tc.minimum)
			}
			tc.run(newChainCLI(t, cluster, tc.fake...))
		})
	}
}

// The Helm guide's two hand-overs of the link: set_sensitive, the one every
// page shows first, and helm_values through `values`.
const (
	setSensitiveExample = "guides/deploy-with-helm/set-sensitive/main.tf"
	helmValuesExample   = "guides/deploy-with-helm/values/main.tf"
)

// chainCLI is a helmCLI whose releases go into a namespace of a real API
// server. The fake API's clock is Mintlify's (the vendor's): it starts two hours behind,
// so that the first link is issued already expired, as a link is at a run
// that comes more than its lifetime after the last one. The provider runs
// on the real clock, so the next refresh finds that link due without any
// waiting; vendorClockRight sets Mintlify's clock right.
type chainCLI struct {
	*helmCLI
	cluster   *kubetest.Cluster
	namespace string
	chart     string
	vendor    *clock.Fake
}

func newChainCLI(t *testing.T, cluster *kubetest.Cluster, opts ...fakeapi.Option) *chainCLI {
	t.Helper()
	vendor := clock.NewFake(time.Now().Add(-2*time.Hour), false)
	c := &chainCLI{
		helmCLI: newHelmCLI(t, []string{"KUBE_CONFIG_PATH=" + cluster.Kubeconfig, "KUBECONFIG=" + cluster.Kubeconfig},
			append([]fakeapi.Option{fakeapi.WithClock(vendor), instantDeployments()}, opts...)...),
		cluster:   cluster,
		namespace: strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())),
		chart:     testChart,
		vendor:    vendor,
	}
	ns := map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": c.namespace}}
	if err := cluster.Create(t.Context(), "/api/v1/namespaces", ns); err != nil {
		t.Fatal(err)
	}
	return c
}

// instantDeployments makes each deployment of the examples succeed the
// moment it is triggered, on Mintlify's clock, which the chain's scenarios
// move by hand; a scenario's own options may plan them otherwise.
func instantDeployments() fakeapi.Option {
	return fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{CommitSHA: deployedCommit, Logs: []string{"Built 48 pages"}}
	}})
}

// vendorClockRight sets Mintlify's clock to the real time: the link
// issued at the first run has expired, and new links last an hour.
func (c *chainCLI) vendorClockRight() { c.vendor.Set(time.Now()) }

// namespaceLine matches an example's `namespace` argument.
var namespaceLine = regexp.MustCompile(`(?m)^\s*namespace\s*=\s*"[^"]*"\s*\n`)

// Write puts an example into the working directory with the chain's three
// changes: the test chart, the test's namespace, and no waiting for pods.
func (c *chainCLI) Write(hcl string) {
	c.t.Helper()
	hcl = namespaceLine.ReplaceAllString(hcl, "")
	hcl = withLocalChart(hcl, "chart = "+quote(c.chart)+"\n  namespace = "+quote(c.namespace)+"\n  wait = false")
	c.WriteFile("main.tf", hcl)
}

// apply applies with docs_commit, when the configuration declares it.
func (c *chainCLI) apply(docsCommit string) string {
	c.t.Helper()
	return c.must(append([]string{"apply", "-auto-approve", "-input=false"}, c.vars(docsCommit)...)...)
}

func (c *chainCLI) vars(docsCommit string) []string {
	raw, err := os.ReadFile(filepath.Join(c.Dir, "main.tf"))
	if err != nil {
		c.t.Fatal(err)
	}
	if docsCommit == "" || !strings.Contains(string(raw), `variable "docs_commit"`) {
		return nil
	}
	return []string{"-var=docs_commit=" + docsCommit}
}

// staticExport is what the chart rendered from the release's values.
type staticExport struct {
	Enabled, BundleURL, Version string
	// Checksum is the Deployment's pod template annotation.
	Checksum string
}

// rendered reads the ConfigMap and the Deployment of the release.
func (c *chainCLI) rendered() staticExport {
	c.t.Helper()
	var cm struct{ Data map[string]string }
	if err := c.cluster.Get(c.t.Context(), "/api/v1/namespaces/"+c.namespace+"/configmaps/mintlify-static-export", &cm); err != nil {
		c.t.Fatal(err)
	}
	var deploy struct {
		Spec struct {
			Template struct {
				Metadata struct{ Annotations map[string]string }
			}
		}
	}
	if err := c.cluster.Get(c.t.Context(), "/apis/apps/v1/namespaces/"+c.namespace+"/deployments/mintlify-docs", &deploy); err != nil {
		c.t.Fatal(err)
	}
	return staticExport{
		Enabled: cm.Data["enabled"], BundleURL: cm.Data["bundleUrl"], Version: cm.Data["version"],
		Checksum: deploy.Spec.Template.Metadata.Annotations["checksum/static-export"],
	}
}

// revisions lists the revisions Helm stored for the release "mintlify",
// oldest first, with their status: Helm keeps one Secret per revision.
func (c *chainCLI) revisions() []string {
	c.t.Helper()
	var list struct {
		Items []struct {
			Metadata struct{ Labels map[string]string }
		}
	}
	path := kubetest.Query("/api/v1/namespaces/"+c.namespace+"/secrets", map[string]string{"labelSelector": "owner=helm,name=mintlify"})
	if err := c.cluster.Get(c.t.Context(), path, &list); err != nil {
		c.t.Fatal(err)
	}
	var revs []string
	for _, s := range list.Items {
		revs = append(revs, s.Metadata.Labels["version"]+":"+s.Metadata.Labels["status"])
	}
	slices.SortFunc(revs, func(a, b string) int { return revisionNumber(a) - revisionNumber(b) })
	return revs
}

func revisionNumber(rev string) int {
	n, _ := strconv.Atoi(rev[:strings.Index(rev, ":")])
	return n
}

// expectRevisions fails unless the release's revisions are exactly want,
// such as "1:superseded", "2:deployed".
func (c *chainCLI) expectRevisions(when string, want ...string) {
	c.t.Helper()
	if got := c.revisions(); !slices.Equal(got, want) {
		c.t.Fatalf("%s: the release's revisions are %v, want %v", when, got, want)
	}
}

// expectExports checks how many export jobs and links the fake API made.
func (c *chainCLI) expectExports(when string, jobs, links int) {
	c.t.Helper()
	if got := c.fake.ExportJobsStarted(); got != jobs {
		c.t.Errorf("%s: export jobs started = %d, want %d", when, got, jobs)
	}
	if got := c.fake.BundlesGenerated(); got != links {
		c.t.Errorf("%s: bundle links generated = %d, want %d", when, got, links)
	}
}

// bundleURL is the link in the bundle resource's state.
func (c *chainCLI) bundleURL() string {
	c.t.Helper()
	link, _ := c.state()["mintlify_static_export_bundle.docs"]["bundle_url"].(string)
	if !strings.Contains(link, "X-Amz-Signature=") {
		c.t.Fatalf("bundle_url in state is %q, want a presigned link", link)
	}
	return link
}

// installQuietly applies an example: the ConfigMap holds exactly the link
// in state, the plan after apply is empty, and another apply leaves the
// release at its first revision.
func (c *chainCLI) installQuietly(example string) {
	c.vendorClockRight()
	c.Write(readExampleAsWritten(c.t, example))
	c.must("init", "-input=false")
	c.apply("abc123")
	got := c.rendered()
	deployed, _ := c.state()["mintlify_deployment.docs"]["commit_sha"].(string)
	if want := (staticExport{Enabled: "true", BundleURL: c.bundleURL(), Version: deployed, Checksum: got.Checksum}); got != want || got.Checksum == "" || deployed == "" {
		c.t.Errorf("the chart rendered %+v, want %+v with a checksum", got, want)
	}
	c.expectRevisions("after install", "1:deployed")
	c.expectNoChanges(c.vars("abc123")...)
	c.apply("abc123")
	c.expectRevisions("after a second apply", "1:deployed")
	c.expectExports("after two applies", 1, 1)
}

// renewal: a due link is renewed in place by one apply of example, which
// upgrades the release (the checksum changes, so pods would roll) without a
// new export; the next run, with a fresh link, changes nothing in the
// cluster.
func (c *chainCLI) renewal(example string) {
	c.Write(readExampleAsWritten(c.t, example))
	c.must("init", "-input=false")
	c.apply("abc123")
	first := c.rendered()
	c.expectRevisions("after install", "1:deployed")

	c.vendorClockRight()
	out := c.apply("abc123")
	if !strings.Contains(out, "mintlify_static_export_bundle.docs will be updated in-place") {
		c.t.Errorf("the renewal is not an in-place update of the bundle:\n%s", out)
	}
	c.expectRevisions("after the renewal", "1:superseded", "2:deployed")
	second := c.rendered()
	if second.BundleURL != c.bundleURL() || second.BundleURL == first.BundleURL {
		c.t.Errorf("after the renewal the ConfigMap holds %q, want the fresh link in state (the old one was %q)", second.BundleURL, first.BundleURL)
	}
	if second.Checksum == first.Checksum {
		c.t.Error("the renewal left the pod template's checksum as it was: pods would keep the expired link")
	}
	c.expectExports("after the renewal", 1, 2)

	c.expectNoChanges(c.vars("abc123")...)
	c.apply("abc123")
	c.expectRevisions("after a run with a fresh link", "1:superseded", "2:deployed")
	c.expectExports("after a run with a fresh link", 1, 2)
}

// writeOnly runs the write-only example: the ephemeral resource's link
// reaches the ConfigMap through set_wo, and no state file, saved plan or
// `terraform show -json` holds a link. A renewal (through a saved plan)
// re-sends a fresh one, because set_wo_revision is link_revision.
func (c *chainCLI) writeOnly() {
	c.Write(readExampleAsWritten(c.t, "ephemeral-resources/mintlify_static_export_bundle/ephemeral-resource.tf"))
	c.must("init", "-input=false")
	c.apply("")
	first := c.rendered()
	c.expectWorkingLink(first.BundleURL)
	c.expectRevisions("after install", "1:deployed")
	c.expectNoLinkStored()

	c.vendorClockRight()
	c.must("plan", "-input=false", "-out=tfplan")
	c.expectNoLinkStored()
	c.must("apply", "-input=false", "tfplan")
	c.expectRevisions("after the renewal", "1:superseded", "2:deployed")
	second := c.rendered()
	c.expectWorkingLink(second.BundleURL)
	if second.BundleURL == first.BundleURL {
		c.t.Error("the renewal did not re-send the write-only link")
	}
	c.expectNoLinkStored()
	if n := c.fake.ExportJobsStarted(); n != 1 {
		c.t.Errorf("export jobs started = %d, want 1", n)
	}

	c.expectNoChanges()
	c.apply("")
	c.expectRevisions("after a run with a fresh link", "1:superseded", "2:deployed")
}

// writeOnlyOtherChange changes another input of the write-only example's
// release (one more `set` value) while its link is fresh. With the example's
// renew_triggers, which hold a hash of the `set` values, the same apply
// generates a fresh link and the upgrade carries it: the ConfigMap keeps a
// working link, and the next plan is empty. Without them (the control), the
// helm provider upgrades the release without the write-only value, since
// set_wo_revision did not grow (hashicorp/terraform-provider-helm#1753), and
// the link is lost: the test chart then refuses the upgrade. The day helm
// re-sends it, this control fails, and the guide's advice can change.
func (c *chainCLI) writeOnlyOtherChange(withRenewTriggers bool) {
	hcl := readExampleAsWritten(c.t, "ephemeral-resources/mintlify_static_export_bundle/ephemeral-resource.tf")
	if !withRenewTriggers {
		hcl = renewTriggersBlock.ReplaceAllString(hcl, "\n")
	}
	c.vendorClockRight() // the first link is fresh: nothing is due
	c.Write(hcl)
	c.must("init", "-input=false")
	c.apply("")
	c.expectWorkingLink(c.rendered().BundleURL)
	c.expectRevisions("after install", "1:deployed")

	c.Write(strings.Replace(hcl, "release_set = [", "release_set = [\n    {\n      name  = \"docs.replicas\"\n      value = \"2\"\n    },", 1))
	if !withRenewTriggers {
		// The test chart refuses values without the link, where the real
		// chart would render pods that serve nothing.
		res := c.Run(append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, c.vars("")...)...)
		if res.Exit == 0 || !strings.Contains(res.Output, "staticExport.bundleUrl is required") {
			c.t.Errorf("without renew_triggers the upgrade kept staticExport.bundleUrl: the helm provider now re-sends "+
				"set_wo values without a new set_wo_revision; revisit the Helm guide's advice.\n%s", res)
		}
	} else {
		c.apply("")
		c.expectRevisions("after the release's other change", "1:superseded", "2:deployed")
		c.expectWorkingLink(c.rendered().BundleURL)
		c.expectNoChanges()
	}
	if n := c.fake.ExportJobsStarted(); n != 1 {
		c.t.Errorf("export jobs started = %d, want 1", n)
	}
}

// renewTriggersBlock matches the renew_triggers argument of an example.
var renewTriggersBlock = regexp.MustCompile(`(?s)\n  renew_triggers = \{.*?\n  \}\n`)

// expectWorkingLink checks that link is a presigned link of the export
// that the fake API serves.
func (c *chainCLI) expectWorkingLink(link string) {
	c.t.Helper()
	if !strings.Contains(link, "X-Amz-Signature=") {
		c.t.Fatalf("the ConfigMap holds %q, want a presigned link", link)
	}
	resp, err := http.Get(link)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		c.t.Errorf("the link in the ConfigMap answers HTTP %d", resp.StatusCode)
	}
}

// expectNoLinkStored searches every state file and saved plan in the
// working directory (a plan file is a zip archive: each of its files), and
// `terraform show -json` of both, for a link's signature.
func (c *chainCLI) expectNoLinkStored() {
	c.t.Helper()
	places := map[string]string{"terraform show -json": c.must("show", "-json")}
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		c.t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.Contains(name, ".tfstate"):
			raw, err := os.ReadFile(filepath.Join(c.Dir, name))
			if err != nil {
				c.t.Fatal(err)
			}
			places[name] = string(raw)
		case name == "tfplan":
			places["terraform show -json tfplan"] = c.must("show", "-json", name)
			for file, text := range zipEntries(c.t, filepath.Join(c.Dir, name)) {
				places[name+" ("+file+")"] = text
			}
		}
	}
	for place, text := range places {
		if providertest.Signature.MatchString(text) {
			c.t.Errorf("a link signature is stored in %s", place)
		}
	}
}

// zipEntries returns the text of every file in a zip archive.
func zipEntries(t *testing.T, path string) map[string]string {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	texts := map[string]string{}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		texts[f.Name] = string(raw)
	}
	return texts
}
