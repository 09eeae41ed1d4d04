package core

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// The plan→apply contract of every resource: a plan decides what the apply
// does (a PlannedAction) and carries the decision to it in planned private
// state; the apply takes it (BeginUpdate) and does that and nothing else.
//
// Private state: what a resource keeps with its state, never shown to users.
// Every resource of this provider keeps one JSON object under one key, in
// one versioned shape, read at the start of an operation and written back
// whole at its end.

// privateKey is the one private state key of every resource.
const privateKey = "mintlify"

// privateVersion is the shape of PrivateState written today. A private
// state of another version is ignored, as if the resource had none: each of
// its facts is learned again by the next refresh.
const privateVersion = 1

// PrivateState is a resource's private state: what the plan→apply contract
// keeps for every resource, then the resource's own facts (F, written after
// these in the same JSON object; struct{} for a resource that has none). A
// family whose resource plans actions of its own (the bundle's renewal)
// lists them with a method PlannedActions() []PlannedAction of F.
// Each fact has one writer, and each fact a refresh can learn is written
// by every refresh that got an answer, so that no conclusion outlives the
// answer it came from.
type PrivateState[F comparable] struct {
	Version int `json:"version"`

	// PlannedAction is what the plan decided, carried in planned private
	// state to the apply, which takes it: only a plan schedules work, and
	// an apply does what its plan showed. A refresh drops one left over
	// from a plan that was never applied.
	PlannedAction PlannedAction `json:"planned_action,omitempty"`

	// PlannedAt is the moment at which a plan judged the resource, carried
	// with PlannedAction in planned private state. A CLI that hands the
	// first plan's private state to the plan it makes again during apply
	// lets that plan judge at the same moment, so both agree. Never stored
	// with the resource.
	PlannedAt time.Time `json:"planned_at,omitzero"`

	// Facts are the resource's own.
	Facts F `json:"-"`
}

// noFacts are the facts of a resource that keeps none of its own.
type noFacts = struct{}

// privateHeader is the part of PrivateState that every resource keeps.
type privateHeader struct {
	Version       int           `json:"version"`
	PlannedAction PlannedAction `json:"planned_action,omitempty"`
	PlannedAt     time.Time     `json:"planned_at,omitzero"`
}

// MarshalJSON writes the header's fields, then the facts', in one object.
func (p PrivateState[F]) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(privateHeader{p.Version, p.PlannedAction, p.PlannedAt})
	if err != nil {
		return nil, err
	}
	facts, err := json.Marshal(p.Facts)
	if err != nil || string(facts) == "{}" {
		return head, err
	}
	return append(append(head[:len(head)-1], ','), facts[1:]...), nil
}

// UnmarshalJSON reads the header's fields and the facts' from one object.
func (p *PrivateState[F]) UnmarshalJSON(raw []byte) error {
	var head privateHeader
	if err := json.Unmarshal(raw, &head); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &p.Facts); err != nil {
		return err
	}
	p.Version, p.PlannedAction, p.PlannedAt = head.Version, head.PlannedAction, head.PlannedAt
	return nil
}

// privateGetter and privateSetter are the parts of the framework's private
// state used here; requests and responses of every operation provide them.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// Read reads a resource's private state into p; p is empty when there is
// none, or when it has another shape.
func (p *PrivateState[F]) Read(ctx context.Context, from privateGetter) diag.Diagnostics {
	*p = PrivateState[F]{}
	raw, diags := from.GetKey(ctx, privateKey)
	if diags.HasError() || len(raw) == 0 {
		return diags
	}
	var read PrivateState[F]
	if err := json.Unmarshal(raw, &read); err != nil || read.Version != privateVersion {
		tflog.Debug(ctx, "Ignoring private state of another shape; the next refresh learns its facts again",
			map[string]any{"private_state": string(raw)})
		return diags
	}
	if read.PlannedAction != "" && !slices.Contains(plannedActions(read.Facts), read.PlannedAction) {
		diags.AddError("Unexpected Planned Action",
			fmt.Sprintf("The plan carried an unknown action (%q). This is a bug in the mintlify provider: please "+
				"report it. Running `terraform apply` again plans afresh.", read.PlannedAction))
		read.PlannedAction = ""
	}
	*p = read
	return diags
}

// Write stores p as the resource's private state; an empty one removes the
// key.
func (p PrivateState[F]) Write(ctx context.Context, to privateSetter) diag.Diagnostics {
	if p == (PrivateState[F]{Version: p.Version}) {
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
func (p *PrivateState[F]) takePlannedAction() PlannedAction {
	action := p.PlannedAction
	p.PlannedAction, p.PlannedAt = "", time.Time{}
	if action == "" {
		return actionNone
	}
	return action
}

// Plan records what the plan decided; actionNone records nothing.
func (p *PrivateState[F]) Plan(action PlannedAction) {
	p.PlannedAction = action
	if action == actionNone {
		p.PlannedAction = ""
	}
}

// PlannedAction is what a plan does about a resource's job; the plan
// carries it to the apply in private state. Every resource knows
// actionNone and ActionResume; a resource's facts may add its own (see
// PrivateState).
type PlannedAction string

const (
	// actionNone makes no request. An update planned for other reasons
	// (such as `timeouts`) only stores the configuration. Its value is
	// "none", which a family that names it spells the same.
	actionNone PlannedAction = "none"
	// ActionResume waits for the job in state unless it ended: for the
	// bundle, a create that ended early and was untainted, which then gets
	// its first link; for the agent job and the deployment, a job still
	// running.
	ActionResume PlannedAction = "resume"
)

// plannedActions lists the actions a resource with facts F may plan.
func plannedActions[F any](facts F) []PlannedAction {
	actions := []PlannedAction{actionNone, ActionResume}
	if own, ok := any(facts).(interface{ PlannedActions() []PlannedAction }); ok {
		actions = append(actions, own.PlannedActions()...)
	}
	return actions
}

// Update is what every Update starts from (BeginUpdate): the call, whose
// context is the operation's own (each update bounds its work by the
// setting it needs), the resource's private state, and the action the plan
// decided.
type Update[M any, F comparable] struct {
	Call[M]
	Private PrivateState[F]
	Action  PlannedAction
}

// BeginUpdate reads what every Update starts from: the plan, the prior
// state, and the action the plan decided, which it takes from private
// state so that it is not stored with the resource. ok is false, with the
// diagnostics in resp, when any of it cannot be read.
func BeginUpdate[M any, F comparable](ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) (update Update[M, F], ok bool) {
	update.Ctx, update.Action = ctx, actionNone
	resp.Diagnostics.Append(req.Plan.Get(ctx, &update.Plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &update.State)...)
	resp.Diagnostics.Append(update.Private.Read(ctx, resp.Private)...)
	if resp.Diagnostics.HasError() {
		return update, false
	}
	update.Action = update.Private.takePlannedAction()
	resp.Diagnostics.Append(update.Private.Write(ctx, resp.Private)...)
	return update, !resp.Diagnostics.HasError()
}

// resumable is the model of a resource that can resume waiting for its
// job: MarkChanging shows, in the plan, the fields the wait changes.
type resumable interface {
	// JobStatus is the job's status; Waits is `wait_for_completion`.
	JobStatus() string
	Waits() bool
	MarkChanging()
	// MarkRedeploying shows, in the plan, every field of a job that the
	// update starts again; a model whose updates never do so has nothing
	// to mark.
	MarkRedeploying()
}

// Resume is when the apply of an update waits for the job in state: when
// Running says its status has not ended and the configuration asks to wait
// (`wait_for_completion`), as after an import of a running job, after
// `terraform untaint`, or when `wait_for_completion` becomes true. Logged
// says so in the log.
type Resume[M any] struct {
	Running func(status string) bool
	Logged  string
	// Redeploys, when set, reports an update that starts the job again
	// instead (a preview whose triggers changed): the plan then shows the
	// job's fields unknown (the model's MarkRedeploying), RedeployLogged
	// says so, and no wait is resumed.
	Redeploys      func(state, plan *M) bool
	RedeployLogged string
}

// PlanResume plans an update of a resource that tracks a job, as r says.
// The decision reaches Update in planned private state, and the plan shows
// the job's fields changing.
func PlanResume[M any, P interface {
	*M
	resumable
}](ctx context.Context, r Resume[M], req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var plan, state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	var priv PrivateState[noFacts]
	resp.Diagnostics.Append(priv.Read(ctx, req.Private)...)
	if resp.Diagnostics.HasError() {
		return
	}
	action := actionNone
	switch {
	case r.Redeploys != nil && r.Redeploys(&state, &plan):
		tflog.Info(ctx, r.RedeployLogged)
		P(&plan).MarkRedeploying()
	case r.Running(P(&state).JobStatus()) && P(&plan).Waits():
		tflog.Info(ctx, r.Logged)
		action = ActionResume
		P(&plan).MarkChanging()
	default:
		priv.Plan(action)
		resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
		return
	}
	priv.Plan(action)
	resp.Diagnostics.Append(priv.Write(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}
