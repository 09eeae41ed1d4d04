package core

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// adminKeyPrefix begins every Mintlify admin API key.
const adminKeyPrefix = "mint_"

// apiKeyDiagnostics checks an API key from the argument named by attr or,
// when fromEnv, from the environment variable. Messages never repeat the
// key. A key without the admin prefix is only a warning: the API is the
// judge of what it accepts.
func apiKeyDiagnostics(key string, fromEnv bool) diag.Diagnostics {
	source, unset := "The `api_key` argument", "remove the argument and set the `"+Env.APIKey+"` environment variable"
	if fromEnv {
		source, unset = "The `"+Env.APIKey+"` environment variable", "set the provider's `api_key` argument"
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
				"with a line break, which `export " + Env.APIKey + "=\"$(tr -d '[:space:]' < key-file)\"` leaves out."
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
		source = "The `" + Env.BaseURL + "` environment variable"
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
	Check: func(_ path.Path, key string) diag.Diagnostics { return apiKeyDiagnostics(key, false) },
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
		summary, pathSegmentProblem,
		"The value %[1]q cannot be a "+what+": %[2]s. Copy the id exactly from "+where+".")
}

// pathSegmentProblem says what keeps id from being one segment of a URL
// path, with the fix, or returns "".
func pathSegmentProblem(id string) string {
	trimmed := strings.TrimSpace(id)
	switch {
	case trimmed == "":
		return "it is empty"
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
		return "it contains a control character (such as a line break or a tab): remove it"
	case trimmed != id && pathSegmentProblem(trimmed) == "":
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
	if last != "" && last != id && pathSegmentProblem(last) == "" {
		return fmt.Sprintf("it holds `/`, `?` or `#`, as an address or a path does: give the id alone (use %q, "+
			"if that is it)", last)
	}
	return "it holds `/`, `?` or `#`, which an id cannot"
}
