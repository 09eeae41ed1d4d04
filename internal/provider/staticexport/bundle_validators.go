package staticexport

import (
	"context"
	"fmt"
	"net"
	"regexp"
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

// hostnameLabel is one DNS label: lower-case letters, digits and inner
// hyphens, at most 63 characters.
var hostnameLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// bareHostname validates the static export `domain`: the API wants the bare
// hostname, and each common mistake gets its own fix.
var bareHostname = core.ProblemCheck("value must be a bare lower-case hostname such as `docs.example.com`",
	"Invalid Domain", hostnameProblem, "The `domain` %[1]q is not a bare hostname: %[2]s. Give only the hostname "+
		"of the deployment, such as `docs.example.com` or `acme.mintlify.app`.")

// hostnameProblem explains what is wrong with d as a bare hostname, or
// returns "" when it is one. When d holds a bare hostname that can be had by
// removing what does not belong (`Docs.Example.com:443`), the explanation
// ends with that hostname, so the suggested fix is itself valid.
func hostnameProblem(d string) string {
	problem := firstHostnameProblem(d)
	if problem == "" {
		return ""
	}
	if fixed := bareHostOf(d); fixed != d && firstHostnameProblem(fixed) == "" {
		return fmt.Sprintf("%s (use %q)", problem, fixed)
	}
	return problem
}

// firstHostnameProblem names the first thing wrong with d as a bare
// hostname, or returns "".
func firstHostnameProblem(d string) string {
	switch {
	case d == "":
		return "it is empty"
	case strings.Contains(d, "://"):
		return fmt.Sprintf("remove the scheme %q", d[:strings.Index(d, "://")+3])
	case strings.ContainsAny(d, " \t\r\n"):
		return "remove the spaces"
	case strings.HasSuffix(d, "/") && !strings.Contains(strings.TrimRight(d, "/"), "/"):
		return "remove the trailing slash"
	case strings.Contains(d, "/"):
		return fmt.Sprintf("remove the path %q", d[strings.Index(d, "/"):])
	case strings.ContainsAny(d, "?#"):
		return "remove the query or fragment"
	case strings.Contains(d, "@"):
		return "remove the user information before `@`"
	}
	if _, port, err := net.SplitHostPort(d); err == nil {
		return fmt.Sprintf("remove the port %q", ":"+port)
	}
	if d != strings.ToLower(d) {
		return "write it in lower case"
	}
	if len(d) > 253 {
		return "it is longer than 253 characters"
	}
	labels := strings.Split(strings.TrimSuffix(d, "."), ".")
	if len(labels) < 2 {
		return "it needs at least two labels, such as `docs.example.com`"
	}
	for _, l := range labels {
		if !hostnameLabel.MatchString(l) {
			return fmt.Sprintf("the label %q may only hold letters, digits and inner hyphens, 1 to 63 characters", l)
		}
	}
	return ""
}

// bareHostOf removes from d everything a URL may add around a hostname:
// spaces, scheme, user information, path, query, fragment and port; and
// lowers its case.
func bareHostOf(d string) string {
	d = strings.TrimSpace(d)
	if _, rest, ok := strings.Cut(d, "://"); ok {
		d = rest
	}
	if i := strings.IndexAny(d, "/?#"); i >= 0 {
		d = d[:i]
	}
	if i := strings.LastIndex(d, "@"); i >= 0 {
		d = d[i+1:]
	}
	if host, _, err := net.SplitHostPort(d); err == nil {
		d = host
	}
	return strings.ToLower(d)
}
