package staticexport

import (
	"archive/zip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The archive of a project-scoped job: `project_id` set, the link from the
// job's read, a ZIP archive told by its first bytes.

// projectArchiveConfig is the project-scoped bundle "docs" and the archive
// of its job at out, with extra arguments (HCL lines).
func projectArchiveConfig(out, extra string) string {
	return providertest.ProjectBundleConfig("") + projectArchive(providertest.BundleAddr+".job_id", providertest.BundleAddr+".project_id", out, extra)
}

// projectArchive is the archive "docs" of the job jobID in project
// projectID (both expressions) at out.
func projectArchive(jobID, projectID, out, extra string) string {
	return providertest.ArchiveWith(jobID, out, "  project_id = "+projectID+"\n"+extra)
}

// zipEntry returns the content of the entry name of the ZIP archive at p.
func zipEntry(p, name string) (string, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return "", err
	}
	defer func() { _ = zr.Close() }()
	f, err := zr.Open(name)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(f)
	return string(b), err
}

// checkZIPSite checks that the archive at out is the ZIP of the export of
// the provider's project: its index page names it.
func checkZIPSite(out string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		index, err := zipEntry(out, "index.html")
		if err != nil {
			return err
		}
		if !strings.Contains(index, "Static export of project "+providertest.ProjectID) {
			return fmt.Errorf("index.html of %s is not the export of project %s:\n%s", out, providertest.ProjectID, index)
		}
		return nil
	}
}

// checkProjectDownloads checks that every archive came from the next
// contract's storage, without the API key, and that no bundle call of
// today's contract was made.
func checkProjectDownloads(env *providertest.Env) resource.TestCheckFunc {
	return func(*terraform.State) error {
		n := 0
		for _, r := range env.Fake.Requests() {
			switch {
			case strings.HasSuffix(r.Path, "/bundle") || strings.HasPrefix(r.Path, "/bundles/"):
				return fmt.Errorf("%s %s: a project-scoped archive made a call of today's contract", r.Method, r.Path)
			case !strings.HasPrefix(r.Path, "/exports/"):
				continue
			case r.Authorized:
				return errors.New("a download request carried the API key")
			case r.Status != http.StatusOK:
				return fmt.Errorf("a download was answered %d", r.Status)
			}
			n++
		}
		if n == 0 {
			return errors.New("no download request reached the fake")
		}
		return nil
	}
}

// TestAccStaticExportArchive_projectZip downloads the ZIP archive of a
// project-scoped job from the link of its read: `format` is `zip`, the
// file holds the project's pages, and a restore of the deleted file comes
// from the same export with every hash known at plan.
func TestAccStaticExportArchive_projectZip(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_archive")
	env := providertest.NewTestEnv(t, providertest.NextOnly)
	out := filepath.Join(t.TempDir(), "build", "docs-export.zip")
	cfg := env.Config(projectArchiveConfig(out, ""))
	onDisk := resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), checkZIPSite(out), checkProjectDownloads(env))
	format := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(providertest.ArchiveAddr, tfjsonpath.New("format"), knownvalue.StringExact("zip")),
		statecheck.ExpectKnownValue(providertest.ArchiveAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(providertest.ProjectID)),
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(providertest.ArchiveAddr, tfjsonpath.New("format"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: format,
				Check:             onDisk,
			},
			{
				PreConfig: func() { providertest.MustRemove(t, out) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(providertest.ArchiveAddr, tfjsonpath.New("format"), knownvalue.StringExact("zip")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: format,
				Check:             resource.ComposeTestCheckFunc(onDisk, providertest.ExportJobsStarted(env, 0)),
			},
		},
	})
	if n := providertest.ProjectStarts(env); n != 1 {
		t.Errorf("%d project-scoped starts, want 1: the archive never starts a job", n)
	}
}

// TestAccStaticExportArchive_tarGzFormat: the archive of today's contract
// shows `format = "tar.gz"`.
func TestAccStaticExportArchive_tarGzFormat(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.BundleConfig("docs.example.com", "") + providertest.ArchiveConfig(providertest.BundleAddr+".job_id", out)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(providertest.ArchiveAddr, tfjsonpath.New("format"), knownvalue.StringExact("tar.gz")),
				statecheck.ExpectKnownValue(providertest.ArchiveAddr, tfjsonpath.New("project_id"), knownvalue.Null()),
			},
			Check: providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out),
		}},
	})
}

// TestAccStaticExportArchive_projectBadArchives refuses hostile and broken
// ZIP archives: the error names the format, the entry and the rule, and
// nothing is left behind.
func TestAccStaticExportArchive_projectBadArchives(t *testing.T) {
	t.Parallel()
	defects := map[string]fakeapi.ArchiveDefect{
		"proj_escape":    fakeapi.ArchiveEscapingEntry,
		"proj_chain":     fakeapi.ArchiveSymlinkChain,
		"proj_truncated": fakeapi.ArchiveTruncated,
	}
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext,
		Archive: func(req fakeapi.ProjectStartRequest) fakeapi.Archive {
			return fakeapi.Archive{Defect: defects[req.ProjectID]}
		}}}))
	dir := t.TempDir()
	step := func(project string, want ...string) resource.TestStep {
		job := providertest.StartProjectExportOutsideTerraform(t, env, project)
		out := filepath.Join(dir, project, "docs-export.zip")
		return resource.TestStep{
			Config:      env.Config(projectArchive(`"`+job+`"`, `"`+project+`"`, out, "")),
			ExpectError: providertest.ExpectError(append([]string{want[0], job + " of project " + project}, want[1:]...)...),
		}
	}
	const zipTold = "(format `zip`, told by its first bytes)"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			step("proj_escape", "Unsafe Bundle Archive", zipTold, "is not safe to extract", `entry "../escape.html": a name may not have a . or .. segment`,
				"Nothing was written to", "Do not extract this bundle"),
			step("proj_chain", "Unsafe Bundle Archive", zipTold,
				// Streamed, the entries' names are read before the central
				// directory, where the attributes make d/up a link.
				`entry "d/up/up": its directory "d/up" is a file earlier in the archive`, "Nothing was written to"),
			step("proj_truncated", "Invalid Bundle Archive", zipTold, "is not valid", "Nothing was written to", "Apply again to download it again"),
		},
	})
	if err := providertest.ExpectOnlyFiles(dir); err != nil {
		t.Error(err)
	}
}

// TestAccStaticExportArchive_projectWaitsForTheJob downloads the archive of
// a project-scoped job that has not completed once it has, on the fake's
// clock, and explains a failed one.
func TestAccStaticExportArchive_projectWaitsForTheJob(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext,
		Plan: func(req fakeapi.ProjectStartRequest) fakeapi.JobPlan {
			plan := fakeapi.JobPlan{QueueFor: time.Minute, RunFor: 5 * time.Minute}
			if req.ProjectID == "proj_fails" {
				plan.FailWith = "page guides/x failed to render"
			}
			return plan
		}}}))
	running := providertest.StartProjectExportOutsideTerraform(t, env, providertest.ProjectID)
	failing := providertest.StartProjectExportOutsideTerraform(t, env, "proj_fails")
	out := filepath.Join(t.TempDir(), "docs-export.zip")
	started := env.Clock.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(projectArchive(`"`+failing+`"`, `"proj_fails"`, out, "")),
				ExpectError: providertest.ExpectError("Static Export Job Failed", failing+" of project proj_fails", `"page guides/x failed to render"`, "Nothing was written"),
			},
			{
				Config: env.Config(projectArchive(`"`+running+`"`, `"`+providertest.ProjectID+`"`, out, "")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(providertest.ArchiveAddr, tfjsonpath.New("format"), knownvalue.StringExact("zip")),
				},
				Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), checkZIPSite(out), func(*terraform.State) error {
					if waited := env.Clock.Now().Sub(started); waited < 6*time.Minute {
						return fmt.Errorf("the archive was downloaded %s after the job started, before it completed", waited)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccStaticExportArchive_projectRefusals: a job the project does not
// have, and static export not enabled for the project (as 401 or 403),
// are explained as the job data source explains them, nothing written.
func TestAccStaticExportArchive_projectRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		notEnabled int
		want       []string
	}{
		{"job not found", 0, []string{"Static Export Job Not Found", `project proj_test has no static export job "0123456789abcdef01234567"`,
			"Nothing was written to", "Check `job_id` and `project_id`"}},
		{"not enabled as 401", http.StatusUnauthorized, []string{"Static Export Not Enabled", "Contact Mintlify to enable it", "Nothing was written to"}},
		{"not enabled as 403", http.StatusForbidden, []string{"Static Export Not Enabled", "Contact Mintlify to enable it", "Nothing was written to"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{Contracts: fakeapi.ServeNext, NotEnabled: tc.notEnabled}}))
			dir := t.TempDir()
			out := filepath.Join(dir, "docs-export.zip")
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: env.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      env.Config(projectArchive(`"0123456789abcdef01234567"`, `"`+providertest.ProjectID+`"`, out, "")),
					ExpectError: providertest.ExpectError(tc.want...),
				}},
			})
			if err := providertest.ExpectOnlyFiles(dir); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestAccStaticExportArchive_projectIDRefusedAtPlan refuses an empty
// project_id at plan, before any request, as the job data source does.
func TestAccStaticExportArchive_projectIDRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.NextOnly)
	out := filepath.Join(t.TempDir(), "docs-export.zip")
	providertest.ExpectRefusedAtPlan(t, env, []providertest.Refusal{
		{Config: env.Config(projectArchive(`"0123456789abcdef01234567"`, `" "`, out, "")), Want: "Empty Argument|The `project_id` argument is empty"},
	})
}

// archiveFixture is testdata/archive_state_cb297ee.tfstate (see
// testdata/README.md), and the output_path it was written with.
const (
	archiveFixture     = "testdata/archive_state_cb297ee.tfstate"
	archiveFixturePath = "/tmp/mintlify-archive-fixture/docs-bundle.tar.gz"
)

// TestAccStaticExportArchive_stateFromBeforeFormat: an archive's state
// written by the provider before `project_id` and `format` plans no change
// with the same configuration, a refresh-only plan included; a restore
// gives it its format; moving the configuration to a project-scoped job
// replaces the archive once, with `format = "zip"`.
func TestAccStaticExportArchive_stateFromBeforeFormat(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_archive")
	env := providertest.NewTestEnv(t, providertest.NextAndToday, fakeapi.WithHostile(fakeapi.HostileOptions{JobIDs: func() string { return fixtureJob }}))
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	writeFixtureArchive(t, env, out)
	fixture, err := os.ReadFile(archiveFixture)
	if err != nil {
		t.Fatal(err)
	}
	cli := env.CLI(t)
	cli.WriteFile("terraform.tfstate", asWrittenHere(t, strings.ReplaceAll(string(fixture), archiveFixturePath, out), out))
	cli.WriteConfig(env.Config(providertest.ArchiveConfig(`"`+fixtureJob+`"`, out)))
	expectPlanExit(t, cli, 0)
	expectQuietRefresh(t, cli)

	// Downloaded again (a restore), the archive gets its format.
	providertest.MustRemove(t, out)
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if got := cli.Instance(providertest.ArchiveAddr).Attr("format"); got != "tar.gz" {
		t.Fatalf("format = %q after a restore, want tar.gz", got)
	}
	expectPlanExit(t, cli, 0)

	cli.WriteConfig(env.Config(projectArchiveConfig(out, "")))
	res := expectPlanExit(t, cli, 2)
	if !strings.Contains(res.Output, providertest.ArchiveAddr+" must be replaced") || !strings.Contains(res.Output, "2 to add, 0 to change, 1 to destroy") {
		t.Fatalf("moving to the project does not replace the archive once:\n%s", res)
	}
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	archive := cli.Instance(providertest.ArchiveAddr)
	if archive.Attr("format") != "zip" || archive.Attr("project_id") != providertest.ProjectID {
		t.Fatalf("format = %q, project_id = %q after the move, want zip in %s", archive.Attr("format"), archive.Attr("project_id"), providertest.ProjectID)
	}
	if err := checkZIPSite(out)(nil); err != nil {
		t.Fatal(err)
	}
	expectPlanExit(t, cli, 0)
}

// expectQuietRefresh fails t unless a refresh-only plan reports nothing:
// it exits 0, or, under Terraform 1.11, exits 2 saying that nothing
// changed. Terraform 1.11.4 exits 2 so from a quiet refresh-only plan of
// any archive, one written by the provider of cb297ee too, where 1.5.7,
// 1.15 and 1.16 exit 0.
func expectQuietRefresh(t *testing.T, cli *providertest.CLI) {
	t.Helper()
	res := cli.Run("plan", "-refresh-only", "-detailed-exitcode", "-no-color", "-input=false")
	quiet := res.Exit == 0 || res.Exit == 2 && providertest.VersionMeets(t, "~> 1.11.0") &&
		strings.Contains(res.Output, "No changes. Your infrastructure still matches the configuration.")
	if !quiet {
		t.Fatalf("a drift check reports a change where nothing changed:\n%s", res)
	}
}

// writeFixtureArchive starts the fixture's export job, as the state
// names it, and puts its archive at out, as the provider wrote it then.
func writeFixtureArchive(t *testing.T, env *providertest.Env, out string) {
	t.Helper()
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(env.URL), mintlify.WithClock(env.Clock))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com"}); err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(time.Minute)
	file, err := archivefile.Create(out, archivefile.Options{Context: t.Context()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = file.Discard() }()
	if _, err := c.DownloadBundle(t.Context(), fixtureJob, file); err != nil {
		t.Fatal(err)
	}
	if _, _, err := file.Commit(nil); err != nil {
		t.Fatal(err)
	}
}

// asWrittenHere is the fixture's state with the identity on disk of the
// file at out in its private state, in place of the identity of the file
// the fixture's run wrote: the state as its user has it, with the file the
// provider wrote.
func asWrittenHere(t *testing.T, state, out string) string {
	t.Helper()
	id, err := archivefile.Identify(out)
	if err != nil {
		t.Fatal(err)
	}
	facts, err := json.Marshal(map[string]any{"version": 1, "written": id})
	if err != nil {
		t.Fatal(err)
	}
	private, err := json.Marshal(map[string]string{"mintlify": base64.StdEncoding.EncodeToString(facts)})
	if err != nil {
		t.Fatal(err)
	}
	var written struct {
		Resources []struct {
			Instances []struct {
				Private string `json:"private"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(state), &written); err != nil || len(written.Resources) != 1 || len(written.Resources[0].Instances) != 1 {
		t.Fatalf("the fixture is not the state of one archive (%v):\n%s", err, state)
	}
	return strings.Replace(state, written.Resources[0].Instances[0].Private, base64.StdEncoding.EncodeToString(private), 1)
}
