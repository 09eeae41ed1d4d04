package core

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// hostnameLabel is one DNS label: lower-case letters, digits and inner
// hyphens, at most 63 characters.
var hostnameLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// BareHostname validates the static export `domain`: the API wants the bare
// hostname, and each common mistake gets its own fix.
var BareHostname = ProblemCheck("value must be a bare lower-case hostname such as `docs.example.com`",
	"Invalid Domain", HostnameProblem, "The `domain` %[1]q is not a bare hostname: %[2]s. Give only the hostname "+
		"of the deployment, such as `docs.example.com` or `acme.mintlify.app`.")

// HostnameProblem explains what is wrong with d as a bare hostname, or
// returns "" when it is one. When d holds a bare hostname that can be had by
// removing what does not belong (`Docs.Example.com:443`), the explanation
// ends with that hostname, so the suggested fix is itself valid.
func HostnameProblem(d string) string {
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

// adminKeyPrefix begins every Mintlify admin API key.
const adminKeyPrefix = "mint_"

// APIKeyDiagnostics checks an API key from the argument named by attr or,
// when fromEnv, from the environment variable. Messages never repeat the
// key. A key without the admin prefix is only a warning: the API is the
// judge of what it accepts.
func APIKeyDiagnostics(key string, fromEnv bool) diag.Diagnostics {
	source, unset := "The `api_key` argument", "remove the argument and set the `"+EnvAPIKey+"` environment variable"
	if fromEnv {
		source, unset = "The `"+EnvAPIKey+"` environment variable", "set the provider's `api_key` argument"
	}
	var diags diag.Diagnostics
	switch {
	case strings.TrimSpace(key) == "":
		diags.AddAttributeError(path.Root("api_key"), "Empty Mintlify API Key",
			fmt.Sprintf("%s is empty. Set it to a Mintlify admin API key (it begins with `%s`, from the API keys "+
				"page of the Mintlify dashboard), or %s.", source, adminKeyPrefix, unset))
	case strings.IndexFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		fix := "Remove them: a key read with `file(...)` usually ends with a line break, which " +
			"`trimspace(file(...))` removes."
		if fromEnv {
			fix = "Remove them where the variable is set: a value read from a file or a secret store often ends " +
				"with a line break, which `export " + EnvAPIKey + "=\"$(tr -d '[:space:]' < key-file)\"` leaves out."
		}
		diags.AddAttributeError(path.Root("api_key"), "Invalid Mintlify API Key",
			fmt.Sprintf("%s contains spaces or line breaks, which an API key never does; the value is not shown "+
				"because it is secret. %s", source, fix))
	case !strings.HasPrefix(key, adminKeyPrefix):
		diags.AddAttributeWarning(path.Root("api_key"), "Unexpected Mintlify API Key Format",
			fmt.Sprintf("%s does not begin with `%s`, so it does not look like a Mintlify admin API key. Static "+
				"export and agent job calls need an admin key from the API keys page of the Mintlify dashboard; "+
				"the API answers any other key with HTTP 401.", source, adminKeyPrefix))
	}
	return diags
}

// baseURLDiagnostic explains why raw (from the argument or, when fromEnv,
// the environment variable) cannot be the API root, or returns nil.
func baseURLDiagnostic(raw string, fromEnv bool) diag.Diagnostic {
	err := mintlify.CheckBaseURL(raw)
	if err == nil {
		return nil
	}
	source := "The `base_url` argument"
	if fromEnv {
		source = "The `" + EnvBaseURL + "` environment variable"
	}
	return diag.NewAttributeErrorDiagnostic(path.Root("base_url"), "Invalid Mintlify Base URL",
		fmt.Sprintf("%s cannot be used: %s. Give the root of the Mintlify API or of a proxy in front of it, "+
			"such as `https://proxy.example.com/mintlify`, or remove it to use `%s`.", source, err, mintlify.DefaultBaseURL))
}

// StringCheck is a validator made of a description and a check of the
// known, non-null values.
type StringCheck struct {
	// Rule is what a value must be, as the validator's description.
	Rule  string
	Check func(p path.Path, value string) diag.Diagnostics
}

var _ validator.String = StringCheck{}

func (v StringCheck) Description(context.Context) string { return v.Rule }

func (v StringCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v StringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(v.Check(req.Path, req.ConfigValue.ValueString())...)
}

// apiKeyValidator applies apiKeyDiagnostics to the `api_key` argument.
var apiKeyValidator = StringCheck{
	Rule:  "value must be a Mintlify admin API key, which begins with `" + adminKeyPrefix + "`",
	Check: func(_ path.Path, key string) diag.Diagnostics { return APIKeyDiagnostics(key, false) },
}

// baseURLValidator applies baseURLDiagnostic to the `base_url` argument.
var baseURLValidator = StringCheck{
	Rule: "value must be an absolute `https` URL, or `http` to a loopback host",
	Check: func(_ path.Path, raw string) diag.Diagnostics {
		if d := baseURLDiagnostic(raw, false); d != nil {
			return diag.Diagnostics{d}
		}
		return nil
	},
}

// ProblemCheck refuses a value for which problemOf explains a problem:
// the error is summary, with detail, a format of the value (%[1]q) and the
// problem (%[2]s).
func ProblemCheck(description, summary string, problemOf func(string) string, detail string) StringCheck {
	return StringCheck{
		Rule: description,
		Check: func(p path.Path, value string) diag.Diagnostics {
			var diags diag.Diagnostics
			if problem := problemOf(value); problem != "" {
				diags.AddAttributeError(p, summary, fmt.Sprintf(detail, value, problem))
			}
			return diags
		},
	}
}

// NotBlank refuses an empty or all-space value; fix says what to do.
func NotBlank(fix string) StringCheck {
	return StringCheck{
		Rule: "value must not be empty",
		Check: func(p path.Path, v string) diag.Diagnostics {
			var diags diag.Diagnostics
			if strings.TrimSpace(v) == "" {
				diags.AddAttributeError(p, "Empty Argument", fmt.Sprintf("The `%s` argument is empty. %s", p, fix))
			}
			return diags
		},
	}
}

// PathSegmentID validates an id that a user types and the provider puts in
// a URL path, such as `automation_id`. Mintlify documents no shape for its
// ids, so only what cannot be one path segment is refused: an empty value,
// whitespace (in it or around it), control characters, the URL delimiters
// `/`, `?` and `#` (a pasted address or path), and `.` or `..`, which URLs
// resolve away. Anything else goes to the API, whose 400 or 404 the call's
// diagnostic explains. summary is the error's ("Invalid Automation ID"),
// what names the id ("automation id"), where says where to copy it from.
func PathSegmentID(summary, what, where string) StringCheck {
	return ProblemCheck("value must be a "+what+", copied from "+where+": not empty, without spaces, `/`, `?` or `#`",
		summary, PathSegmentProblem,
		"The value %[1]q cannot be a "+what+": %[2]s. Copy the id exactly from "+where+".")
}

// PathSegmentProblem says what keeps id from being one segment of a URL
// path, with the fix, or returns "".
func PathSegmentProblem(id string) string {
	trimmed := strings.TrimSpace(id)
	switch {
	case trimmed == "":
		return "it is empty"
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
		return "it contains a control character (such as a line break or a tab): remove it"
	case trimmed != id && PathSegmentProblem(trimmed) == "":
		return fmt.Sprintf("remove the spaces around it (use %q)", trimmed)
	case strings.IndexFunc(id, unicode.IsSpace) >= 0:
		return "an id has no spaces"
	case id == "." || id == "..":
		return "it is no id"
	case strings.ContainsAny(id, "/?#"):
		return segmentFix(id)
	}
	return ""
}

// segmentFix explains an id with a URL delimiter, suggesting the last
// segment of a pasted address when that can be an id.
func segmentFix(id string) string {
	path := id
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	last := path[strings.LastIndex(strings.TrimRight(path, "/"), "/")+1:]
	last = strings.TrimRight(last, "/")
	if last != "" && last != id && PathSegmentProblem(last) == "" {
		return fmt.Sprintf("it holds `/`, `?` or `#`, as an address or a path does: give the id alone (use %q, "+
			"if that is it)", last)
	}
	return "it holds `/`, `?` or `#`, which an id cannot"
}
