package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// Private state: what a resource keeps with its state, never shown to users.
// Every resource of this provider keeps one JSON object under one key, in
// one versioned shape, read at the start of an operation and written back
// whole at its end.

// privateKey is the one private state key of every resource.
const privateKey = "mintlify"

// privateVersion is the shape of privateState written today. A private
// state of another version is ignored, as if the resource had none: each of
// its facts is learned again by the next refresh.
const privateVersion = 1

// privateState is a resource's private state. Each fact has one writer, and
// each fact a refresh can learn is written by every refresh that got an
// answer, so that no conclusion outlives the answer it came from.
type privateState struct {
	Version int `json:"version"`

	// PlannedAction is what the plan decided, carried in planned private
	// state to the apply, which takes it: only a plan schedules work, and
	// an apply does what its plan showed. A refresh drops one left over
	// from a plan that was never applied. Bundle and agent job.
	PlannedAction plannedAction `json:"planned_action,omitempty"`

	// PlannedAt is the moment at which a plan judged the link, carried
	// with PlannedAction in planned private state. A CLI that hands the
	// first plan's private state to the plan it makes again during apply
	// lets that plan judge at the same moment, so both agree. Never stored
	// with the resource. Bundle.
	PlannedAt time.Time `json:"planned_at,omitzero"`
	// JobGone is true when the last refresh got HTTP 404 for the job.
	// Bundle.
	JobGone bool `json:"job_gone,omitempty"`
	// LinkGeneratedAt is when the link in state was generated, so that the
	// default renewal policy knows the link's whole lifetime; zero when the
	// state holds no link. Bundle.
	LinkGeneratedAt time.Time `json:"link_generated_at,omitzero"`

	// Written is the identity of the file the resource wrote (or took as
	// its own); zero when none is known. Archive.
	Written archivefile.Identity `json:"written,omitzero"`
	// FileDrift is what the last refresh found at output_path when it is
	// not the archive the resource wrote; every refresh writes or removes
	// it, and ModifyPlan plans from it. Archive.
	FileDrift *fileVerdict `json:"file_drift,omitempty"`
}

// privateGetter and privateSetter are the parts of the framework's private
// state used here; requests and responses of every operation provide them.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// readPrivate reads a resource's private state; empty when there is none,
// or when it has another shape.
func readPrivate(ctx context.Context, from privateGetter) (privateState, diag.Diagnostics) {
	var p privateState
	raw, diags := from.GetKey(ctx, privateKey)
	if diags.HasError() || len(raw) == 0 {
		return privateState{}, diags
	}
	if err := json.Unmarshal(raw, &p); err != nil || p.Version != privateVersion {
		tflog.Debug(ctx, "Ignoring private state of another shape; the next refresh learns its facts again",
			map[string]any{"private_state": string(raw)})
		return privateState{}, diags
	}
	if p.PlannedAction != "" && !slices.Contains(plannedActions, p.PlannedAction) {
		diags.AddError("Unexpected Planned Action",
			fmt.Sprintf("The plan carried an unknown action (%q). This is a bug in the mintlify provider: please "+
				"report it. Running `terraform apply` again plans afresh.", p.PlannedAction))
		p.PlannedAction = ""
	}
	return p, diags
}

// write stores p as the resource's private state; an empty one removes the
// key.
func (p privateState) write(ctx context.Context, to privateSetter) diag.Diagnostics {
	if p == (privateState{Version: p.Version}) {
		return to.SetKey(ctx, privateKey, nil)
	}
	p.Version = privateVersion
	raw, err := json.Marshal(p)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Cannot Record Private State", fmt.Sprintf("Encoding the resource's private state failed: %s. "+
			"This is a bug in the mintlify provider: please report it.", err))
		return diags
	}
	return to.SetKey(ctx, privateKey, raw)
}

// takePlannedAction returns the action the plan being applied decided, and
// forgets it and the moment it was decided at, so that neither is stored
// with the resource.
func (p *privateState) takePlannedAction() plannedAction {
	action := p.PlannedAction
	p.PlannedAction, p.PlannedAt = "", time.Time{}
	if action == "" {
		return actionNone
	}
	return action
}

// plan records what the plan decided; actionNone records nothing.
func (p *privateState) plan(action plannedAction) {
	p.PlannedAction = action
	if action == actionNone {
		p.PlannedAction = ""
	}
}
