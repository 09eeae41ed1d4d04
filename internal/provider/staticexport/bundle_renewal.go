package staticexport

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// linkState is what the renewal policy knows about the current link.
type linkState struct {
	// ExpiresAt is when the link stops working; zero when there is no link.
	ExpiresAt time.Time
	// GeneratedAt is when the link was generated; zero when unknown (for
	// example, a private state that another provider version wrote without
	// it).
	GeneratedAt time.Time
}

// renewalReason says why the link must be renewed at now, or returns "" when
// it is fresh enough. renewBefore is zero when the user did not set it; the
// link is then renewed once less than a quarter of its lifetime is left.
func renewalReason(link linkState, renewBefore time.Duration, now time.Time) string {
	left := link.ExpiresAt.Sub(now)
	switch {
	case !now.Before(link.ExpiresAt):
		return fmt.Sprintf("the link expired at %s", link.ExpiresAt.UTC().Format(time.RFC3339))
	case renewBefore > 0 && left < renewBefore:
		return fmt.Sprintf("the link expires in %s, within `renew_before` (%s)", roundDuration(left), renewBefore)
	case renewBefore == 0 && !link.GeneratedAt.IsZero():
		if lifetime := link.ExpiresAt.Sub(link.GeneratedAt); left < lifetime/4 {
			return fmt.Sprintf("the link expires in %s, less than a quarter of its %s lifetime", roundDuration(left), roundDuration(lifetime))
		}
	}
	return ""
}

// renewsEveryRun reports whether renewBefore is at least the link's
// lifetime, which would renew the link on every plan.
func renewsEveryRun(link linkState, renewBefore time.Duration) bool {
	return renewBefore > 0 && !link.GeneratedAt.IsZero() && renewBefore >= link.ExpiresAt.Sub(link.GeneratedAt)
}

// renewsEveryRunWarning says what a renew_before at least the link's
// lifetime causes, and what to set instead.
func renewsEveryRunWarning(link linkState, renewBefore time.Duration) diag.Diagnostic {
	lifetime := link.ExpiresAt.Sub(link.GeneratedAt)
	return diag.NewAttributeWarningDiagnostic(path.Root("renew_before"), "Link Renewed On Every Run",
		fmt.Sprintf("`renew_before` (%s) is at least the link's whole lifetime (%s), so every plan renews the link: "+
			"each `terraform apply` generates a new link and upgrades any Helm release that uses it, which "+
			"restarts its pods, even when nothing else changed.\n\n"+
			"Remove `renew_before`: the link is then renewed once less than a quarter of its lifetime (%s) is left. "+
			"Only if your runs are further apart than that, set a value below the lifetime instead, such as "+
			"`renew_before = %q`.", shortDuration(renewBefore), shortDuration(lifetime),
			shortDuration(lifetime/4), shortDuration(lifetime/2)))
}

// warnIfRenewsEveryRun warns, once an apply has generated the model's link,
// when its renew_before is at least that link's lifetime.
func warnIfRenewsEveryRun(m *staticExportBundleModel, priv core.PrivateState[bundleFacts]) diag.Diagnostics {
	renewBefore := renewBeforeValue(m.RenewBefore)
	if renewBefore == 0 {
		return nil
	}
	link, diags := linkFromState(m.ExpiresAt, priv.Facts.LinkGeneratedAt)
	if renewsEveryRun(link, renewBefore) {
		diags.Append(renewsEveryRunWarning(link, renewBefore))
	}
	return diags
}

// shortDuration writes a duration as a user would in `renew_before`: whole
// seconds, or whole minutes above a minute, without zero units ("1h",
// "15m", "1h30m").
func shortDuration(d time.Duration) string {
	s := roundDuration(d).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func roundDuration(d time.Duration) time.Duration {
	if d > time.Minute {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// linkFromState reads the link's expiry from the `expires_at` in state; its
// generation time comes from private state.
func linkFromState(expiresAt types.String, generatedAt time.Time) (linkState, diag.Diagnostics) {
	var link linkState
	var diags diag.Diagnostics
	if expiresAt.IsNull() || expiresAt.IsUnknown() {
		return link, diags
	}
	expires, err := time.Parse(time.RFC3339, expiresAt.ValueString())
	if err != nil {
		diags.AddAttributeError(pathExpiresAt, "Invalid Expiry In State",
			fmt.Sprintf("The `expires_at` in state, %q, is not an RFC 3339 time: %s. Run `terraform apply -replace` "+
				"on this resource to start over.", expiresAt.ValueString(), err))
		return link, diags
	}
	link.ExpiresAt = expires
	if generatedAt.Before(expires) {
		link.GeneratedAt = generatedAt
	}
	return link, diags
}

// renewBeforeValue returns the configured renew_before, or zero when unset.
// The attribute's validator has already checked the value.
func renewBeforeValue(v types.String) time.Duration {
	if v.IsNull() || v.IsUnknown() {
		return 0
	}
	d, _ := time.ParseDuration(v.ValueString()) // validated by core.Durations.Positive
	return d
}
