package docstest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccExamplePreviewRemovedIsForgotten applies the preview's registry
// example, then the example that replaces it by a removed block with
// `lifecycle { destroy = false }`: the preview leaves the state without a
// destroy, and nothing is deployed again.
func TestAccExamplePreviewRemovedIsForgotten(t *testing.T) {
	t.Parallel()
	providertest.SkipUnlessVersion(t, ">= 1.7") // removed blocks
	env := newTestEnv(t, deploysCommit())
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(readExample(t, filepath.Join("resources", "mintlify_preview_deployment"), "resource.tf")))
	cli.WriteFile("terraform.tfvars", "branch   = \"feature/new-api\"\nhead_sha = \"3b1f0c9\"\n")
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if !cli.Instance("mintlify_preview_deployment.docs").Exists {
		t.Fatal("the registry example left no preview in the state")
	}

	cli.WriteConfig(env.Config(readExample(t, filepath.Join("resources", "mintlify_preview_deployment", "stop-managing"), "main.tf")))
	cli.WriteFile("terraform.tfvars", "")
	res := cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if cli.Instance("mintlify_preview_deployment.docs").Exists || cli.Resources() != 0 {
		t.Errorf("after the removed block, the state still holds the preview:\n%s", res)
	}
	if n := len(env.Fake.DeploymentRequests()); n != 1 {
		t.Errorf("deployments triggered = %d, want the preview's 1", n)
	}
}

// newPreviewAddress serves the fake, except that from the second preview
// deployment on, the API answers with another address, as Mintlify may
// once the preview was deleted and is created again.
func newPreviewAddress(oldURL, newURL string) fakeapitest.Option {
	return fakeapitest.Handler(func(fake *fakeapi.Server) http.Handler {
		var previews atomic.Int32
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/project/preview/") || previews.Add(1) == 1 {
				fake.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			fake.ServeHTTP(rec, r)
			for k, v := range rec.Header() {
				if k != "Content-Length" {
					w.Header()[k] = v
				}
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(bytes.ReplaceAll(rec.Body.Bytes(), []byte(oldURL), []byte(newURL)))
		})
	})
}

// TestAccExamplePreviewNewAddress applies the preview's registry example,
// then a new head commit after the preview got a new address: the
// redeployment records the address the API answered with, and the
// example's output follows it.
func TestAccExamplePreviewNewAddress(t *testing.T) {
	t.Parallel()
	oldURL := fakeapi.PreviewURL(providertest.ProjectID, "feature/new-api")
	newURL := "https://proj-test-feature-new-api-2.mintlify.app"
	env := providertest.NewEnv(t, testProvider, fakeapitest.Fake(deploysCommit()), newPreviewAddress(oldURL, newURL))
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(readExample(t, filepath.Join("resources", "mintlify_preview_deployment"), "resource.tf")))
	for i, want := range []string{oldURL, newURL} {
		cli.WriteFile("terraform.tfvars", "branch   = \"feature/new-api\"\nhead_sha = \""+[]string{"3b1f0c9", "9d2e4a1"}[i]+"\"\n")
		cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
		if got := strings.TrimSpace(cli.MustRun("output", "-raw", "preview_url").Stdout); got != want {
			t.Errorf("deployment %d: output preview_url = %q, want %q", i+1, got, want)
		}
	}
}
