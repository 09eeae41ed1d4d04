package deployment

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestBranchProblem: every branch name git takes is accepted, and each
// value a CI context tempts users into, or that git refuses, is refused
// with its fix.
func TestBranchProblem(t *testing.T) {
	for _, ok := range []string{"main", "feature/new-api", "fix-12", "release/2.3", "docs_v2", "user@host",
		"über-docs", "a.b", "x/y.z", "heads", "refs"} {
		if p := branchProblem(ok); p != "" {
			t.Errorf("branchProblem(%q) = %q, want it accepted", ok, p)
		}
	}
	for _, c := range []struct{ branch, want string }{
		{"", "it is empty"},
		{"   ", "it is empty"},
		{"refs/pull/12/merge", "ref of pull request #12 (what `github.ref` is on a pull request), not a branch: use the pull request's branch, `github.head_ref`"},
		{"refs/pull/7/head", "ref of pull request #7"},
		{"refs/heads/feature/x", `remove "refs/heads/" (use "feature/x", which is ` + "`github.ref_name`"},
		{"refs/heads/a..b", `it is a full ref: remove "refs/heads/"`},
		{"refs/tags/v1.2", "it is a tag, not a branch"},
		{"refs/remotes/origin/main", "it is a full ref, not a branch name"},
		{" feature/x", `remove the spaces around it (use "feature/x")`},
		{"feature/x ", `remove the spaces around it (use "feature/x")`},
		{" my branch ", "remove the spaces around it"},
		{"my branch", "git branch names cannot contain spaces"},
		{"feature/x\n", "control character"},
		{"a\tb", "control character"},
		{"a~1", `cannot contain "~"`},
		{"a^b", `cannot contain "^"`},
		{"a:b", `cannot contain ":"`},
		{"a?", `cannot contain "?"`},
		{"a*", `cannot contain "*"`},
		{"a[b", `cannot contain "["`},
		{`a\b`, `cannot contain "\\"`},
		{"a..b", `cannot contain ".."`},
		{"a@{1}", `cannot contain "@{"`},
		{"@", `"@" is not a branch name`},
		{"HEAD", `"HEAD" is not a branch name`},
		{"-x", `cannot begin with "-"`},
		{"/x", `cannot begin or end with "/"`},
		{"x/", `cannot begin or end with "/"`},
		{"a//b", `or hold "//"`},
		{"x.", `cannot end with "."`},
		{"a/.b", `begins with "." or ends with ".lock" (".b")`},
		{".a", `(".a")`},
		{"a.lock/b", `("a.lock")`},
	} {
		if got := branchProblem(c.branch); !strings.Contains(got, c.want) {
			t.Errorf("branchProblem(%q) = %q, want it to say %q", c.branch, got, c.want)
		}
	}
}

// TestAccPreviewDeployment_badBranchRefusedAtPlan: `github.ref` on a pull
// request is refused at plan, before any request, naming the attribute and
// the context to use instead.
func TestAccPreviewDeployment_badBranchRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:   env.Config(previewConfig("refs/pull/12/merge", "")),
			PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)Invalid Branch.*with mintlify_preview_deployment.docs.*branch.*` +
				`"refs/pull/12/merge".*ref of pull request #12.*github.head_ref`),
		}},
	})
	if n := len(env.Fake.DeploymentRequests()); n != 0 {
		t.Errorf("the fake got %d deployments, want none", n)
	}
}

// TestBranchOfRef: an import reads the preview's branch from the commit
// ref, with or without `refs/heads/`; a ref that names no branch gives none.
func TestBranchOfRef(t *testing.T) {
	for ref, want := range map[string]string{"feature/new-api": "feature/new-api", "refs/heads/main": "main"} {
		if got := branchOfRef(ref); got.ValueString() != want {
			t.Errorf("branchOfRef(%q) = %s, want %q", ref, got, want)
		}
	}
	for _, ref := range []string{"", "refs/pull/12/merge", "refs/tags/v1"} {
		if got := branchOfRef(ref); !got.IsNull() {
			t.Errorf("branchOfRef(%q) = %s, want null", ref, got)
		}
	}
}
