package core

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// keyCheckTimeout bounds the API key's check at plan: a slow or unreachable
// API leaves the plan as it was, and the apply says what it finds.
const keyCheckTimeout = 20 * time.Second

// CheckKeyOnCreate, deferred first in a resource's ModifyPlan, proves the
// API key (CheckKeyAtPlan) when the plan creates the resource and passed
// every other check, so bad input is still refused before any request.
func CheckKeyOnCreate(ctx context.Context, data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() && !resp.Diagnostics.HasError() {
		data.CheckKeyAtPlan(ctx, &resp.Diagnostics)
	}
}

// CheckKeyAtPlan proves the API key at plan time, where the plan creates
// something that calls the API at apply (a resource's create, an action's
// invoke), so a wrong key fails `terraform plan` rather than the apply of a
// saved plan. It costs no request when an answer of the API already proved
// the key (a refresh), one read otherwise, and it runs once per plan: only
// the first plan of a refused key reports it. A check that cannot reach the
// API says nothing; nil d (provider not configured yet) checks nothing.
func (d *ProviderData) CheckKeyAtPlan(ctx context.Context, diags *diag.Diagnostics) {
	if d == nil || d.Client == nil {
		return
	}
	d.keyCheck.Do(func() {
		checkCtx, cancel := context.WithTimeout(ctx, keyCheckTimeout)
		defer cancel()
		err := d.Client.CheckKey(checkCtx)
		switch {
		case err == nil:
		case mintlify.IsUnauthorized(err):
			diags.Append(APIOperation{Doing: "checking the API key at plan time"}.Diagnostic(err))
		default:
			tflog.Debug(ctx, "Could not check the Mintlify API key at plan time; the apply will use it", map[string]any{
				"error": err.Error(),
			})
		}
	})
}
