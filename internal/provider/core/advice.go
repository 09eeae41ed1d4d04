package core

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The advice that diagnostics give, in one place, so that the same situation
// is always explained in the same words: a wait's budget and how to raise
// it, how to pick a job up again after a create that ended early, and what
// happens to a job Terraform stopped watching.

// WaitBudget is what bounds one operation: the setting (`timeouts.create`,
// `timeouts.read`, the action's `timeout`) and its value. Diagnostics of an
// operation that ran out of it name both.
type WaitBudget struct {
	limit   string
	Timeout time.Duration
}

// Budget is the WaitBudget of the setting limit, whose value is timeout.
func Budget(limit string, timeout time.Duration) WaitBudget {
	return WaitBudget{limit: limit, Timeout: timeout}
}

// String names the setting and its value: "`timeouts.create` (30m0s)".
func (b WaitBudget) String() string { return fmt.Sprintf("`%s` (%s)", b.limit, b.Timeout) }

// Raise advises a longer budget, with an example: "raise `timeouts.create`,
// for example `timeouts = { create = "1h" }`". Without a known setting, it
// points at the resource's `timeouts`.
func (b WaitBudget) Raise() string {
	if b.limit == "" {
		return "raise the resource's `timeouts`"
	}
	example := suggestedTimeout(b.Timeout)
	if name, ok := strings.CutPrefix(b.limit, "timeouts."); ok {
		return fmt.Sprintf("raise `%s`, for example `timeouts = { %s = %q }`", b.limit, name, example)
	}
	return fmt.Sprintf("raise `%s`, for example `%s = %q`", b.limit, b.limit, example)
}

// Pointed points d, a diagnostic of an operation that ran out of its
// budget, at the `timeouts` attribute that bounds it, so that Terraform
// quotes the `timeouts` line above the message (or the resource's first
// line when `timeouts` is not set). Not at `timeouts.create` itself:
// Terraform cannot find a key inside an attribute's object value, and then
// quotes the resource's first line. A budget of another setting (an
// action's `timeout`) leaves d as it is.
func (b WaitBudget) Pointed(d diag.Diagnostic) diag.Diagnostic {
	if !strings.HasPrefix(b.limit, "timeouts.") {
		return d
	}
	return diag.WithPath(path.Root("timeouts"), d)
}

// suggestedTimeout is a round value at least twice d, to suggest in advice.
func suggestedTimeout(d time.Duration) string {
	for _, s := range []string{"5m", "15m", "1h", "2h", "6h", "24h"} {
		if v, _ := time.ParseDuration(s); v >= 2*d {
			return s
		}
	}
	return FormatDuration(maxOperationTimeout)
}

// Capitalized starts a sentence with a phrase such as WaitBudget.Raise or
// a plan's reason.
func Capitalized(phrase string) string {
	r, size := utf8.DecodeRuneInString(phrase)
	if size == 0 {
		return phrase
	}
	return string(unicode.ToUpper(r)) + phrase[size:]
}

// KeepsRunning says what becomes of a job Terraform stopped watching: a
// timeout or an interruption stops the provider, never the job.
const KeepsRunning = "The job keeps running on the Mintlify side."
