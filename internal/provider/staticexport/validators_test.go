package staticexport

import (
	"context"
	"io/fs"
	"regexp"
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

// suggestedHost finds the fix that a hostname problem suggests.
var suggestedHost = regexp.MustCompile(`\(use "([^"]*)"\)$`)

func TestHostnameProblem(t *testing.T) {
	t.Parallel()
	cases := []struct {
		domain string
		want   string // substring of the explanation; "" means valid
	}{
		{"docs.example.com", ""},
		{"acme.mintlify.app", ""},
		{"a-b.c-d.example", ""},
		{"", "empty"},
		{"https://docs.example.com", `remove the scheme "https://" (use "docs.example.com")`},
		{"http://docs.example.com/", `remove the scheme "http://" (use "docs.example.com")`},
		{"HTTPS://Docs.Example.com:443/guides?x=1", `remove the scheme "HTTPS://" (use "docs.example.com")`},
		{"docs.example.com/", `remove the trailing slash (use "docs.example.com")`},
		{"docs.example.com/docs", `remove the path "/docs" (use "docs.example.com")`},
		{"docs.example.com:8443", `remove the port ":8443" (use "docs.example.com")`},
		// The suggestion is the whole fix, never a value that fails again.
		{"Docs.Example.com:443", `remove the port ":443" (use "docs.example.com")`},
		{"docs example.com", "remove the spaces"},
		{" docs.example.com", `remove the spaces (use "docs.example.com")`},
		{"Docs.Example.com", `write it in lower case (use "docs.example.com")`},
		{"localhost", "at least two labels"},
		{"docs..example.com", `the label ""`},
		{"-docs.example.com", `the label "-docs"`},
		{"docs_site.example.com", `the label "docs_site"`},
		{"docs.example.com?x=1", "query"},
		{"user@docs.example.com", `user information before ` + "`@`" + ` (use "docs.example.com")`},
	}
	for _, c := range cases {
		got := hostnameProblem(c.domain)
		if fixed := suggestedHost.FindStringSubmatch(got); fixed != nil {
			if again := hostnameProblem(fixed[1]); again != "" {
				t.Errorf("hostnameProblem(%q) suggests %q, which is refused too: %s", c.domain, fixed[1], again)
			}
		}
		if c.want == "" && got != "" {
			t.Errorf("hostnameProblem(%q) = %q, want valid", c.domain, got)
		}
		if c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("hostnameProblem(%q) = %q, want it to contain %q", c.domain, got, c.want)
		}
	}
}

// TestPathSegmentProblem: an id of any shape is accepted, since Mintlify
// documents none; only what cannot be one URL path segment is refused,
// with the fix.
