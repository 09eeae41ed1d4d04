package provider

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// hostnameLabel is one DNS label: lower-case letters, digits and inner
// hyphens, at most 63 characters.
var hostnameLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// bareHostname validates the static export `domain`: the API wants the bare
// hostname, and each common mistake gets its own fix.
type bareHostname struct{}

var _ validator.String = bareHostname{}

func (bareHostname) Description(context.Context) string {
	return "value must be a bare lower-case hostname such as `docs.example.com`"
}

func (v bareHostname) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (bareHostname) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := hostnameProblem(req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Domain",
			fmt.Sprintf("The `domain` %q is not a bare hostname: %s. Give only the hostname of the "+
				"deployment, such as `docs.example.com` or `acme.mintlify.app`.", req.ConfigValue.ValueString(), problem))
	}
}

// hostnameProblem explains what is wrong with d as a bare hostname, or
// returns "" when it is one.
func hostnameProblem(d string) string {
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
	if host, port, err := net.SplitHostPort(d); err == nil {
		return fmt.Sprintf("remove the port %q (use %q)", ":"+port, host)
	}
	if d != strings.ToLower(d) {
		return fmt.Sprintf("use lower case (%q)", strings.ToLower(d))
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

// pagePath validates one entry of `paths`.
type pagePath struct{}

var _ validator.String = pagePath{}

func (pagePath) Description(context.Context) string {
	return "value must be a page path without a leading slash, such as `guides/getting-started`"
}

func (v pagePath) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (pagePath) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	p := req.ConfigValue.ValueString()
	var problem string
	switch {
	case strings.TrimSpace(p) == "":
		problem = "an entry is empty: remove it"
	case strings.HasPrefix(p, "/"):
		problem = fmt.Sprintf("remove the leading slash (use %q)", strings.TrimLeft(p, "/"))
	case strings.Contains(p, "://"):
		problem = "give the page path, not a full URL"
	}
	if problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Page Path",
			fmt.Sprintf("The page path %q cannot be exported: %s. Page paths are relative to the docs root, "+
				"such as `index` or `guides/getting-started`.", p, problem))
	}
}
