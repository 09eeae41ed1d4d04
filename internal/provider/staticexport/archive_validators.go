package staticexport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The archive's checks of its own arguments at plan time: output_path and
// file_permission (with what the apply reads of the latter).

// outputPathValidator refuses, at plan time, an output_path that cannot
// hold the archive.
var outputPathValidator = core.ProblemCheck("value must be the path of a file to write, such as `build/docs-bundle.tar.gz`",
	"Invalid Output Path", outputPathProblem, "The `output_path` %[1]q cannot hold the archive: %[2]s.")

// outputPathProblem says why p cannot be written as a file, and how to fix
// it, or returns "". It looks at the file system as it is at plan time.
func outputPathProblem(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "it is empty. Give the file to write, such as `\"${path.module}/build/docs-bundle.tar.gz\"`"
	case strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator)):
		return fmt.Sprintf("it names a directory (it ends with a slash). Add a file name, such as `%q`", p+"docs-bundle.tar.gz")
	}
	if info, err := os.Stat(p); err == nil && info.IsDir() {
		return fmt.Sprintf("it is a directory. Add a file name, such as `%q`", filepath.ToSlash(filepath.Join(p, "docs-bundle.tar.gz")))
	}
	// The nearest ancestor that exists must be a directory.
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		switch {
		case err == nil && !info.IsDir():
			return fmt.Sprintf("its parent %s is a file, not a directory. Choose another path, or move that file", dir)
		case err == nil || !errors.Is(err, fs.ErrNotExist) || filepath.Dir(dir) == dir:
			return "" // a directory; or something only the apply can tell
		}
	}
}

// filePermissionValidator refuses, at plan time, a file_permission that is
// not a permission in octal digits, or one that does not let the file's
// owner read it.
var filePermissionValidator = core.StringCheck{
	Rule: "value must be a permission of three or four octal digits that lets the owner read the file, such as `0640`",
	Check: func(p path.Path, value string) diag.Diagnostics {
		var diags diag.Diagnostics
		if _, err := parsePermission(value); err != nil {
			diags.AddAttributeError(p, "Invalid File Permission", err.Error())
		}
		return diags
	},
}

// permissionError is a file_permission that cannot be the archive's; its
// text is the whole detail of the diagnostic, fix included.
type permissionError struct{ value, problem string }

func (e *permissionError) Error() string {
	if strings.HasPrefix(e.problem, "does not") {
		return fmt.Sprintf("The `file_permission` %q %s", e.value, e.problem)
	}
	return fmt.Sprintf("The `file_permission` %q is not a permission: %s. Give three or four octal digits, such "+
		"as `\"0640\"` (read and write for the owner, read for the group) or `\"0644\"`.", e.value, e.problem)
}

// parsePermission reads a set file_permission, such as "0640" or "640".
// A permission without read for the owner (such as "0000") is refused: the
// provider reads the archive at every refresh to check that it is still
// the one it wrote, and a bundle nobody can read is of no use. It means
// the same on create and on update; there is no value that means "the
// default" (leave file_permission unset for that).
func parsePermission(s string) (fs.FileMode, error) {
	for _, c := range s {
		if c < '0' || c > '7' {
			return 0, &permissionError{s, fmt.Sprintf("%q is not an octal digit", c)}
		}
	}
	switch {
	case s == "":
		return 0, &permissionError{s, "it is empty"}
	case len(s) != 3 && len(s) != 4:
		return 0, &permissionError{s, fmt.Sprintf("it has %d digits", len(s))}
	case len(s) == 4 && s[0] != '0':
		return 0, &permissionError{s, "its first digit sets the setuid, setgid or sticky bit, which an archive has no use for: it must be 0"}
	}
	v, _ := strconv.ParseUint(s, 8, 32) // three or four octal digits
	if v&0o400 == 0 {
		return 0, &permissionError{s, "does not let the file's owner read it: the provider reads the archive at " +
			"every refresh to check that it is still the one it wrote, and a bundle nobody can read is of no use. " +
			"Give the owner read permission, such as `\"0640\"` (read and write for the owner, read for the group) " +
			"or `\"0600\"`, or leave `file_permission` unset to create the file as any new file is."}
	}
	return fs.FileMode(v), nil
}

// filePermission is the permission m sets, 0 when file_permission is
// unset; an error when it is set to a value that validation refuses, which
// reaches the apply when the value was unknown at plan.
func (m *staticExportArchiveModel) filePermission() (fs.FileMode, error) {
	if m.FilePermission.IsNull() {
		return 0, nil
	}
	return parsePermission(m.FilePermission.ValueString())
}
