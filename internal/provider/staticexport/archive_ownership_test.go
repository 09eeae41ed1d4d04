package staticexport

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// holds checks that the file at p holds content, with permission perm.
func holds(p, content string, perm os.FileMode) error {
	got, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	info, err := os.Stat(p)
	if err != nil {
		return err
	}
	if string(got) != content || info.Mode().Perm() != perm {
		return fmt.Errorf("%s holds %q (%v), want %q (%v)", p, got, info.Mode().Perm(), content, perm)
	}
	return nil
}

// TestAccStaticExportArchive_neverReplacesAUserFile refuses a create over a
// file the resource did not write: at plan when output_path is known, at
// apply when it is not, and at apply for a gzip file (see planCreate),
// always before any download; with overwrite = true it replaces it.
func TestAccStaticExportArchive_neverReplacesAUserFile(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	job := env.StartExportOutsideTerraform(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "docs-bundle.tar.gz")
	providertest.WriteUserFile(t, out, "my notes")
	// The same path, unknown until the bundle's job starts at apply.
	unknownAtPlan := fmt.Sprintf(`"%s${substr(mintlify_static_export_bundle.docs.job_id, 0, 0)}"`, out)
	unknownConfig := env.Config(providertest.BundleConfig("docs.example.com", "") + strings.Replace(
		providertest.ArchiveConfig("mintlify_static_export_bundle.docs.job_id", out), strconv.Quote(out), unknownAtPlan, 1))
	userFileKept := func(*terraform.State) error { return holds(out, "my notes", 0o600) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(providertest.ArchiveConfig(strconv.Quote(job), out)),
				PlanOnly:    true,
				ExpectError: providertest.ExpectError("Output Path Already In Use", out, "already holds a file that this resource did not write", "Nothing was downloaded", "Move it elsewhere and apply again, or set `overwrite = true`"),
			},
			{
				Config:      unknownConfig,
				ExpectError: providertest.ExpectError("Output Path Already In Use", out, "already holds a file that this resource did not write"),
			},
			{
				// A gzip file of the user's: refused by the create.
				PreConfig: func() {
					if err := userFileKept(nil); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(out, smallArchive(t), 0o600); err != nil {
						t.Fatal(err)
					}
				},
				Config:      env.Config(providertest.ArchiveConfig(strconv.Quote(job), out)),
				ExpectError: providertest.ExpectError("Output Path Already In Use", out, "already holds a file that this resource did not write", "Nothing was written to"),
			},
			{
				// The failed creates left the user's file, downloaded nothing
				// and saved no archive.
				PreConfig: func() {
					if err := holds(out, string(smallArchive(t)), 0o600); err != nil {
						t.Fatal(err)
					}
					if n := providertest.DownloadRequests(env); n != 0 {
						t.Fatalf("%d downloads before the refusals, want none", n)
					}
				},
				Config: env.Config(providertest.ArchiveWith(strconv.Quote(job), out, "  overwrite = true")),
				Check:  providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out),
			},
		},
	})
}

// TestAccStaticExportArchive_destroyDeletesOnlyItsFile deletes the archive
// after a touch and a chmod, and a copy of it restored from a cache; it
// leaves a file moved into its place, even one of the same size and
// modification time.
func TestAccStaticExportArchive_destroyDeletesOnlyItsFile(t *testing.T) {
	t.Parallel()
	t.Run("touched", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t)
		out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
		cfg := env.Config(providertest.ArchiveConfig(strconv.Quote(env.StartExportOutsideTerraform(t)), out))
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			CheckDestroy: func(*terraform.State) error {
				if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("destroy left the archive %s (%v)", out, err)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{Config: cfg},
				{
					PreConfig: func() {
						later := time.Now().Add(48 * time.Hour)
						if err := os.Chtimes(out, later, later); err != nil {
							t.Fatal(err)
						}
						if err := os.Chmod(out, 0o600); err != nil {
							t.Fatal(err)
						}
					},
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				},
			},
		})
	})
	t.Run("restored from a cache", func(t *testing.T) {
		// A copy of the archive, another file of the same content, moved
		// into place: taken as the resource's own, so destroy deletes it.
		t.Parallel()
		env := providertest.NewTestEnv(t)
		out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
		cfg := env.Config(providertest.ArchiveConfig(strconv.Quote(env.StartExportOutsideTerraform(t)), out))
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			CheckDestroy: func(*terraform.State) error {
				if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("destroy left the archive %s (%v)", out, err)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{Config: cfg},
				{
					PreConfig: func() {
						raw, err := os.ReadFile(out)
						if err != nil {
							t.Fatal(err)
						}
						providertest.WriteUserFile(t, out+".cached", string(raw))
						if err := os.Rename(out+".cached", out); err != nil {
							t.Fatal(err)
						}
					},
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				},
			},
		})
	})
	t.Run("replaced", func(t *testing.T) {
		t.Parallel()
		env := providertest.NewTestEnv(t)
		dir := t.TempDir()
		out := filepath.Join(dir, "docs-bundle.tar.gz")
		job := env.StartExportOutsideTerraform(t)
		var mine string
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: env.ProviderFactories(),
			CheckDestroy: func(*terraform.State) error {
				if got, err := os.ReadFile(out); err != nil || string(got) != mine {
					return fmt.Errorf("destroy did not leave the user's file: %d bytes, %v", len(got), err)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{Config: env.Config(providertest.ArchiveConfig(strconv.Quote(job), out))},
				{
					// Another file of the same size and modification time is
					// moved into place.
					PreConfig: func() {
						info, err := os.Stat(out)
						if err != nil {
							t.Fatal(err)
						}
						mine = strings.Repeat("x", int(info.Size()))
						other := filepath.Join(dir, "mine")
						providertest.WriteUserFile(t, other, mine)
						if err := os.Chtimes(other, info.ModTime(), info.ModTime()); err != nil {
							t.Fatal(err)
						}
						if err := os.Rename(other, out); err != nil {
							t.Fatal(err)
						}
					},
					Config: env.Config(providertest.ArchiveConfig(strconv.Quote(job), out)),
					ExpectError: providertest.ExpectError("Output Path Holds Another File", out, "holds a file that this resource did not write",
						"so the archive was not restored there", "Move that file elsewhere and apply again", "or set `overwrite = true`"),
				},
			},
		})
	})
}

// TestAccStaticExportArchive_restoreOverAnotherFile replaces a file moved
// into the archive's place only with overwrite = true, from the same
// export, and keeps sha256 known at plan.
func TestAccStaticExportArchive_restoreOverAnotherFile(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	job := env.StartExportOutsideTerraform(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(providertest.ArchiveConfig(strconv.Quote(job), out))},
			{
				PreConfig: func() {
					providertest.MustRemove(t, out)
					providertest.WriteUserFile(t, out, "my notes")
				},
				Config:      env.Config(providertest.ArchiveConfig(strconv.Quote(job), out)),
				ExpectError: providertest.ExpectError("Output Path Holds Another File"),
			},
			{
				Config: env.Config(providertest.ArchiveWith(strconv.Quote(job), out, "  overwrite = true")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), providertest.ExportJobsStarted(env, 1)),
			},
		},
	})
}

// TestAccStaticExportArchive_archiveChangedOnMintlify refuses to restore an
// archive whose bytes changed on the Mintlify side, and writes nothing.
func TestAccStaticExportArchive_archiveChangedOnMintlify(t *testing.T) {
	t.Parallel()
	var swap atomic.Bool
	other := smallArchive(t)
	env := providertest.NewTestEnvWithHandler(t, func(fake http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if swap.Load() && strings.HasPrefix(r.URL.Path, "/bundles/") {
				w.Header().Set("Content-Length", strconv.Itoa(len(other)))
				_, _ = w.Write(other)
				return
			}
			fake.ServeHTTP(w, r)
		})
	})
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	cfg := env.Config(providertest.ArchiveConfig(strconv.Quote(env.StartExportOutsideTerraform(t)), out) + providertest.PinConfig)
	var first string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "sha256", providertest.Capture(&first))},
			{
				PreConfig: func() {
					providertest.MustRemove(t, out)
					swap.Store(true)
				},
				Config: cfg,
				ExpectError: providertest.ExpectError("Archive Changed On The Mintlify Side", "has SHA-256", "not", "the job's archive changed on the Mintlify side",
					"It was not written", "run `terraform apply -replace=` with its address, shown above after `with`"),
			},
			{
				// Nothing was written and the state kept the archive: once the
				// storage serves it again, the restore succeeds.
				PreConfig: func() {
					if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
						t.Fatalf("the refused restore left %s (%v)", out, err)
					}
					swap.Store(false)
				},
				Config: cfg,
				Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "sha256", func(v string) error {
					if v != first {
						return fmt.Errorf("sha256 = %s, want %s", v, first)
					}
					return nil
				})),
			},
		},
	})
}

// smallArchive is a valid tar.gz of one page.
func smallArchive(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := []byte("<h1>Another export</h1>")
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "index.html", Mode: 0o644, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	_, _ = tw.Write(body)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAccStaticExportArchive_createBeforeDestroy replaces an archive with
// create_before_destroy at the same path. Terraform plans the new instance
// with the old one's private state, but creates it without: at apply it
// re-plans the new instance after setting the old one aside, with no
// private state, and the framework gives Create none. So the new instance
// cannot know that the file there is the old instance's: the apply stops
// with an error that says what to do, and the old instance and its file
// stay. With overwrite = true the new archive replaces the old one's, and
// destroying the old instance leaves it; with a path per job, the old file
// is deleted.
func TestAccStaticExportArchive_createBeforeDestroy(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_archive")
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
	first, second, third := env.StartExportOutsideTerraform(t), env.StartExportOutsideTerraform(t), env.StartExportOutsideTerraform(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "docs-bundle.tar.gz")
	cfg := func(jobID, outputPath, extra string) string {
		return env.Config(providertest.ArchiveWith(strconv.Quote(jobID), outputPath, extra+"\n  lifecycle {\n    create_before_destroy = true\n  }"))
	}
	var firstSHA string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg(first, out, ""), Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out),
				resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "sha256", providertest.Capture(&firstSHA)))},
			{
				Config: cfg(second, out, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionCreateBeforeDestroy)},
				},
				ExpectError: providertest.ExpectError("Output Path Already In Use", out, "If it is the archive of this resource's previous instance",
					"create_before_destroy", "give each job its own file", "or set `overwrite = true`"),
			},
			{
				// The old instance is current again, its file untouched.
				Config: cfg(first, out, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "sha256", func(v string) error {
					if v != firstSHA {
						return fmt.Errorf("sha256 = %s, want the first archive's %s", v, firstSHA)
					}
					return nil
				})),
			},
			{
				Config: cfg(second, out, "  overwrite = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionCreateBeforeDestroy)},
				},
				Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), resource.TestCheckResourceAttr(providertest.ArchiveAddr, "job_id", second)),
			},
			{
				// A path per job: the old instance's file is deleted.
				Config: cfg(third, filepath.Join(dir, "docs-"+third+".tar.gz"), ""),
				Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, filepath.Join(dir, "docs-"+third+".tar.gz")),
					resource.TestCheckResourceAttr(providertest.ArchiveAddr, "job_id", third)),
			},
		},
	})
}

// TestArchiveDriftIsExplained runs the real CLI to show the warnings and
// errors a user reads when the archive drifts: at plan, a restore of a
// missing or changed archive is a warning; another file in its place is an
// error, or with overwrite = true a warning; destroy leaves a file it did
// not write, and says so.
func TestArchiveDriftIsExplained(t *testing.T) {
	t.Parallel()
	fake := fakeapi.New(
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
	url := contract.Serve(t, fake)
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(url))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	cli := providertest.BuiltCLI(t, providertest.WithEnv("MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+url))
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	cli.WriteConfig(providertest.ArchiveConfig(strconv.Quote(job.JobID), out))
	// run runs terraform, which must succeed (or fail, with fails) and say
	// the phrases of want in order.
	run := func(fails bool, args []string, want ...string) {
		t.Helper()
		res := cli.Run(append(args, "-no-color", "-input=false")...)
		if (res.Exit != 0) != fails || !providertest.ExpectError(want...).MatchString(res.Stdout+res.Stderr) {
			t.Errorf("terraform %s: exit %d, and it does not say %q:\n%s%s", args[0], res.Exit, want, res.Stdout, res.Stderr)
		}
	}
	apply := []string{"apply", "-auto-approve"}
	run(false, apply, "Creation complete")

	providertest.MustRemove(t, out)
	run(false, apply, "Modifications complete", "Warning: Archive Missing: Restoring It", "is no longer at", out,
		"from the same export", "sha256` and the other hashes stay", "0 added, 1 changed, 0 destroyed")

	if err := os.WriteFile(out, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(false, apply, "Modifications complete", "Warning: Archive Changed On Disk: Restoring It", out,
		"which this resource wrote, was changed", "1 changed")

	providertest.MustRemove(t, out)
	providertest.WriteUserFile(t, out, "my notes")
	run(false, []string{"plan"}, "update in-place", "Warning: Output Path Holds Another File", out,
		"that this resource did not write", "the apply will stop with an error and leave it as it is")
	run(true, apply, "Error: Output Path Holds Another File", out, "so the archive was not restored there")
	run(false, []string{"destroy", "-auto-approve"}, "Destruction complete", "Warning: Archive Left In Place", out,
		"was not deleted", "that this resource did not write")
	if err := holds(out, "my notes", 0o600); err != nil {
		t.Error(err)
	}

	cli.WriteConfig(providertest.ArchiveWith(strconv.Quote(job.JobID), out, "  overwrite = true"))
	run(false, apply, "Creation complete")
	providertest.MustRemove(t, out)
	providertest.WriteUserFile(t, out, "my notes")
	run(false, apply, "Modifications complete", "Warning: Replacing Another File At Output Path",
		"Because `overwrite = true`, the apply replaces it", "1 changed")
}

// TestAccStaticExportArchive_dependentWithCreateBeforeDestroy follows the
// air-gapped guide: a resource that uses the archive has
// create_before_destroy (as its aws_s3_object does), which Terraform then
// applies to the archive too. A new export at the same output_path stops
// with the explanation; with a file per job, as the guide has it, the new
// archive is written beside the old one, and the old one is deleted.
func TestAccStaticExportArchive_dependentWithCreateBeforeDestroy(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	dir := t.TempDir()
	fixed := filepath.Join(dir, "docs-bundle.tar.gz")
	perJob := dir + "/docs-${mintlify_static_export_bundle.docs.job_id}.tar.gz"
	cfg := func(commit, outputPath string) string {
		return env.Config(providertest.BundleConfig("docs.example.com", fmt.Sprintf("triggers = { docs_commit = %q }", commit)) +
			fmt.Sprintf(`
resource "mintlify_static_export_archive" "docs" {
  job_id      = mintlify_static_export_bundle.docs.job_id
  output_path = "%s"
}

resource "terraform_data" "upload" {
  input = mintlify_static_export_archive.docs.sha256

  lifecycle {
    create_before_destroy = true
  }
}
`, outputPath))
	}
	var firstJob string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg("a1", fixed), Check: providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, fixed)},
			{
				Config: cfg("b2", fixed),
				ExpectError: providertest.ExpectError("Output Path Already In Use", fixed, "create_before_destroy",
					"give each job its own file"),
			},
			{
				Config: cfg("a1", perJob),
				Check:  resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "job_id", providertest.Capture(&firstJob)),
			},
			{
				Config: cfg("b2", perJob),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionCreateBeforeDestroy)},
				},
				Check: func(s *terraform.State) error {
					job := s.RootModule().Resources[providertest.ArchiveAddr].Primary.Attributes["job_id"]
					if job == firstJob {
						return errors.New("the archive was not replaced")
					}
					out := filepath.Join(dir, "docs-"+job+".tar.gz")
					if err := providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out)(s); err != nil {
						return err
					}
					return providertest.ExpectOnlyFiles(dir, filepath.Base(out))
				},
			},
		},
	})
}
