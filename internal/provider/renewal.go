package provider

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// linkState is what the renewal policy knows about the current link.
type linkState struct {
	// ExpiresAt is when the link stops working; zero when there is no link.
	ExpiresAt time.Time
	// GeneratedAt is when the link was generated; zero when unknown (for
	// example, a link in state written before this was recorded).
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
	d, _ := time.ParseDuration(v.ValueString())
	return d
}
