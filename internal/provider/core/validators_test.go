package core

import (
	"regexp"
	"strings"
	"testing"
)

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
		got := HostnameProblem(c.domain)
		if fixed := suggestedHost.FindStringSubmatch(got); fixed != nil {
			if again := HostnameProblem(fixed[1]); again != "" {
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
func TestPathSegmentProblem(t *testing.T) {
	for _, ok := range []string{"6650f1c2a0b1c2d300000001", "6650F1C2", "nightly-build", "a.b", "wf_123", "ü", "a:b@c"} {
		if p := PathSegmentProblem(ok); p != "" {
			t.Errorf("PathSegmentProblem(%q) = %q, want it accepted", ok, p)
		}
	}
	for _, c := range []struct{ id, want string }{
		{"", "it is empty"},
		{"  ", "it is empty"},
		{"abc\n", "control character"},
		{" abc ", `remove the spaces around it (use "abc")`},
		{"a b", "an id has no spaces"},
		{" a b ", "an id has no spaces"},
		{"a\u00a0b", "an id has no spaces"},
		{".", "it is no id"},
		{"..", "it is no id"},
		{"proj/abc", `give the id alone (use "abc", if that is it)`},
		{"https://dashboard.mintlify.com/x/automations/abc/", `(use "abc", if that is it)`},
		{"abc?tab=1", `(use "abc", if that is it)`},
		{"abc#top", `(use "abc", if that is it)`},
		{"/", "which an id cannot"},
		{"a/..", "which an id cannot"},
	} {
		if got := PathSegmentProblem(c.id); !strings.Contains(got, c.want) {
			t.Errorf("PathSegmentProblem(%q) = %q, want it to say %q", c.id, got, c.want)
		}
	}
}

func TestProjectIDProblem(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{ // want: substring of the explanation; "" means valid
		"proj_demo":                "",
		"65a1b2c3d4e5f60718293a4b": "",
		"a":                        "",
		"my-project_2":             "",
		"":                         "it is empty",
		" proj_demo":               `remove the spaces around it (use "proj_demo")`,
		"proj demo":                "an id has no spaces",
		"proj_demo\n":              "control character",
		"https://dashboard.mintlify.com/proj_demo": `(use "proj_demo", if that is it)`,
		"proj.demo":             "it holds '.'",
		"projé":                 "it holds 'é'",
		"_proj":                 "it must begin with a letter or a digit",
		strings.Repeat("p", 65): "longer than 64 characters",
		"mint_0123456789":       "as an admin API key does, so the value is not shown",
	} {
		got := ProjectIDProblem(id)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("ProjectIDProblem(%q) = %q, want %q", id, got, want)
		}
	}
	// A key pasted in the wrong place is never quoted back.
	if d := projectIDDiagnostics(PathProjectID, "The `project_id`", "mint_secret0123"); strings.Contains(d[0].Detail(), "secret0123") {
		t.Errorf("the error quotes the key: %s", d[0].Detail())
	}
}
