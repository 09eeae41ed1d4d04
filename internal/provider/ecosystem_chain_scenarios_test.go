//go:build ecosystem

package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/kubetest"
)

// The Helm chain's scenarios past the first install: a new commit, the
// air-gapped setup, and a failed install (TestHelmChain runs them).

// triggersAndDestroy: a new docs commit starts a new export and upgrades
// the release with its link; destroy uninstalls the release.
func (c *chainCLI) triggersAndDestroy() {
	c.Write(readExampleAsWritten(c.t, setSensitiveExample))
	c.must("init", "-input=false")
	c.vendorClockRight()
	c.apply("abc123")
	first := c.rendered()
	c.apply("def456")
	c.expectRevisions("after the new commit", "1:superseded", "2:deployed")
	second := c.rendered()
	if second.BundleURL != c.bundleURL() || second.BundleURL == first.BundleURL || second.Checksum == first.Checksum {
		c.t.Errorf("after the new commit the chart rendered %+v, want the new export's link (was %+v)", second, first)
	}
	c.expectExports("after the new commit", 2, 2)

	out := c.must("destroy", "-auto-approve", "-input=false", "-var=docs_commit=def456")
	if !strings.Contains(out, "Destroy complete! Resources: 3 destroyed.") {
		c.t.Errorf("destroy did not destroy the deployment, the export and the release:\n%s", out)
	}
	if revs := c.revisions(); len(revs) != 0 {
		c.t.Errorf("after destroy Helm still records the release: %v", revs)
	}
	err := c.cluster.Get(c.t.Context(), "/api/v1/namespaces/"+c.namespace+"/configmaps/mintlify-static-export", nil)
	if !kubetest.IsNotFound(err) {
		c.t.Errorf("after destroy the ConfigMap is still there (%v)", err)
	}
}

// airGappedConfig is the air-gapped guide's chain with the loopback server
// standing in for the internal storage that the archive is uploaded to: the
// archive is written straight into the directory it serves.
const airGappedConfig = `
terraform {
  required_providers {
    mintlify = { source = "mintlify/mintlify" }
    helm     = { source = "hashicorp/helm" }
  }
}

variable "storage_dir" { type = string }
variable "storage_url" { type = string }

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}

resource "mintlify_static_export_archive" "docs" {
  job_id      = mintlify_static_export_bundle.docs.job_id
  output_path = "${var.storage_dir}/docs-bundle.tar.gz"
}

locals {
  bundle_version = substr(mintlify_static_export_archive.docs.sha256, 0, 12)
}

resource "helm_release" "mintlify" {
  name  = "mintlify"
  chart = "mintlify"

  values = [yamlencode({
    staticExport = {
      enabled   = true
      bundleUrl = "${var.storage_url}/docs-bundle.tar.gz"
      version   = local.bundle_version
    }
  })]
}
`

// airGapped: the cluster receives the internal storage's URL, with the
// version pinned from the archive's hash, and the storage serves exactly
// the archive that was checked. When the local file is gone, the next apply
// restores it without a new export and without an upgrade.
func (c *chainCLI) airGapped() {
	storage := c.t.TempDir()
	srv := httptest.NewServer(http.FileServer(http.Dir(storage)))
	c.t.Cleanup(srv.Close)
	c.vendorClockRight()
	c.Write(airGappedConfig)
	vars := []string{"-input=false", "-var=storage_dir=" + storage, "-var=storage_url=" + srv.URL}
	c.must("init", "-input=false")
	c.must(append([]string{"apply", "-auto-approve"}, vars...)...)

	sum, _ := c.state()["mintlify_static_export_archive.docs"]["sha256"].(string)
	got := c.rendered()
	internal := srv.URL + "/docs-bundle.tar.gz"
	if want := (staticExport{Enabled: "true", BundleURL: internal, Version: sum[:min(12, len(sum))], Checksum: got.Checksum}); got != want || len(sum) != 64 {
		c.t.Fatalf("the chart rendered %+v, want %+v", got, want)
	}
	if served := sha256Of(c.t, internal); served != sum {
		c.t.Errorf("the storage serves an archive with SHA-256 %s, want the checked %s", served, sum)
	}
	c.expectRevisions("after install", "1:deployed")
	c.expectExports("after install", 1, 2) // the bundle's link and the archive's own

	if err := os.Remove(filepath.Join(storage, "docs-bundle.tar.gz")); err != nil {
		c.t.Fatal(err)
	}
	// What the user sees first is the plan: the file comes back, the
	// release stays as it is.
	plan := c.must(append([]string{"plan"}, vars...)...)
	if strings.Contains(plan, "helm_release.mintlify will be") {
		c.t.Errorf("with the local file deleted, the plan changes the release; the archive must be restored with "+
			"its sha256 known at plan time, so that the values stay as they are:\n%s", plan)
	}
	c.must(append([]string{"apply", "-auto-approve"}, vars...)...)
	if served := sha256Of(c.t, internal); served != sum {
		c.t.Errorf("after the local file was deleted, the storage serves SHA-256 %s, want %s", served, sum)
	}
	if n := c.fake.ExportJobsStarted(); n != 1 {
		c.t.Errorf("restoring the local file started %d export jobs in total, want 1", n)
	}
	c.expectRevisions("after the local file was restored", "1:deployed")
}

// sha256Of downloads url and returns the hex SHA-256 of its body.
func sha256Of(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	h := sha256.New()
	if _, err := io.Copy(h, resp.Body); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// rejectingSchema is a values schema that a broken release of the chart
// might ship: it expects `bundleURL`, so the values the provider writes are
// refused.
const rejectingSchema = `{
  "$schema": "https://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "staticExport": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "enabled": { "type": "boolean" },
        "bundleURL": { "type": "string" },
        "version": { "type": "string" }
      }
    }
  }
}
`

// failedInstall: the chart rejects the values, so the install fails; the
// bundle stays in state. Once the chart is fixed, the next apply installs
// the release with the same export and the same link.
func (c *chainCLI) failedInstall() {
	c.chart = copyChart(c.t, testChart)
	schema := filepath.Join(c.chart, "values.schema.json")
	if err := os.WriteFile(schema, []byte(rejectingSchema), 0o600); err != nil {
		c.t.Fatal(err)
	}
	c.vendorClockRight()
	c.Write(readExampleAsWritten(c.t, setSensitiveExample))
	c.must("init", "-input=false")
	res := c.Run("apply", "-auto-approve", "-input=false", "-no-color", "-var=docs_commit=abc123")
	if res.Exit == 0 || !strings.Contains(res.Stdout+res.Stderr, "bundleUrl") {
		c.t.Fatalf("the apply with a chart that rejects the values did not fail on them (exit %d):\n%s", res.Exit, res.Output)
	}
	link := c.bundleURL()
	for _, rev := range c.revisions() {
		if strings.HasSuffix(rev, ":deployed") {
			c.t.Errorf("a release was deployed from a chart that rejects the values: %v", c.revisions())
		}
	}

	if err := os.Remove(schema); err != nil {
		c.t.Fatal(err)
	}
	c.apply("abc123")
	if got := c.rendered(); got.BundleURL != link {
		c.t.Errorf("after the fix the ConfigMap holds %q, want the link the failed run generated", got.BundleURL)
	}
	revs := c.revisions()
	if len(revs) == 0 || !strings.HasSuffix(revs[len(revs)-1], ":deployed") {
		c.t.Errorf("after the fix the release's revisions are %v, want the last deployed", revs)
	}
	c.expectExports("after the fix", 1, 1)
}

// copyChart copies a chart directory into a temporary one.
func copyChart(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), raw, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// instantProjectExports serves both static export contracts, a
// project-scoped export completing the moment it starts, as the fake's
// domain-scoped ones do here.
func instantProjectExports() fakeapi.Option {
	return fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeBoth,
		Plan: func(fakeapi.ProjectStartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}})
}

// moveToProjectScoped: the chain guide's release, moved by the move guide's
// configuration while the API serves both contracts, is upgraded once onto
// the project-scoped export's ZIP link, still tagged with the deployed
// commit; the next plan is empty. (TestAccExampleMoveFromTheChain walks the
// rest of the move, and the retirement, without a cluster.)
func (c *chainCLI) moveToProjectScoped() {
	c.vendorClockRight()
	c.Write(readExampleAsWritten(c.t, "guides/commit-to-cluster/main.tf"))
	c.must("init", "-input=false")
	c.apply("abc123")
	before := c.rendered()

	c.Write(readExampleAsWritten(c.t, "guides/project-scoped-exports/main.tf"))
	c.apply("abc123")
	c.expectRevisions("after the move", "1:superseded", "2:deployed")
	after := c.rendered()
	link, err := url.Parse(after.BundleURL)
	switch {
	case err != nil || path.Base(link.Path) != "export.zip" || after.BundleURL != c.bundleURL():
		c.t.Errorf("after the move the ConfigMap holds the link %q, want the project-scoped export's ZIP link in state", link.Redacted())
	case after.Version != deployedCommit || before.Version != deployedCommit:
		c.t.Errorf("staticExport.version was %q and is %q after the move, want the deployed commit %q throughout",
			before.Version, after.Version, deployedCommit)
	}
	if n := len(c.fake.ProjectJobIDs()); n != 1 {
		c.t.Errorf("%d project-scoped exports started by the move, want 1", n)
	}
	c.expectNoChanges(c.vars("abc123")...)
}
