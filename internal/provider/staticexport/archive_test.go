package staticexport

import (

	//nolint:gosec // the resource's md5 attribute is checked against it

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
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// checkDownloads checks that no download carried the API key, and that
// none was refused (a link from state would have been: it expired).
func checkDownloads(env *providertest.Env) resource.TestCheckFunc {
	return func(*terraform.State) error {
		n := 0
		for _, r := range env.Fake.Requests() {
			if !strings.HasPrefix(r.Path, "/bundles/") {
				continue
			}
			n++
			if r.Authorized {
				return errors.New("a download request carried the API key")
			}
			if r.Status != http.StatusOK {
				return fmt.Errorf("a download was answered %d", r.Status)
			}
		}
		if n == 0 {
			return errors.New("no download request reached the fake")
		}
		return nil
	}
}

// TestAccStaticExportArchive_lifecycle downloads an archive, restores it
// when it is deleted or changed on disk (from the same export) by an
// in-place update that keeps sha256 known, so that a resource pinned to
// it does not change, and does not care that the bundle's own link
// expired long ago.
func TestAccStaticExportArchive_lifecycle(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_archive")
	env := providertest.NewTestEnv(t, providertest.SizedArchives(2<<20))
	out := filepath.Join(t.TempDir(), "build", "docs-bundle.tar.gz")
	cfg := env.Config(providertest.BundleConfig("docs.example.com", "") + providertest.ArchiveConfig("mintlify_static_export_bundle.docs.job_id", out) + providertest.PinConfig)
	var first string
	sameArchive := resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "sha256", func(v string) error {
		if v != first {
			return fmt.Errorf("sha256 = %s, want the first download's %s: the same job yields the same archive", v, first)
		}
		return nil
	})
	restored := resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), sameArchive, providertest.ExportJobsStarted(env, 1))
	// A restore is an in-place update that knows every hash at plan: the
	// resource pinned to sha256 is left alone.
	restorePlan := []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionUpdate),
		plancheck.ExpectKnownValue(providertest.ArchiveAddr, tfjsonpath.New("sha256"), knownvalue.StringFunc(func(v string) error {
			if v != first {
				return fmt.Errorf("planned sha256 %s, want the recorded %s", v, first)
			}
			return nil
		})),
		plancheck.ExpectUnknownValue(providertest.ArchiveAddr, tfjsonpath.New("downloaded_at")),
		plancheck.ExpectResourceAction(providertest.PinAddr, plancheck.ResourceActionNoop),
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		CheckDestroy: func(*terraform.State) error {
			if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("destroy left %s behind (%v)", out, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(providertest.ArchiveAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectUnknownValue(providertest.ArchiveAddr, tfjsonpath.New("sha256")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out),
					resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "size_bytes", func(v string) error {
						if n, _ := strconv.Atoi(v); n > 2<<20 || n < 2<<20-1024 {
							return fmt.Errorf("size_bytes = %s, want about 2 MiB", v)
						}
						return nil
					}),
					resource.TestCheckResourceAttr(providertest.ArchiveAddr, "file_count", "45"), // index, 42 pages, 2 assets
					resource.TestCheckResourceAttrWith(providertest.ArchiveAddr, "sha256", providertest.Capture(&first)),
					checkDownloads(env),
					providertest.ExportJobsStarted(env, 1),
				),
			},
			{
				// Deleted: restored from the same export.
				PreConfig: func() { providertest.MustRemove(t, out) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             restorePlan,
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: restored,
			},
			{
				// Changed in place (the same file, other content): restored.
				PreConfig: func() {
					if err := os.WriteFile(out, []byte("not the archive"), 0o644); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             restorePlan,
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: restored,
			},
			{
				// A month later the bundle's link in state expired long ago:
				// the archive generates its own.
				PreConfig: func() {
					env.Clock.Advance(30 * 24 * time.Hour)
					providertest.MustRemove(t, out)
				},
				Config: cfg,
				Check:  resource.ComposeTestCheckFunc(restored, checkDownloads(env)),
			},
		},
	})
}

// TestAccStaticExportArchive_badArchives refuses a truncated, a corrupt and
// unsafe archives (an entry outside, a chain of symbolic links, a device, a
// FIFO, a hard link out through a symbolic link) and a body larger than the
// bundle announced, and leaves nothing behind.
func TestAccStaticExportArchive_badArchives(t *testing.T) {
	t.Parallel()
	defects := map[string]fakeapi.ArchiveDefect{
		"truncated.example.com": fakeapi.ArchiveTruncated,
		"corrupt.example.com":   fakeapi.ArchiveCorrupt,
		"escape.example.com":    fakeapi.ArchiveEscapingEntry,
		"chain.example.com":     fakeapi.ArchiveSymlinkChain,
		"device.example.com":    fakeapi.ArchiveDeviceEntry,
		"fifo.example.com":      fakeapi.ArchiveFIFOEntry,
		"hardlink.example.com":  fakeapi.ArchiveHardLinkOut,
		"oversized.example.com": fakeapi.ArchiveOversized,
	}
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(req fakeapi.StartRequest) fakeapi.Archive {
		return fakeapi.Archive{Size: 1 << 20, Defect: defects[req.Domain]}
	}}))
	dir := t.TempDir()
	var failures []providertest.Refusal
	fails := func(domain string, want ...string) {
		out := filepath.Join(dir, domain, "docs-bundle.tar.gz")
		failures = append(failures, providertest.Refusal{
			Config: archiveCase(len(failures), domain, out, ""),
			Want:   strings.Join(append(want, "Nothing was written to", out), "|"),
		})
	}
	fails("truncated.example.com", "Invalid Bundle Archive", "it ends early", "the archive is truncated")
	fails("corrupt.example.com", "Invalid Bundle Archive", "its gzip checksum does not match its content")
	fails("escape.example.com", "Unsafe Bundle Archive", `entry "../escape.html": a name may not have a . or .. segment`)
	fails("chain.example.com", "Unsafe Bundle Archive", `entry "d/up": an archive may hold regular files and directories only; this entry is a symbolic link`)
	fails("device.example.com", "Unsafe Bundle Archive", `entry "dev/console": an archive may hold regular files and directories only; this entry is a character device`)
	fails("fifo.example.com", "Unsafe Bundle Archive", `entry "run/pipe": an archive may hold regular files and directories only; this entry is a FIFO (named pipe)`)
	fails("hardlink.example.com", "Unsafe Bundle Archive", `entry "root": an archive may hold regular files and directories only; this entry is a symbolic link`)
	// 1 KiB announced, 1 MiB streamed.
	fails("oversized.example.com", "Bundle Archive Larger Than Announced", "sent more than the 1024 bytes of the bundle's sizeBytes",
		"the download stopped at byte 1025")
	providertest.ExpectEachFailsInOneApply(t, env, env.Config(""), failures)
	if err := providertest.ExpectOnlyFiles(dir); err != nil {
		t.Error(err)
	}
}

// archiveCase is case i of an archive table: a bundle of domain and its
// archive at out, with extra arguments (HCL lines), in resources named
// after i, to be applied beside the other cases.
func archiveCase(i int, domain, out, extra string) string {
	name := fmt.Sprintf("case_%d", i)
	return strings.ReplaceAll(providertest.BundleConfig(domain, "")+
		providertest.ArchiveWith("mintlify_static_export_bundle."+name+".job_id", out, extra), `"docs" {`, `"`+name+`" {`)
}

// TestAccStaticExportArchive_hostileArchives refuses every archive of the
// second hostile review of the archive check, each of which GNU tar, bsdtar, BusyBox
// tar or Python's tarfile extracts to a file or a link outside its
// directory: the error names the entry and the rule, and nothing is left
// behind. The crafted lengths are refused as soon as their header is read,
// well within a 10 s timeouts.create.
func TestAccStaticExportArchive_hostileArchives(t *testing.T) {
	t.Parallel()
	const link = "an archive may hold regular files and directories only; this entry is a symbolic link"
	cases := []struct {
		defect fakeapi.ArchiveDefect
		want   []string
	}{
		{fakeapi.ArchiveLinkBeforeLink, []string{`entry "p": ` + link}},
		{fakeapi.ArchiveBackslashName, []string{`entry "b\\b\\passwd.html": a name may not contain a backslash`}},
		{fakeapi.ArchiveCaseAlias, []string{`entry "B": ` + link}},
		{fakeapi.ArchiveRedefinedLink, []string{`entry "l": ` + link}},
		{fakeapi.ArchiveHardLinkToSymlink, []string{`entry "s": ` + link}},
		{fakeapi.ArchivePAXSparseName, []string{`entry "sparse.html": its extended header sets "GNU.sparse.name", which the archive may not use`}},
		{fakeapi.ArchiveStackedPAX, []string{`entry "PaxHeaders/stacked.html": its extended header (type 'x') follows another (type 'x'): an entry may have one at most`}},
		{fakeapi.ArchivePAXBeforeLongName, []string{`entry "././@LongLink": its extended header (type 'L') follows another (type 'x')`}},
		{fakeapi.ArchiveV7Prefix, []string{`entry "pwned.html": its header is neither POSIX ustar nor GNU format`}},
		{fakeapi.ArchiveGlobalPath, []string{`entry "pax_global_header": a global header may set nothing: its extended header sets "path"`}},
		{fakeapi.ArchiveAfterEnd, []string{`entry "after-the-end.html": it comes after the end-of-archive marker, where only zeros may be`}},
		{fakeapi.ArchiveLongLinkTarget, []string{`entry "PaxHeaders/long": its extended header holds 128017 bytes, more than the 8192 allowed`}},
		{fakeapi.ArchiveLongNames, []string{`entry "././@LongLink": its extended header holds 65539 bytes, more than the 8192 allowed`}},
		{fakeapi.ArchiveSparseEntry, []string{`entry "sparse.bin": an archive may hold regular files and directories only; this entry is a GNU sparse file`}},
	}
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Archive: func(req fakeapi.StartRequest) fakeapi.Archive {
		return fakeapi.Archive{Size: 1 << 20, Defect: fakeapi.ArchiveDefect(strings.TrimSuffix(req.Domain, ".example.com"))}
	}}))
	dir := t.TempDir()
	jobs := make([]string, len(cases))
	for i, tc := range cases {
		jobs[i] = env.StartExportOf(t, string(tc.defect)+".example.com")
	}
	// Every export completes before the apply, so that no wait moves the
	// clock that the archives' timeouts read.
	env.Clock.Advance(time.Hour)
	failures := make([]providertest.Refusal, 0, len(cases))
	for i, tc := range cases {
		out := filepath.Join(dir, string(tc.defect)+".example.com", "docs-bundle.tar.gz")
		want := append([]string{"Unsafe Bundle Archive", "is not safe to extract"}, tc.want...)
		failures = append(failures, providertest.Refusal{
			Config: strings.Replace(providertest.ArchiveWith(strconv.Quote(jobs[i]), out, `  timeouts = { create = "10s" }`),
				`"docs" {`, fmt.Sprintf(`"case_%d" {`, i), 1),
			Want: strings.Join(append(want, "Nothing was written to", out, "Do not extract this bundle"), "|"),
		})
	}
	providertest.ExpectEachFailsInOneApply(t, env, env.Config(""), failures)
	if err := providertest.ExpectOnlyFiles(dir); err != nil {
		t.Error(err)
	}
}

// TestAccStaticExportArchive_waitsForTheJob downloads the archive of a job
// that has not completed once it has, and explains a failed one.
func TestAccStaticExportArchive_waitsForTheJob(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(req fakeapi.StartRequest) fakeapi.JobPlan {
		plan := fakeapi.JobPlan{QueueFor: time.Minute, RunFor: 5 * time.Minute}
		if req.Domain == "fails.example.com" {
			plan.FailWith = "page guides/x failed to render"
		}
		return plan
	}}))
	running := env.StartExportOutsideTerraform(t)
	failing := env.StartExportOf(t, "fails.example.com")
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(providertest.ArchiveConfig(strconv.Quote(failing), out)),
				ExpectError: providertest.ExpectError("Static Export Job Failed", failing, `"page guides/x failed to render"`, "Nothing was written"),
			},
			{
				Config: env.Config(providertest.ArchiveConfig(strconv.Quote(running), out)),
				Check:  resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), resource.TestCheckResourceAttr(providertest.ArchiveAddr, "file_count", "43")),
			},
		},
	})
}

func TestAccStaticExportArchive_badInputRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	dir := t.TempDir()
	aFile := filepath.Join(dir, "a-file")
	if err := os.WriteFile(aFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	refusals := []providertest.Refusal{
		{Config: providertest.ArchiveConfig(`""`, filepath.Join(dir, "x.tar.gz")), Want: "Empty Argument|The `job_id` argument is empty|mintlify_static_export_bundle.<name>.job_id"},
		{Config: providertest.ArchiveConfig(`"se_1"`, ""), Want: "Invalid Output Path|it is empty|docs-bundle.tar.gz"},
		{Config: providertest.ArchiveConfig(`"se_1"`, dir), Want: "Invalid Output Path|it is a directory. Add a file name, such as"},
		{Config: providertest.ArchiveConfig(`"se_1"`, dir+"/build/"), Want: "Invalid Output Path|it names a directory (it ends with a slash)"},
		{Config: providertest.ArchiveConfig(`"se_1"`, filepath.Join(aFile, "x.tar.gz")), Want: "Invalid Output Path|its parent " + aFile + " is a file, not a directory"},
		{Config: strings.Replace(providertest.ArchiveConfig(`"se_1"`, filepath.Join(dir, "x.tar.gz")), "\n}\n", "\n  timeouts = { create = \"-5m\" }\n}\n", 1), Want: "Invalid Duration|`timeouts.create` must be longer than zero"},
		{Config: providertest.ArchiveWith(`"se_1"`, filepath.Join(dir, "x.tar.gz"), `  file_permission = "644x"`), Want: "Invalid File Permission|The `file_permission` \"644x\" is not a permission: 'x' is not an octal digit|such as `\"0640\"`"},
		{Config: providertest.ArchiveWith(`"se_1"`, filepath.Join(dir, "x.tar.gz"), `  file_permission = "4755"`), Want: "Invalid File Permission|its first digit sets the setuid, setgid or sticky bit"},
		{Config: providertest.ArchiveWith(`"se_1"`, filepath.Join(dir, "x.tar.gz"), `  file_permission = "06400"`), Want: "Invalid File Permission|it has 5 digits"},
		{Config: providertest.ArchiveWith(`"se_1"`, filepath.Join(dir, "x.tar.gz"), `  file_permission = ""`), Want: "Invalid File Permission|it is empty"},
		// A file its owner cannot read: the provider could not check it at
		// refresh, and a bundle nobody can read is of no use.
		{Config: providertest.ArchiveWith(`"se_1"`, filepath.Join(dir, "x.tar.gz"), `  file_permission = "0000"`), Want: "Invalid File Permission|The `file_permission` \"0000\" does not let the file's owner read it|such as `\"0640\"`"},
		{Config: providertest.ArchiveWith(`"se_1"`, filepath.Join(dir, "x.tar.gz"), `  file_permission = "0244"`), Want: "Invalid File Permission|The `file_permission` \"0244\" does not let the file's owner read it"},
	}
	// One plan of every case, each its own resource: each error must point
	// into its own resource's block.
	for i := range refusals {
		refusals[i].Config = strings.Replace(refusals[i].Config, `"docs"`, fmt.Sprintf(`"docs_%d"`, i), 1)
	}
	providertest.ExpectEachRefusedInOnePlan(t, env, env.Config(""), refusals)
}

// TestAccStaticExportArchive_importRefused: an import of an archive is
// refused at plan, before any request, saying why (the resource owns only
// a file it wrote) and what to do instead.
func TestAccStaticExportArchive_importRefused(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_static_export_archive")
	env := providertest.NewTestEnv(t)
	out := filepath.Join(t.TempDir(), "docs.tar.gz")
	importBlock := fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", providertest.ArchiveAddr, out)
	providertest.ExpectRefusedAtPlan(t, env, []providertest.Refusal{{
		Config: env.Config(importBlock + providertest.ArchiveConfig(`"se_1"`, out)),
		Want: "Static Export Archive Cannot Be Imported|owns only a file it downloaded and verified itself|" +
			"declare the resource with the export's `job_id` and the `output_path`|never replaced unless `overwrite = true`",
	}})
}

// TestAccStaticExportArchive_removesStalePartialDownloads removes the
// partial downloads of the same output_path that a killed run left, once
// they are an hour old, and nothing else.
func TestAccStaticExportArchive_removesStalePartialDownloads(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "docs-bundle.tar.gz")
	twoHoursAgo := time.Now().Add(-2 * time.Hour)
	files := map[string]time.Time{
		".docs-bundle.tar.gz.0123456789abcdef.partial": twoHoursAgo,                       // left by a killed run: removed
		".docs-bundle.tar.gz.fedcba9876543210.partial": time.Now().Add(-10 * time.Minute), // perhaps a run in progress
		".other.tar.gz.0123456789abcdef.partial":       twoHoursAgo,                       // another output's
		".docs-bundle.tar.gz.backup.partial":           twoHoursAgo,                       // not named as ours
	}
	for name, at := range files {
		providertest.WriteUserFile(t, filepath.Join(dir, name), "partial")
		if err := os.Chtimes(filepath.Join(dir, name), at, at); err != nil {
			t.Fatal(err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.ArchiveConfig(strconv.Quote(env.StartExportOutsideTerraform(t)), out)),
			Check: func(*terraform.State) error {
				return providertest.ExpectOnlyFiles(dir, ".docs-bundle.tar.gz.backup.partial", ".docs-bundle.tar.gz.fedcba9876543210.partial",
					".other.tar.gz.0123456789abcdef.partial", "docs-bundle.tar.gz")
			},
		}},
	})
}

// TestAccStaticExportArchive_noPartialWhileWaiting creates the partial
// download only once the download starts: while the create waits for a
// job that has not completed, there is none beside output_path for another
// run to sweep as a killed run's.
func TestAccStaticExportArchive_noPartialWhileWaiting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "docs-bundle.tar.gz")
	var polls, partials atomic.Int32
	env := providertest.NewTestEnvWithHandler(t, func(fake http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/static-export/jobs/") {
				polls.Add(1)
				if found, _ := filepath.Glob(filepath.Join(dir, ".docs-bundle.tar.gz.*.partial")); len(found) > 0 {
					partials.Add(1)
				}
			}
			fake.ServeHTTP(w, r)
		})
	}, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{QueueFor: time.Hour, RunFor: 5 * time.Minute}
	}}))
	job := env.StartExportOutsideTerraform(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(providertest.ArchiveWith(strconv.Quote(job), out, `  timeouts = { create = "2h" }`)),
			Check: resource.ComposeTestCheckFunc(providertest.CheckArchiveOnDisk(providertest.ArchiveAddr, out), func(*terraform.State) error {
				if polls.Load() == 0 {
					return errors.New("the create never waited for the job")
				}
				if n := partials.Load(); n > 0 {
					return fmt.Errorf("a partial download was beside output_path at %d of the %d polls of the job, before the download started", n, polls.Load())
				}
				return nil
			}),
		}},
	})
}

// TestAccStaticExportArchive_permissionUnknownAtPlan refuses at apply,
// before any download, a file_permission that was unknown at plan and
// turns out to be one that validation refuses: never a silent default
// (Terraform validates the configuration again once it is known; the
// create checks it again all the same).
func TestAccStaticExportArchive_permissionUnknownAtPlan(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "docs-bundle.tar.gz")
	cfg := providertest.BundleConfig("docs.example.com", "") + providertest.ArchiveWith("mintlify_static_export_bundle.docs.job_id", out,
		`  file_permission = "0000${substr(mintlify_static_export_bundle.docs.job_id, 0, 0)}"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      env.Config(cfg),
			ExpectError: providertest.ExpectError("Invalid File Permission", "The `file_permission` \"0000\" does not let the file's owner read it"),
		}},
	})
	if n := providertest.DownloadRequests(env); n != 0 {
		t.Errorf("%d downloads, want none", n)
	}
	if err := providertest.ExpectOnlyFiles(dir); err != nil {
		t.Error(err)
	}
}
