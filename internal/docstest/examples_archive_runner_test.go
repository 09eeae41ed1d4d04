package docstest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestArchiveOnARunnerThatStartsEmpty runs the air-gapped example as a CI
// runner that starts empty runs it (HCP Terraform, Atlantis, a fresh CI
// runner): the state is in a backend, but neither the working directory nor
// the archive survives the last run. It checks what the guide says of each
// plan and apply there: the plan restores the archive in place with a
// warning, with its hashes known, so nothing that uses them changes; the
// apply downloads it from the same export (one link, one download, no
// export), also when it applies the saved plan on another empty runner; the
// next empty runner does the same again.
func TestArchiveOnARunnerThatStartsEmpty(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, providertest.SizedArchives(1<<20))
	storage := t.TempDir() // output_path: the same path on every runner
	example := strings.ReplaceAll(readExample(t, filepath.Join("guides", "air-gapped-storage", "values-only"), "main.tf"), "${path.module}", storage)
	archive := filepath.Join(storage, "build", "docs-bundle.tar.gz")

	first := env.CLI(t)
	first.WriteConfig(env.Config(example))
	first.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	sha := first.Instance(archiveAddr).Attr("sha256")
	state, err := os.ReadFile(filepath.Join(first.Dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}

	for run := 1; run <= 2; run++ {
		// A new runner: a fresh directory with the backend's state, and no
		// archive.
		if err := os.RemoveAll(filepath.Join(storage, "build")); err != nil {
			t.Fatal(err)
		}
		runner := env.CLI(t)
		runner.WriteConfig(env.Config(example))
		runner.WriteFile("terraform.tfstate", string(state))
		env.Fake.Reset()

		plan := runner.Run("plan", "-detailed-exitcode", "-out=tfplan", "-input=false", "-no-color")
		for _, want := range []string{"Plan: 0 to add, 1 to change, 0 to destroy.", "mintlify_static_export_archive.docs will be updated in-place"} {
			if plan.Exit != 2 || !strings.Contains(plan.Output, want) {
				t.Fatalf("run %d: the plan on an empty runner (exit %d) does not say %q:\n%s", run, plan.Exit, want, plan.Output)
			}
		}
		if !strings.Contains(plan.Output, "Warning: Archive Missing: Restoring It") || strings.Contains(plan.Output, "terraform_data.helm_values will be") {
			t.Errorf("run %d: the plan restores the archive without a warning, or changes the chart's values:\n%s", run, plan.Output)
		}
		// Besides the bundle's status, the plan asks once whether the API
		// serves the project-scoped export (the provider has `project_id`).
		if n := len(env.Fake.Requests()) - env.Fake.Count(http.MethodGet, "/v1/static-export/jobs/") -
			env.Fake.Count(http.MethodGet, "/v1/static-export/"+providertest.ProjectID+"/jobs/"); n != 0 {
			t.Errorf("run %d: the plan sent %d requests besides the bundle's status and the question of the "+
				"project-scoped export, want none: refreshing the archive reads only the disk", run, n)
		}

		// The first run applies as it plans; the second applies the saved
		// plan on another empty runner, as HCP Terraform and pipelines with
		// a plan artifact do.
		applyArgs := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
		if run == 2 {
			saved, err := os.ReadFile(filepath.Join(runner.Dir, "tfplan"))
			if err != nil {
				t.Fatal(err)
			}
			runner = env.CLI(t)
			runner.WriteConfig(env.Config(example))
			runner.WriteFile("terraform.tfstate", string(state))
			runner.WriteFile("tfplan", string(saved))
			applyArgs = []string{"apply", "-input=false", "-no-color", "tfplan"}
		}
		env.Fake.Reset()
		apply := runner.MustRun(applyArgs...).Output
		if !strings.Contains(apply, "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.") {
			t.Errorf("run %d: the apply on an empty runner:\n%s", run, apply)
		}
		links, downloads := 0, 0
		for _, r := range env.Fake.Requests() {
			switch {
			case r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/bundle"):
				links++
			case !strings.HasPrefix(r.Path, "/v1/") && !strings.HasPrefix(r.Path, "/v2/"):
				downloads++
			}
		}
		if links != 1 || downloads != 1 || env.Fake.ExportJobsStarted() != 1 {
			t.Errorf("run %d: the apply generated %d links and downloaded %d times, %d exports in all; want 1, 1 and 1", run, links, downloads, env.Fake.ExportJobsStarted())
		}
		if got := runner.Instance(archiveAddr).Attr("sha256"); got != sha {
			t.Errorf("run %d: sha256 = %s after the restore, want %s", run, got, sha)
		}
		if _, err := os.Stat(archive); err != nil {
			t.Errorf("run %d: the archive is not at output_path after the apply: %v", run, err)
		}
		state, err = os.ReadFile(filepath.Join(runner.Dir, "terraform.tfstate"))
		if err != nil {
			t.Fatal(err)
		}
	}
}
