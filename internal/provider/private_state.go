package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Private state of mintlify_static_export_bundle: stored with the resource,
// never shown to users. Each key has one writer, and each fact a refresh
// can learn is written, or removed, by every refresh that got an answer, so
// no conclusion outlives the answer it came from.
const (
	// privateLinkGeneratedAt is when the link in state was generated, so
	// the default policy knows the link's whole lifetime. Written with each
	// new link; a refresh removes it when the state holds no link.
	privateLinkGeneratedAt = "link_generated_at"
	// privateRefreshedAt is when the last refresh got an answer for the
	// job. Plans judge the link at this moment, never at the clock's.
	privateRefreshedAt = "refreshed_at"
	// privateJobGone is "true" when the last refresh got HTTP 404 for the
	// job; every refresh that got an answer writes or removes it.
	privateJobGone = "job_gone"
	// privatePlannedAction is the linkAction that ModifyPlan decided,
	// carried in planned private state to Update. Update and every refresh
	// remove it, so it never outlives its plan.
	privatePlannedAction = "planned_action"
)

// privateGetter and privateSetter are the parts of the framework's private
// state used here; requests and responses of every operation provide them.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// bundlePrivate is what private state says about the job and the link.
type bundlePrivate struct {
	// LinkGeneratedAt is zero when unknown (no link, or a link stored
	// before this was recorded).
	LinkGeneratedAt time.Time
	// RefreshedAt is zero when no refresh was recorded.
	RefreshedAt time.Time
	// JobGone is true when the last refresh got HTTP 404.
	JobGone bool
}

// readBundlePrivate reads every fact of private state that plans use.
func readBundlePrivate(ctx context.Context, private privateGetter) (bundlePrivate, diag.Diagnostics) {
	var p bundlePrivate
	var diags diag.Diagnostics
	var d diag.Diagnostics
	p.LinkGeneratedAt, d = recordedTime(ctx, private, privateLinkGeneratedAt)
	diags.Append(d...)
	p.RefreshedAt, d = recordedTime(ctx, private, privateRefreshedAt)
	diags.Append(d...)
	raw, d := private.GetKey(ctx, privateJobGone)
	diags.Append(d...)
	p.JobGone = string(raw) == "true"
	return p, diags
}

// recordRefresh writes what a refresh that got an answer learned: when it
// looked, and whether the job was there. It also drops a planned action
// left over from a plan that was never applied.
func recordRefresh(ctx context.Context, private privateSetter, at time.Time, gone bool) diag.Diagnostics {
	diags := recordTime(ctx, private, privateRefreshedAt, at)
	var goneValue []byte
	if gone {
		goneValue = []byte("true")
	}
	diags.Append(private.SetKey(ctx, privateJobGone, goneValue)...)
	diags.Append(private.SetKey(ctx, privatePlannedAction, nil)...)
	return diags
}

// recordLink notes when the link now in state was generated.
func recordLink(ctx context.Context, private privateSetter, at time.Time) diag.Diagnostics {
	return recordTime(ctx, private, privateLinkGeneratedAt, at)
}

// forgetLink removes what was recorded about a link the state no longer
// holds.
func forgetLink(ctx context.Context, private privateSetter) diag.Diagnostics {
	return private.SetKey(ctx, privateLinkGeneratedAt, nil)
}

// recordPlannedAction carries a plan's decision to the apply; actionNone
// removes the key, so that Update does nothing.
func recordPlannedAction(ctx context.Context, private privateSetter, action linkAction) diag.Diagnostics {
	if action == actionNone {
		return private.SetKey(ctx, privatePlannedAction, nil)
	}
	raw, _ := json.Marshal(string(action)) // a string always marshals
	return private.SetKey(ctx, privatePlannedAction, raw)
}

// takePlannedAction reads the decision of the plan being applied and
// removes it, so that it is not stored with the resource.
func takePlannedAction(ctx context.Context, private interface {
	privateGetter
	privateSetter
}) (linkAction, diag.Diagnostics) {
	raw, diags := private.GetKey(ctx, privatePlannedAction)
	if diags.HasError() {
		return actionNone, diags
	}
	diags.Append(private.SetKey(ctx, privatePlannedAction, nil)...)
	if len(raw) == 0 {
		return actionNone, diags
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || !slices.Contains(linkActions, linkAction(s)) {
		diags.AddError("Unexpected Planned Action",
			fmt.Sprintf("The plan carried an unknown action for the bundle (%s). This is a bug in the mintlify "+
				"provider: please report it. Running `terraform apply` again plans afresh.", raw))
		return actionNone, diags
	}
	return linkAction(s), diags
}

// recordTime stores a moment under a private state key.
func recordTime(ctx context.Context, private privateSetter, key string, at time.Time) diag.Diagnostics {
	raw, _ := json.Marshal(at.UTC()) // a time always marshals
	return private.SetKey(ctx, key, raw)
}

// recordedTime reads a moment stored by recordTime; zero when none was
// recorded.
func recordedTime(ctx context.Context, private privateGetter, key string) (time.Time, diag.Diagnostics) {
	raw, diags := private.GetKey(ctx, key)
	var at time.Time
	if len(raw) == 0 || json.Unmarshal(raw, &at) != nil {
		return time.Time{}, diags
	}
	return at, diags
}
