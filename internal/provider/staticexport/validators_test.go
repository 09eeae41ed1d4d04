package staticexport

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestPagePath(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		"index":                          "",
		"guides/getting-started":         "",
		"":                               "an entry is empty: remove it",
		"  ":                             "an entry is empty: remove it",
		"/index":                         `remove the leading slash (use "index")`,
		"//guides/x":                     `remove the leading slash (use "guides/x")`,
		"https://docs.example.com/index": "give the page path, not a full URL",
		"guides/../admin":                `has a "." or ".." segment`,
		"./index":                        `has a "." or ".." segment`,
		"index?lang=fr":                  `remove the query or fragment (use "index")`,
		"guides/setup#install":           `remove the query or fragment (use "guides/setup")`,
		"index\t":                        "contains a control character",
		" guides/setup ":                 `remove the spaces around it (use "guides/setup")`,
		"guides/v1.2/notes":              "",
	} {
		var resp validator.StringResponse
		pagePath.ValidateString(context.Background(), validator.StringRequest{
			Path: path.Root("paths").AtListIndex(0), ConfigValue: types.StringValue(p),
		}, &resp)
		switch {
		case want == "" && resp.Diagnostics.HasError():
			t.Errorf("%q: unexpected %v", p, resp.Diagnostics)
		case want != "" && (!resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Detail(), want)):
			t.Errorf("%q: got %v, want an error saying %q", p, resp.Diagnostics, want)
		}
	}
}

// TestFilePermission reads file_permission the same way for a create and
// an update, and refuses a permission its owner cannot read by (such as
// "0000", which the create used to take for "the default" and the update
// set as it is).
func TestFilePermission(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]fs.FileMode{"0640": 0o640, "640": 0o640, "0400": 0o400, "0755": 0o755, "0604": 0o604} {
		m := staticExportArchiveModel{FilePermission: types.StringValue(value)}
		if got, err := m.filePermission(); err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", value, got, err, want)
		}
	}
	for _, value := range []string{"0000", "000", "0200", "0044", "0377"} {
		m := staticExportArchiveModel{FilePermission: types.StringValue(value)}
		if got, err := m.filePermission(); err == nil || !strings.Contains(err.Error(), "does not let the file's owner read it") {
			t.Errorf("%q = %v, %v; want refused, as the owner cannot read it", value, got, err)
		}
	}
	if got, err := (&staticExportArchiveModel{FilePermission: types.StringNull()}).filePermission(); got != 0 || err != nil {
		t.Errorf("unset = %v, %v; want 0 (created as any new file is)", got, err)
	}
}
