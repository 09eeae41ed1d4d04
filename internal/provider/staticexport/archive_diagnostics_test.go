package staticexport

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// TestArchiveDiagnosticOfARace explains what only a race with another
// process shows at apply: output_path became something that is not a
// regular file during the download, or the file or the partial download
// was swapped while the archive was being moved into place.
func TestArchiveDiagnosticOfARace(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "docs-bundle.tar.gz")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	at := archiveAttempt{jobID: "se_0123456789abcdef", outputPath: out, step: stepWrite}
	cases := []struct {
		err  error
		want []string
	}{
		{&fs.PathError{Op: "identify", Path: out, Err: archivefile.ErrNotRegular}, []string{"Output Path Is Not A Regular File",
			out + " is a directory", "never replaces anything but a regular file, not even with `overwrite = true`",
			"Nothing was written to " + out, "Remove it, or set `output_path` to another path"}},
		{&fs.PathError{Op: "check", Path: out, Err: archivefile.ErrReplaced}, []string{"Output Path Changed During The Apply",
			"se_0123456789abcdef", "another process replaced", "deleted nothing it did not write",
			"keep `output_path` in a directory only you can write to"}},
	}
	for _, tc := range cases {
		d := archiveDiagnostic(tc.err, at)
		text := d.Summary() + ": " + d.Detail()
		for _, want := range tc.want {
			if !strings.Contains(text, want) {
				t.Errorf("for %v the diagnostic says %q, without %q", tc.err, text, want)
			}
		}
	}
}
