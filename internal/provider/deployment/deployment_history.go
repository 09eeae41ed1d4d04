package deployment

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// A deployment reports no progress, so the wait for one polls by how long
// an earlier deployment took (mintlify.Foretell): it looks just before and
// just after the end that duration foretells, and without one it polls as
// Mintlify's own 10-second loop does.
//
// The earlier duration is a successful deployment's `created_at` to
// `ended_at` (a failed one may have ended anywhere): the
// state holds them for the deployment it replaces, so an update that
// deploys a preview again reads them there. A replacement is a destroy and
// then a create that knows nothing of the old resource (see
// deploymentHandoffs), so the destroy leaves the duration in the provider's
// hand-over registry, by project (and a preview's branch), and the create
// that follows in the same apply takes it; so does every wait that ends in
// that apply, for the next deployment of the same project or preview.

// foretold is what a wait knows in advance of its deployment.
type foretold struct {
	// took is how long an earlier deployment of the same resource took,
	// from creation to end; zero when none is known.
	took time.Duration
	// fresh says the wait starts as the deployment was just triggered.
	fresh bool
}

// option is the wait option that tells the client.
func (f foretold) option() mintlify.WaitOption[mintlify.Deployment] {
	return mintlify.Foretell(f.took, f.fresh)
}

// historyKey is the key of a deployment's durations: its project.
func historyKey(projectID string) string { return "deployment of " + projectID }

// previewHistoryKey is the key of a preview's durations: its project and
// branch.
func previewHistoryKey(projectID, branch string) string {
	return "preview of " + branch + " in " + projectID
}

// tookOf is how long a deployment that succeeded took, from `created_at` to
// `ended_at`; zero for one that runs, failed (which may end at any point),
// or lacks either time.
func tookOf(d *mintlify.Deployment) time.Duration {
	if d.Status != mintlify.DeployStatusSuccess {
		return 0
	}
	return d.Took()
}

// took is tookOf the deployment in the fields.
func (f *deploymentFields) took() time.Duration {
	return tookOf(&mintlify.Deployment{Status: f.Status.ValueString(), CreatedAt: f.CreatedAt.ValueString(),
		EndedAt: f.EndedAt.ValueString()})
}

// wait waits for a deployment of key, timed by the duration f gives or,
// when it gives none, the one remembered for key; a success it sees is
// remembered for the next wait of key in this apply.
func (h *deploymentHandoffs) wait(ctx context.Context, client *mintlify.Client, key, projectID, statusID string,
	w deploymentWait, f foretold) (*mintlify.Deployment, diag.Diagnostics) {
	if f.took == 0 {
		f.took = h.recall(key)
	}
	d, diags := waitForDeployment(ctx, client, projectID, statusID, w, f)
	if d != nil {
		h.remember(ctx, key, tookOf(d))
	}
	return d, diags
}

// remember keeps how long a deployment of key took, for the next wait of
// key in this apply; zero keeps nothing.
func (h *deploymentHandoffs) remember(ctx context.Context, key string, took time.Duration) {
	if h == nil || took <= 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.took[key] = took
	tflog.Debug(ctx, "Remembering how long the deployment took, to time the status requests of the next one",
		map[string]any{"took": took.String()})
}

// recall is how long the last deployment of key took, as remembered; zero
// when none was.
func (h *deploymentHandoffs) recall(key string) time.Duration {
	if h == nil {
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.took[key]
}
