package deployment

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// A create that stops waiting for its deployment early (a timeout, Ctrl-C,
// a status it could not read) returns an error, so Terraform taints the
// resource, and the next apply plans to replace it: destroy the tainted
// object, then create a new one, which knows nothing of the old. Left at
// that, the replacement would trigger a second deployment while the first
// still runs.
//
// Both halves of that replacement run in the same apply, in one provider
// process, the destroy first (Terraform's default order, without
// create_before_destroy). So the destroy, which only forgets the
// deployment, leaves it in a deploymentHandoffs when it still runs (as the
// refresh before the plan read it) and the resource waits for its
// deployment, and the create that follows, for the same project and
// triggers, takes it and waits for it instead of triggering another.
//
// Nothing else tells the destroy that its resource is tainted: Terraform
// plans the replacement of a tainted object as a create without prior
// state or private state, and the destroy half of the replacement gets the
// create's planned private state, not the tainted object's. So a deployment
// that ended is never handed over: a `failure` is replaced by the retry,
// and a deployment that succeeded while nobody waited (or that
// `terraform apply -replace` names) by a new deployment. With
// create_before_destroy the create runs first, finds nothing, and triggers
// a new deployment.
//
// A preview is replaced the same way, and resumes the same way: its destroy
// leaves the deployment, with the preview's address, for a create of the
// same project, branch and triggers (previewHandoffKey).

// handoffsOf is the hand-over registry of a configured provider; nil for a
// provider not configured.
func handoffsOf(d *core.ProviderData) *deploymentHandoffs {
	if d == nil {
		return nil
	}
	return core.FamilyState(d, handoffsKey{}, newDeploymentHandoffs)
}

// handoffsKey is the key of the hand-over registry in the provider's data.
type handoffsKey struct{}

// deploymentHandoffs holds deployments that destroyed resources left for
// their replacements, by project and triggers (and a preview's branch). It
// lives as long as the provider's configuration: one apply.
type deploymentHandoffs struct {
	mu    sync.Mutex
	byKey map[string][]handoff
	// took is how long the last deployment of a project (or preview)
	// took, for the next wait's schedule (see foretold).
	took map[string]time.Duration
}

// handoff is a deployment left for a replacement: its status id, and the
// address of a preview, which only triggering it answers.
type handoff struct {
	StatusID   string
	PreviewURL string
}

func newDeploymentHandoffs() *deploymentHandoffs {
	return &deploymentHandoffs{byKey: map[string][]handoff{}, took: map[string]time.Duration{}}
}

// forgotten is a deployment, or a preview's, that a destroy forgets: what
// its resource's replacement may learn from it.
type forgotten struct {
	// status is the deployment's status as last read; waits is the
	// resource's `wait_for_completion`.
	status string
	waits  bool
	// history and took: how long the deployment took, kept under history
	// for the timing of the replacement's wait (see foretold).
	history string
	took    time.Duration
	// key is what the replacement must share with the resource to take
	// over the deployment, left as left.
	key  string
	left handoff
}

// forget is the one way both resources forget a deployment on destroy: it
// remembers how long the deployment took, then leaves it to the
// replacement when it still runs and the resource waits for it, which it
// reports. An unconfigured provider forgets without either.
func (h *deploymentHandoffs) forget(ctx context.Context, f forgotten) (left bool) {
	if h == nil {
		return false
	}
	h.remember(ctx, f.history, f.took)
	if !deploymentRunning(f.status) || !f.waits || f.left.StatusID == "" {
		return false
	}
	h.leave(f.key, f.left)
	return true
}

// leave hands a deployment to the next create of key.
func (h *deploymentHandoffs) leave(key string, left handoff) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byKey[key] = append(h.byKey[key], left)
}

// take returns a deployment left for a create of key, once.
func (h *deploymentHandoffs) take(key string) (left handoff, ok bool) {
	if h == nil {
		return handoff{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	all := h.byKey[key]
	if len(all) == 0 {
		return handoff{}, false
	}
	h.byKey[key] = all[1:]
	return all[0], true
}

// takeLive returns a deployment left for a create of key (see take), unless
// the API no longer has it: the create then starts a new one. logged says
// so at INFO when it takes one, with fields and the status id as idField.
func (h *deploymentHandoffs) takeLive(ctx context.Context, client *mintlify.Client, key, logged string, fields map[string]any, idField string) (left handoff, ok bool) {
	left, ok = h.take(key)
	if !ok {
		return handoff{}, false
	}
	if _, err := client.GetDeployment(ctx, left.StatusID); mintlify.IsNotFound(err) {
		tflog.Info(ctx, "The API no longer has the deployment of the replaced resource: starting a new one",
			map[string]any{idField: left.StatusID})
		return handoff{}, false
	}
	fields[idField] = left.StatusID
	tflog.Info(ctx, logged, fields)
	return left, true
}

// handoffKey is what a replacement must share with the resource it
// replaces to take over its deployment: the project, and the triggers (a
// change of which asks for a new deployment). No triggers and an empty map
// are the same.
func handoffKey(projectID string, triggers types.Map) string {
	values := map[string]string{}
	for k, v := range triggers.Elements() {
		if s, ok := v.(types.String); ok {
			values[k] = s.ValueString()
		}
	}
	raw, _ := json.Marshal(values) // a map of strings always encodes, keys sorted
	return projectID + "\n" + string(raw)
}

// previewHandoffKey is what a preview's replacement must share with the
// preview it replaces to take over its deployment: the project, the branch
// and the triggers. It never equals a deployment's key, which has no
// branch.
func previewHandoffKey(projectID, branch string, triggers types.Map) string {
	return handoffKey(projectID, triggers) + "\npreview of " + branch
}
