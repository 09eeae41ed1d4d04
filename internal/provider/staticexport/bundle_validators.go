package staticexport

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The static export's own arguments besides `domain`: `paths` and
// `version`. Each mistake is refused at plan with its fix, before any
// request.

// pagePath validates one entry of `paths`.
var pagePath = core.ProblemCheck("value must be a page path without a leading slash, such as `guides/getting-started`",
	"Invalid Page Path", pagePathProblem, "The page path %[1]q cannot be exported: %[2]s. Page paths are relative "+
		"to the docs root, such as `index` or `guides/getting-started`.")

// pagePathProblem says what is wrong with p as a page path, with the fix,
// or returns "".
func pagePathProblem(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "an entry is empty: remove it"
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return "it contains a control character (such as a line break or a tab): remove it"
	case strings.TrimSpace(p) != p:
		return fmt.Sprintf("remove the spaces around it (use %q)", strings.TrimSpace(p))
	case strings.Contains(p, "://"):
		return "give the page path, not a full URL"
	case strings.HasPrefix(p, "/"):
		return fmt.Sprintf("remove the leading slash (use %q)", strings.TrimLeft(p, "/"))
	case strings.ContainsAny(p, "?#"):
		return fmt.Sprintf("remove the query or fragment (use %q)", p[:strings.IndexAny(p, "?#")])
	case hasDotSegment(p):
		return `it has a "." or ".." segment: give the page's own path from the docs root`
	}
	return ""
}

// hasDotSegment reports a "." or ".." segment, which would name a page
// relative to another one.
func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// distinctPaths warns about a page path listed twice: the export is the
// same without the copy, but the list probably holds a typo.
type distinctPaths struct{}

var _ validator.List = distinctPaths{}

func (distinctPaths) Description(context.Context) string {
	return "each page path should be listed once"
}

func (v distinctPaths) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (distinctPaths) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]int{}
	for i, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if first, dup := seen[s.ValueString()]; dup {
			resp.Diagnostics.AddAttributeWarning(req.Path.AtListIndex(i), "Duplicate Page Path",
				fmt.Sprintf("The page path %q is listed twice in `paths` (at index %d and %d). It is exported once; "+
					"remove the copy, or check whether another page was meant.", s.ValueString(), first, i))
			continue
		}
		seen[s.ValueString()] = i
	}
}

// versionLabel validates `version`, a label the API tags the export with.
var versionLabel = core.ProblemCheck("value must be a version label such as `2024-06-01`", "Invalid Version",
	versionProblem, "The `version` %[1]q cannot tag an export: %[2]s. Give a label such as `2024-06-01` or `v2.3`.")

// versionProblem says what is wrong with v as a version label, or returns
// "".
func versionProblem(v string) string {
	switch {
	case strings.TrimSpace(v) == "":
		return "it is empty: remove the argument to export the latest published version"
	case strings.IndexFunc(v, unicode.IsControl) >= 0:
		return "it contains a control character (such as a line break read with `file(...)`, which " +
			"`trimspace(...)` removes)"
	}
	return ""
}
