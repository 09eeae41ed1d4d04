package core

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"strings"
	"testing"
)

func TestPathSegmentProblem(t *testing.T) {
	for _, ok := range []string{"6650f1c2a0b1c2d300000001", "6650F1C2", "nightly-build", "a.b", "wf_123", "ü", "a:b@c"} {
		if p := pathSegmentProblem(ok); p != "" {
			t.Errorf("pathSegmentProblem(%q) = %q, want it accepted", ok, p)
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
		if got := pathSegmentProblem(c.id); !strings.Contains(got, c.want) {
			t.Errorf("pathSegmentProblem(%q) = %q, want it to say %q", c.id, got, c.want)
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
		got := projectIDProblem(id)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("projectIDProblem(%q) = %q, want %q", id, got, want)
		}
	}
	// A key pasted in the wrong place is never quoted back.
	if d := projectIDDiagnostics(PathProjectID, "The `project_id`", "mint_secret0123"); strings.Contains(d[0].Detail(), "secret0123") {
		t.Errorf("the error quotes the key: %s", d[0].Detail())
	}
}

func TestAPIKeyDiagnostics(t *testing.T) {
	t.Parallel()
	const secret = "mint_s3cr3t"
	cases := []struct {
		key      string
		severity diag.Severity // 0: no diagnostic
		want     string
	}{
		{secret, 0, ""},
		{"", diag.SeverityError, "is empty"},
		{" \n", diag.SeverityError, "is empty"},
		{secret + "\n", diag.SeverityError, "contains spaces or line breaks"},
		{"mint_a b", diag.SeverityError, "contains spaces or line breaks"},
		{"pk_s3cr3t", diag.SeverityWarning, "does not begin with `mint_`"},
	}
	for _, c := range cases {
		for _, fromEnv := range []bool{false, true} {
			diags := apiKeyDiagnostics(c.key, fromEnv)
			if c.severity == 0 {
				if len(diags) != 0 {
					t.Errorf("%q: unexpected %v", c.key, diags)
				}
				continue
			}
			if len(diags) != 1 || diags[0].Severity() != c.severity || !strings.Contains(diags[0].Detail(), c.want) {
				t.Errorf("%q (env %v): got %v, want one %v saying %q", c.key, fromEnv, diags, c.severity, c.want)
				continue
			}
			// The hint fits where the key came from: trimspace(file()) is
			// for a configuration, never for an environment variable.
			if strings.Contains(c.want, "line breaks") {
				if hint := strings.Contains(diags[0].Detail(), "trimspace(file(...))"); hint == fromEnv {
					t.Errorf("%q (env %v): the fix does not fit the source: %s", c.key, fromEnv, diags[0].Detail())
				}
				if fromEnv && !strings.Contains(diags[0].Detail(), "`MINTLIFY_API_KEY` environment variable") {
					t.Errorf("%q: the message does not name the environment variable: %s", c.key, diags[0].Detail())
				}
			}
			if strings.TrimSpace(c.key) != "" && strings.Contains(diags[0].Detail(), strings.TrimSpace(c.key)) {
				t.Errorf("%q: the diagnostic repeats the key: %s", c.key, diags[0].Detail())
			}
		}
	}
}
