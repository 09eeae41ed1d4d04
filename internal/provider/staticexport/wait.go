package staticexport

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// defaultExportTimeout bounds the wait for a static export (a bundle's
// create and update, an archive's create) when `timeouts` is not set.
const defaultExportTimeout = 30 * time.Minute

// bundleWait is what the diagnostics of a create or update that waits for
// an export need to know: its budget, and whether it creates the resource
// (which Terraform then taints when it fails) or updates it.
type bundleWait struct {
	budget   core.WaitBudget
	creating bool
}

// completeExport brings the model's job to a fresh link: it waits for the
// job unless it completed, then generates a link and records when, in priv.
// started is a status just received, which the wait starts from: the
// answer of the start that just created the job, or of the refresh that
// just read it (empty for a job from state); priorRevision is the revision
// of the link in state. The model is kept current with whatever was
// learned, also on failure.
func (r *staticExportBundleResource) completeExport(ctx context.Context, m *staticExportBundleModel, started startedJob, priorRevision int64, priv *core.PrivateState[bundleFacts], w bundleWait) diag.Diagnostics {
	if m.projectScoped() {
		return r.completeProjectExport(ctx, m, started.project, priorRevision, priv, w)
	}
	if m.Status.ValueString() != mintlify.StatusCompleted {
		if diags := r.waitForExport(ctx, m, started.domain, w); diags.HasError() {
			return diags
		}
	}
	generatedAt, diags := r.generateLink(ctx, m, priorRevision, w)
	if !diags.HasError() {
		priv.Facts.LinkGeneratedAt = generatedAt
	}
	return diags
}

// waitForExport waits for the model's job to complete, logging its progress,
// and keeps the model current with the job as last seen. started counts as
// the wait's first status when set.
func (r *staticExportBundleResource) waitForExport(ctx context.Context, m *staticExportBundleModel, started *mintlify.StaticExportJob, w bundleWait) diag.Diagnostics {
	jobID := m.JobID.ValueString()
	job, err := r.Provider.Client.WaitForStaticExport(ctx, jobID, mintlify.Started(started), mintlify.OnChange(logExportProgress(ctx)))
	if job != nil {
		m.setJob(job)
	}
	if err != nil {
		return diag.Diagnostics{exportWaitDiagnostic(err, jobID, job, w)}
	}
	return nil
}

// generateLink generates a fresh link for the model's completed job and
// puts it in the model with its revision, and returns when it was
// generated.
func (r *staticExportBundleResource) generateLink(ctx context.Context, m *staticExportBundleModel, priorRevision int64, w bundleWait) (time.Time, diag.Diagnostics) {
	client := r.Provider.Client
	jobID := m.JobID.ValueString()
	bundle, err := client.GenerateBundle(ctx, jobID)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return time.Time{}, diag.Diagnostics{linkCutShort(err, jobID, w)}
	case mintlify.IsDomainExportRetired(err):
		return time.Time{}, diag.Diagnostics{retiredDiagnostic(err, m.Domain.ValueString(), "No link was generated; "+
			"the link in state keeps working until `expires_at`.")}
	case err != nil:
		op := GenerateBundleOp(jobID)
		if current, perr := time.Parse(time.RFC3339, m.ExpiresAt.ValueString()); perr == nil {
			op = RenewBundleOp(jobID, current, client.Clock().Now()) // a failed renewal says until when the link works
		}
		op = op.Advise(http.StatusNotFound, w.goneAdvice())
		return time.Time{}, diag.Diagnostics{op.Diagnostic(err)}
	}
	now := client.Clock().Now()
	m.recordLink(ctx, bundle, priorRevision, now)
	return now, nil
}
