package staticexport

import (
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

func TestOutputPathExtensionProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path, format string
		want         []string // phrases of the warning; none for no warning
	}{
		{"build/docs.tar.gz", archivefile.FormatZip, []string{"ends in `.tar.gz`", "is a ZIP", "`project_id` is set",
			`Name it "build/docs.zip"`}},
		{"build/docs.TGZ", archivefile.FormatZip, []string{"ends in `.TGZ`", `Name it "build/docs.zip"`}},
		{"docs.zip", archivefile.FormatTarGz, []string{"ends in `.zip`", "is a tar.gz", "no `project_id`",
			`Name it "docs.tar.gz"`}},
		{"build/docs.zip", archivefile.FormatZip, nil},
		{"build/docs.tar.gz", archivefile.FormatTarGz, nil},
		{"build/docs.tgz", archivefile.FormatTarGz, nil},
		{"build/docs.bin", archivefile.FormatZip, nil},
		{"build/docs", archivefile.FormatTarGz, nil},
		{"build/zip/docs.tar", archivefile.FormatZip, nil},
	} {
		got := outputPathExtensionProblem(tc.path, tc.format)
		if len(tc.want) == 0 && got != "" {
			t.Errorf("%s as %s: unexpected warning %q", tc.path, tc.format, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s as %s: the warning does not say %q: %q", tc.path, tc.format, w, got)
			}
		}
	}
}

// TestAccStaticExportArchive_outputPathNamesAnotherFormat: a plan warns when
// `output_path`'s extension contradicts the format of the job's contract
// (a `.tar.gz` for a project-scoped job's ZIP), naming the attribute and the
// path to use; a matching extension plans without the warning.
func TestAccStaticExportArchive_outputPathNamesAnotherFormat(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, providertest.NextAndToday)
	cli := env.CLI(t)
	archive := func(outputPath string) string {
		return env.Config(providertest.ArchiveWith(`"6520f3a1c9b1a20012ab34cd"`, outputPath,
			`project_id = "`+providertest.ProjectID+`"`))
	}
	cli.WriteConfig(archive("build/docs-bundle.tar.gz"))
	out := strings.Join(strings.Fields(cli.MustRun("plan", "-no-color", "-input=false").Output), " ")
	for _, want := range []string{"Warning: Output Path Names Another Format", "output_path",
		"ends in `.tar.gz`, but the archive of this job is a ZIP", `Name it "build/docs-bundle.zip"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	cli.WriteConfig(archive("build/docs-bundle.zip"))
	if out := cli.MustRun("plan", "-no-color", "-input=false").Output; strings.Contains(out, "Another Format") {
		t.Errorf("a .zip for a ZIP is warned about:\n%s", out)
	}
}
