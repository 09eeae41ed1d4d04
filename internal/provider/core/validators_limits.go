package core

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The bounds of every duration and count a user can set. A value outside
// them is almost always a unit mistake (`1ns`, `87600h`), so it is refused
// at plan with the range and an example, before any request.
const (
	// An operation's timeout (`timeouts.*`, the action's `timeout`).
	minOperationTimeout = 10 * time.Second
	maxOperationTimeout = 24 * time.Hour
	// One request's timeout (`request_timeout`).
	minRequestTimeout = time.Second
	maxRequestTimeout = 10 * time.Minute
	// `max_retries`.
	maxRetries = 20
)

// Durations are the validators of the durations a user sets: Operation, an
// operation's timeout (`timeouts.*`, an action's `timeout`), within the
// bounds above; Positive, any duration longer than zero, such as "6h".
var Durations = struct{ Operation, Positive StringCheck }{
	Operation: durationWithin(minOperationTimeout, maxOperationTimeout, "45m"),
	Positive:  durationWithin(0, 0, "6h"),
}

// requestTimeout validates `request_timeout`.
var requestTimeout = durationWithin(minRequestTimeout, maxRequestTimeout, "30s")

// durationWithin validates a duration longer than zero and, when the bounds
// are set, from least to most, suggesting example.
func durationWithin(least, most time.Duration, example string) StringCheck {
	description := fmt.Sprintf("value must be a positive duration such as `%s`", example)
	if most > 0 {
		description = fmt.Sprintf("value must be a duration from `%s` to `%s`, such as `%s`",
			FormatDuration(least), FormatDuration(most), example)
	}
	return StringCheck{
		Rule: description,
		Check: func(p path.Path, raw string) diag.Diagnostics {
			var diags diag.Diagnostics
			d, err := time.ParseDuration(raw)
			problem := ""
			switch {
			case err != nil:
				problem = "is not a duration. Write a number with a unit: `s`, `m` or `h`, such as `6h` or `90m`"
			case d <= 0:
				problem = fmt.Sprintf("must be longer than zero, such as `%s`. Remove the argument to use the default", example)
			case least > 0 && d < least:
				problem = fmt.Sprintf("is shorter than %s, the least the provider accepts. Use a duration from %s to %s, "+
					"such as `%s`", FormatDuration(least), FormatDuration(least), FormatDuration(most), example)
			case most > 0 && d > most:
				problem = fmt.Sprintf("is longer than %s, the most the provider accepts: a longer one is almost always a "+
					"unit mistake. Use a duration from %s to %s, such as `%s`", FormatDuration(most),
					FormatDuration(least), FormatDuration(most), example)
			}
			if problem != "" {
				diags.AddAttributeError(p, "Invalid Duration", fmt.Sprintf("The value %q of `%s` %s.", raw, p, problem))
			}
			return diags
		},
	}
}

// FormatDuration writes d as users write it: `10s`, `10m`, `24h`.
func FormatDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// retryCount validates `max_retries`.
type retryCount struct{}

var _ validator.Int64 = retryCount{}

func (retryCount) Description(context.Context) string {
	return fmt.Sprintf("value must be from `0` to `%d`", maxRetries)
}

func (v retryCount) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (retryCount) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if n := req.ConfigValue.ValueInt64(); n < 0 || n > maxRetries {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Retry Count",
			fmt.Sprintf("The value %d of `max_retries` is out of range: use a number from 0 (no retries) to %d, such "+
				"as `max_retries = 5`, the default. Each retry waits up to 30 seconds, so %d retries already take "+
				"several minutes; raise the operation's `timeouts` for longer waits.", n, maxRetries, maxRetries))
	}
}

// durationOr is the duration a validated attribute sets, or unset when it
// is null or unknown. Its validator has already checked the value.
func durationOr(v types.String, unset time.Duration) time.Duration {
	if v.IsNull() || v.IsUnknown() {
		return unset
	}
	d, _ := time.ParseDuration(v.ValueString())
	return d
}
