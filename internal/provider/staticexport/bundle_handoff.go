package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// A create that timed out or was interrupted taints the bundle; the next
// plain apply replaces it, and the replacement takes over the export the
// tainted bundle started instead of starting another (core.Handoffs): its
// destroy leaves an export that never got a link and did not fail, and the
// create that follows, with the same arguments, waits for that job.

// LogExportResumed is logged at INFO when a create takes over the export
// of the bundle it replaces instead of starting one.
const LogExportResumed = "Resuming the static export job of the replaced resource"

// exportHandoffArgs are what a replacement must share with the bundle it
// replaces to take over its export: every argument whose change starts a
// new export.
func (m *staticExportBundleModel) exportHandoffArgs() []attr.Value {
	return []attr.Value{m.Domain, m.Version, m.Paths, m.ProjectID, m.BasePath, m.Triggers}
}

// handoffsKey is the key of the bundles' core.Handoffs in the provider's
// data.
type handoffsKey struct{}

// handoffsOf is the hand-over registry of bundles of a configured provider.
func handoffsOf(d *core.ProviderData) *core.Handoffs {
	return core.FamilyState(d, handoffsKey{}, func() *core.Handoffs { return new(core.Handoffs) })
}

// leavesExport reports whether a destroyed bundle's export may serve its
// replacement: a job that neither failed nor ever got a link, which only
// a create that ended early leaves. A bundle with a link is replaced on
// purpose (a changed argument, `-replace`), by a new export.
func (m *staticExportBundleModel) leavesExport() bool {
	return known(m.JobID) && !known(m.ExpiresAt) && exportResumable(m.Status.ValueString())
}

// exportResumable reports a status whose job can still give a bundle:
// neither failed nor one the API does not document.
func exportResumable(status string) bool {
	switch status {
	case mintlify.StatusQueued, mintlify.StatusRunning, mintlify.StatusCompleted:
		return true
	}
	return false
}

// leaveExport hands the destroyed bundle's export to its replacement.
func (r *staticExportBundleResource) leaveExport(ctx context.Context, state *staticExportBundleModel) {
	if r.Provider == nil || !state.leavesExport() {
		return
	}
	handoffsOf(r.Provider).Leave(state.JobID.ValueString(), state.exportHandoffArgs()...)
	tflog.Info(ctx, "Leaving the static export job to the resource's replacement, which waits for it instead of "+
		"starting another", map[string]any{LogFieldJobID: state.JobID.ValueString(), "status": state.Status.ValueString()})
}

// takeOverExport records in the model the export a destroyed bundle left
// for this create, and returns it as the wait's first status; ok is false
// when none was left, or the API no longer has it or saw it fail: the
// create then starts a new export.
func (r *staticExportBundleResource) takeOverExport(ctx context.Context, m *staticExportBundleModel) (started startedJob, ok bool) {
	if m.Domain.IsNull() && !known(m.ProjectID) {
		return startedJob{}, false // the project is settled by the start
	}
	jobID, ok := handoffsOf(r.Provider).Take(m.exportHandoffArgs()...)
	if !ok {
		return startedJob{}, false
	}
	client := r.Provider.Client
	if m.Domain.IsNull() {
		job, err := client.GetProjectExportJob(ctx, m.ProjectID.ValueString(), jobID)
		if err != nil || !exportResumable(job.Status) {
			return startedJob{}, logNotTakenOver(ctx, jobID, err)
		}
		m.setProjectJob(job)
		started = startedJob{project: job}
	} else {
		job, err := client.GetStaticExportJob(ctx, jobID)
		if err != nil || !exportResumable(job.Status) {
			return startedJob{}, logNotTakenOver(ctx, jobID, err)
		}
		m.setJob(job)
		started = startedJob{domain: job}
	}
	tflog.Info(ctx, LogExportResumed, map[string]any{LogFieldJobID: jobID, "status": m.Status.ValueString()})
	return started, true
}

// logNotTakenOver says why the create starts a new export instead of
// taking over jobID; it returns false.
func logNotTakenOver(ctx context.Context, jobID string, err error) bool {
	reason := "the job can give no bundle"
	if err != nil {
		reason = err.Error()
	}
	tflog.Info(ctx, "Not resuming the static export job of the replaced resource: starting a new one",
		map[string]any{LogFieldJobID: jobID, "reason": reason})
	return false
}
