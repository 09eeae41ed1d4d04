package staticexport

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// Ahead of the domain-scoped contract's retirement, a plan of a bundle with
// `domain` says once, per provider process (one plan), that the move to the
// project-scoped contract is possible, when that is seen rather than
// assumed: a project-scoped call of this process was answered other than
// as a path without a route (mintlify.IsProjectExportNotServed): a job, or
// a 404 for a job the project does not have.
//
// Such a call is seen for free when the plan refreshes a project-scoped
// bundle. Otherwise the refresh of a bundle with `domain`, which calls the
// API anyway, probes once per process: it reads the bundle's own job id
// under the provider's `project_id`, which no project-scoped job has, so
// the served answer is a 404 of the service. No probe without the
// provider's `project_id`, nor in a plan that does not refresh
// (`-refresh=false`) or only creates: those plans call no API.

// moveHint is what a provider process saw of the project-scoped calls.
type moveHint struct {
	probe     sync.Once
	mu        sync.Mutex
	served    bool
	said      bool
	projectID string
}

type moveHintKey struct{}

func moveHintOf(d *core.ProviderData) *moveHint {
	return core.FamilyState(d, moveHintKey{}, func() *moveHint { return &moveHint{} })
}

// saw records the answer (err) of a project-scoped call for projectID.
func (h *moveHint) saw(projectID string, err error) {
	if err != nil && (!mintlify.IsNotFound(err) || mintlify.IsProjectExportNotServed(err)) {
		return // not served, or an answer that proves nothing (401, 403, 429, 5xx, no answer)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.served {
		h.served, h.projectID = true, projectID
	}
}

// isServed reports whether a project-scoped call was seen served.
func (h *moveHint) isServed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.served
}

// take reports, once, that the hint is due, with the project it was seen
// for.
func (h *moveHint) take() (projectID string, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.served || h.said {
		return "", false
	}
	h.said = true
	return h.projectID, true
}

// probeProjectExport reads jobID, a domain-scoped job just refreshed, under
// the provider's project, once per process, unless the project-scoped
// calls were already seen served.
func (r *staticExportBundleResource) probeProjectExport(ctx context.Context, jobID string) {
	d := r.Provider
	h := moveHintOf(d)
	if d.ProjectID == "" || h.isServed() {
		return
	}
	h.probe.Do(func() {
		_, err := d.Client.GetProjectExportJob(ctx, d.ProjectID, jobID)
		tflog.Debug(ctx, "Asked whether the API serves the project-scoped static export", map[string]any{
			"project_id": d.ProjectID, "status_code": mintlify.StatusCode(err),
			"not_served": mintlify.IsProjectExportNotServed(err)})
		h.saw(d.ProjectID, err)
	})
}

// hintMove warns, once per process, on the plan of a bundle with `domain`,
// that the API serves the project-scoped contract.
func (r *staticExportBundleResource) hintMove(plan *staticExportBundleModel, resp *resource.ModifyPlanResponse) {
	if r.Provider == nil || plan.projectScoped() || plan.Domain.IsUnknown() {
		return
	}
	projectID, ok := moveHintOf(r.Provider).take()
	if !ok {
		return
	}
	resp.Diagnostics.AddAttributeWarning(pathDomain, "Move To Project-Scoped Static Export Possible",
		fmt.Sprintf("The Mintlify API serves the project-scoped static export for project %q: it answered a "+
			"project-scoped call in this run. Mintlify is replacing the domain-scoped export that `domain` selects. "+
			"To move this bundle and any other with `domain`, %s; each is replaced once by a new export. See %s. "+
			"This warning is given once per plan.", projectID, moveToProject, moveGuide))
}
