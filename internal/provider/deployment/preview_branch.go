package deployment

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The preview's `branch`: a branch name as git takes it, refused at plan,
// before any request, with its fix. CI fills it from a context, and the
// tempting ones are refs, not branch names: `github.ref` on a pull request
// is `refs/pull/12/merge`, on a push `refs/heads/x`.

// previewBranchCheck validates `branch`.
var previewBranchCheck = core.ProblemCheck("value must be a git branch name, such as `feature/new-api`",
	"Invalid Branch", branchProblem, "The `branch` %[1]q is not a branch that Mintlify can preview: %[2]s. Give "+
		"the name of a branch of the docs repository as git names it, such as `feature/new-api`; in GitHub "+
		"Actions, on a pull request, that is `${{ github.head_ref }}`.")

// pullRef is a pull request's ref, as `github.ref` gives it on a pull
// request (`refs/pull/12/merge`), or its head.
var pullRef = regexp.MustCompile(`^refs/pull/([0-9]+)/(merge|head)$`)

// branchProblem says what is wrong with b as a branch to preview, with the
// fix, or returns "". It follows git's rules for branch names
// (`git check-ref-format --branch`), and recognises the refs that CI
// contexts hold.
func branchProblem(b string) string {
	trimmed := strings.TrimSpace(b)
	switch {
	case trimmed == "":
		return "it is empty"
	case strings.IndexFunc(b, unicode.IsControl) >= 0:
		return "it contains a control character (such as a line break or a tab): remove it"
	case trimmed != b:
		if branchProblem(trimmed) == "" {
			return fmt.Sprintf("remove the spaces around it (use %q)", trimmed)
		}
		return "remove the spaces around it"
	}
	if problem := refProblem(b); problem != "" {
		return problem
	}
	return gitNameProblem(b)
}

// refProblem explains a full ref given for a branch name.
func refProblem(b string) string {
	if m := pullRef.FindStringSubmatch(b); m != nil {
		return fmt.Sprintf("it is the ref of pull request #%s (what `github.ref` is on a pull request), not a "+
			"branch: use the pull request's branch, `github.head_ref`", m[1])
	}
	if name, ok := strings.CutPrefix(b, "refs/heads/"); ok {
		if gitNameProblem(name) == "" {
			return fmt.Sprintf("it is a full ref: remove \"refs/heads/\" (use %q, which is `github.ref_name` "+
				"on a push and `github.head_ref` on a pull request)", name)
		}
		return "it is a full ref: remove \"refs/heads/\""
	}
	if strings.HasPrefix(b, "refs/tags/") {
		return "it is a tag, not a branch: previews are of branches"
	}
	if strings.HasPrefix(b, "refs/") {
		return "it is a full ref, not a branch name: give the branch's own name"
	}
	return ""
}

// gitNameProblem names the first of git's branch-name rules that b breaks,
// or returns "".
func gitNameProblem(b string) string {
	switch {
	case strings.Contains(b, " "):
		return "git branch names cannot contain spaces"
	case strings.ContainsAny(b, `~^:?*[\`):
		return fmt.Sprintf("git branch names cannot contain %q", string(b[strings.IndexAny(b, `~^:?*[\`)]))
	case strings.Contains(b, ".."):
		return `git branch names cannot contain ".."`
	case strings.Contains(b, "@{"):
		return `git branch names cannot contain "@{"`
	case b == "@" || b == "HEAD":
		return fmt.Sprintf("%q is not a branch name in git", b)
	case strings.HasPrefix(b, "-"):
		return `git branch names cannot begin with "-"`
	case strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") || strings.Contains(b, "//"):
		return `git branch names cannot begin or end with "/", or hold "//"`
	case strings.HasSuffix(b, "."):
		return `git branch names cannot end with "."`
	}
	for part := range strings.SplitSeq(b, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return fmt.Sprintf(`git branch names cannot have a part that begins with "." or ends with ".lock" (%q)`, part)
		}
	}
	return ""
}

// branchOfRef is the branch a deployment's commit ref names, or null when
// it names none: `main` or `refs/heads/main` is `main`.
func branchOfRef(ref string) types.String {
	b := strings.TrimPrefix(ref, "refs/heads/")
	if branchProblem(b) != "" {
		return types.StringNull()
	}
	return types.StringValue(b)
}
