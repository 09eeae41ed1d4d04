package core

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// projectIDForm is the form of a Mintlify project ID: a letter or a digit,
// then up to 63 letters, digits, `_` or `-`. Mintlify documents no shape of
// its own (its API answers a malformed ID with HTTP 400); this is the one
// its IDs have and the stand-in API enforces (fakeapi's projectIDPattern).
var projectIDForm = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// maxProjectIDLength is the longest project ID projectIDForm accepts.
const maxProjectIDLength = 64

// projectIDWhere says where a project ID is copied from.
const projectIDWhere = "Copy the project ID from the API keys page of the Mintlify dashboard."

// projectIDProblem says what keeps id from being a Mintlify project ID,
// with the fix, or returns "". It never quotes an id that looks like an
// admin API key.
func projectIDProblem(id string) string {
	if strings.HasPrefix(strings.TrimSpace(id), adminKeyPrefix) {
		return "it begins with `" + adminKeyPrefix + "`, as an admin API key does, so the value is not shown: " +
			"give the project ID here and the key to `api_key`"
	}
	if problem := pathSegmentProblem(id); problem != "" {
		return problem
	}
	if projectIDForm.MatchString(id) {
		return ""
	}
	if utf8.RuneCountInString(id) > maxProjectIDLength {
		return fmt.Sprintf("it is longer than %d characters", maxProjectIDLength)
	}
	if i := strings.IndexFunc(id, func(r rune) bool { return !isProjectIDRune(r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(id[i:])
		return fmt.Sprintf("it holds %q, and a project ID holds only letters, digits, `_` and `-`", r)
	}
	return "it must begin with a letter or a digit"
}

func isProjectIDRune(r rune) bool {
	return r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// projectIDDiagnostics refuses a malformed project ID of the attribute p,
// from the configuration or, when source names it, from the environment.
func projectIDDiagnostics(p path.Path, source, id string) diag.Diagnostics {
	var diags diag.Diagnostics
	problem := projectIDProblem(id)
	if problem == "" {
		return diags
	}
	shown := fmt.Sprintf(" %q", id)
	if strings.HasPrefix(strings.TrimSpace(id), adminKeyPrefix) {
		shown = ""
	}
	diags.AddAttributeError(p, "Invalid Project ID",
		fmt.Sprintf("%s%s is not a Mintlify project ID: %s. %s", source, shown, problem, projectIDWhere))
	return diags
}

// projectIDValidator checks the form of a configured `project_id`.
var projectIDValidator = StringCheck{
	Rule: "value must be a Mintlify project ID: a letter or a digit, then letters, digits, `_` or `-`",
	Check: func(p path.Path, id string) diag.Diagnostics {
		if strings.TrimSpace(id) == "" {
			return nil // NotBlank says what to do
		}
		return projectIDDiagnostics(p, fmt.Sprintf("The `%s`", p), id)
	},
}

// projectIDValidators check a `project_id`: not blank (fix says what to
// do), and of a project ID's form. Not stringvalidator's RegexMatches and
// LengthAtMost: their errors quote the value, which may be a key pasted in
// the wrong place, and say no fix.
func projectIDValidators(fix string) []validator.String {
	return []validator.String{NotBlank(fix), projectIDValidator}
}
