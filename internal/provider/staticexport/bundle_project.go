package staticexport

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The bundle's job under either contract: started, waited for, and its
// link had. Today's contract generates a link with a POST (generateLink);
// the project-scoped one reads the job, whose every read of a completed
// job carries a fresh link: renewal is a GET, which a read-only key may
// make, and it never starts a job.

// startedJob is the answer of the start that created the job, under the
// contract the bundle speaks; nil fields for a job from state.
type startedJob struct {
	domain  *mintlify.StaticExportJob
	project *mintlify.ProjectExportJob
}

// start starts the plan's export and records its job in the model.
func (r *staticExportBundleResource) start(ctx context.Context, m *staticExportBundleModel, budget core.WaitBudget) (startedJob, diag.Diagnostics) {
	client := r.Provider.Client
	if m.Domain.IsNull() {
		projectID, diags := r.Provider.ProjectFor(m.ProjectID, "Exporting the docs without `domain`", "resource")
		if diags.HasError() {
			return startedJob{}, diags
		}
		job, err := client.StartProjectExport(ctx, projectID, mintlify.ProjectExportRequest{BasePath: m.BasePath.ValueString()})
		if err != nil {
			op := StartProjectExportOp(projectID).Within(budget)
			return startedJob{}, diag.Diagnostics{projectCallDiagnostic(op, err, client.Clock().Now())}
		}
		m.ProjectID = types.StringValue(projectID)
		m.setProjectJob(job)
		return startedJob{project: job}, nil
	}
	start, diags := m.startRequest(ctx)
	if diags.HasError() {
		return startedJob{}, diags
	}
	job, err := client.StartStaticExport(ctx, start)
	if err != nil {
		return startedJob{}, diag.Diagnostics{startDiagnostic(start.Domain, err)}
	}
	m.setJob(job)
	return startedJob{domain: job}, nil
}

// startDiagnostic explains a refused start of today's contract; once
// Mintlify no longer serves it, it says what to change in the
// configuration.
func startDiagnostic(domain string, err error) diag.Diagnostic {
	if !mintlify.IsDomainExportRetired(err) {
		return StartStaticExportOp(domain).Diagnostic(err)
	}
	return retiredDiagnostic(err, domain, "No job was started.")
}

// retiredDiagnostic says that Mintlify no longer serves the domain-scoped
// static export, and what to change; then what the call did not do.
func retiredDiagnostic(err error, domain, notDone string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(pathDomain, "Domain-Scoped Static Export Retired",
		fmt.Sprintf("The Mintlify API no longer serves the domain-scoped static export that `domain` selects "+
			"(HTTP %d: %s): exports are now started under a project. To export the docs of %s, %s. The plan then "+
			"replaces this export once with a project-scoped one. %s", mintlify.StatusCode(err), core.APIMessage(mintlify.Classify(err)),
			domain, moveToProject, notDone))
}

// moveGuide names the guide that walks the move to the project-scoped
// contract.
const moveGuide = "the guide \"Moving to project-scoped exports\" (docs/guides/moving-to-project-scoped-exports.md, " +
	"under Guides on the provider's Registry page)"

// retiredWarning says, at plan, that the domain-scoped contract of the job
// in state is retired: the state keeps the job and its link, nothing is
// replaced, and what to change.
func retiredWarning(jobID, domain, expiresAt string) diag.Diagnostic {
	until := "until it expires"
	if expiresAt != "" {
		until = "until " + expiresAt
	}
	return diag.NewAttributeWarningDiagnostic(pathDomain, "Domain-Scoped Static Export Retired",
		fmt.Sprintf("The Mintlify API no longer serves the domain-scoped static export that `domain` selects: the "+
			"last refresh of static export job %s was answered as a retired call. The state keeps the job and its "+
			"link, which works %s, and this plan neither replaces nor renews it: no new export or link can be had "+
			"under `domain`. To export the docs of %s again, %s; the plan then replaces this export once with a "+
			"project-scoped one. See %s for what else changes (the archive's format, Helm values).",
			jobID, until, domain, moveToProject, moveGuide))
}

// completeProjectExport brings the model's project-scoped job to a fresh
// link: it reads the job, waiting while it is queued or running, and takes
// the link of the last read. started is the answer of the start that just
// created the job (nil for a job from state, whose read is the renewal).
func (r *staticExportBundleResource) completeProjectExport(ctx context.Context, m *staticExportBundleModel, started *mintlify.ProjectExportJob,
	priorRevision int64, priv *core.PrivateState[bundleFacts], w bundleWait) diag.Diagnostics {
	client := r.Provider.Client
	projectID, jobID := m.ProjectID.ValueString(), m.JobID.ValueString()
	job, err := client.WaitForProjectExport(ctx, projectID, jobID, mintlify.Started(started),
		mintlify.OnChange(logProjectExportProgress(ctx)))
	if job != nil {
		m.setProjectJob(job)
	}
	if err != nil {
		return diag.Diagnostics{r.projectWaitDiagnostic(err, m, job, w)}
	}
	bundle, _ := job.Bundle() // a completed job carries its link: the client checked
	now := client.Clock().Now()
	m.recordLink(ctx, bundle, priorRevision, now)
	priv.Facts.LinkGeneratedAt = now
	return nil
}

// projectWaitDiagnostic explains why reading or waiting for a
// project-scoped job ended early; a renewal refused says until when the
// link in state works.
func (r *staticExportBundleResource) projectWaitDiagnostic(err error, m *staticExportBundleModel, last *mintlify.ProjectExportJob, w bundleWait) diag.Diagnostic {
	jobID := m.JobID.ValueString()
	reached := "before its first status was read"
	if last != nil {
		reached = fmt.Sprintf("`%s`", last.Status)
	}
	if d, ok := waitCutShort(err, jobID, reached, w); ok {
		return d
	}
	op := GetProjectExportJobOp(m.ProjectID.ValueString(), jobID).Within(w.budget).Advise(http.StatusNotFound, w.goneAdvice())
	if current, perr := time.Parse(time.RFC3339, m.ExpiresAt.ValueString()); perr == nil {
		op = op.Renewing(currentLink(jobID, current, r.Provider.Client.Clock().Now()))
	}
	return projectCallDiagnostic(op, err, r.Provider.Client.Clock().Now())
}

// recordLink puts a link just had in the model, with its revision: planned
// by the plan, or else (create, import, resume) the Unix time, which keeps
// the revision growing past any resource this one replaced.
func (m *staticExportBundleModel) recordLink(ctx context.Context, bundle *mintlify.Bundle, priorRevision int64, now time.Time) {
	m.setBundle(bundle)
	if m.LinkRevision.IsUnknown() || m.LinkRevision.IsNull() {
		m.LinkRevision = types.Int64Value(max(priorRevision+1, now.Unix()))
	}
	tflog.Info(ctx, "Static export bundle link generated", map[string]any{
		"size_bytes": bundle.SizeBytes, "expires_at": bundle.ExpiresAt.UTC().Format(time.RFC3339),
	})
}

// setProjectJob copies a project-scoped job's state into the model, never
// its link: a read that is no renewal keeps the link in state.
func (m *staticExportBundleModel) setProjectJob(job *mintlify.ProjectExportJob) {
	m.ID = types.StringValue(job.JobID)
	m.JobID = types.StringValue(job.JobID)
	m.Status = types.StringValue(job.Status)
	m.Progress, m.PageCount = types.Float64Null(), types.Int64Null()
	m.CreatedAt = types.StringValue(job.CreatedAt.UTC().Format(time.RFC3339))
}

// readJob refreshes the job in state under its contract, never its link,
// and returns the status it read, which a wait may start from (see
// completeExport). notFound is a job the API no longer has; retired, a
// domain-scoped job whose contract the API no longer serves, which the state
// keeps.
func (r *staticExportBundleResource) readJob(ctx context.Context, m *staticExportBundleModel, budget core.WaitBudget) (read startedJob, notFound, retired bool, diags diag.Diagnostics) {
	client := r.Provider.Client
	jobID := m.JobID.ValueString()
	if !m.projectScoped() {
		job, err := client.GetStaticExportJob(ctx, jobID)
		switch {
		case err == nil:
			m.setJob(job)
			return startedJob{domain: job}, false, false, nil
		case mintlify.IsDomainExportRetired(err) && !m.StoreLink.IsNull():
			// The link in state keeps working until it expires: keep it,
			// and let the plan say what to change (retiredWarning).
			tflog.Warn(ctx, "The domain-scoped static export is retired; keeping the link in state", map[string]any{
				LogFieldJobID: jobID, "status_code": mintlify.StatusCode(err)})
			return startedJob{}, false, true, nil
		}
		op := GetStaticExportJobOp(jobID).Within(budget)
		return startedJob{}, mintlify.IsNotFound(err), false, diag.Diagnostics{op.Advise(http.StatusNotFound, "There is nothing to import: "+
			"check the job ID; jobs belong to the organization of the API key.").
			While(fmt.Sprintf("refreshing static export job %s", jobID)).Diagnostic(err)}
	}
	projectID := m.ProjectID.ValueString()
	job, err := client.GetProjectExportJob(ctx, projectID, jobID)
	moveHintOf(r.Provider).saw(projectID, err)
	if err == nil {
		m.setProjectJob(job)
		return startedJob{project: job}, false, false, nil
	}
	op := GetProjectExportJobOp(projectID, jobID).Within(budget).Advise(http.StatusNotFound, "There is nothing to "+
		"import: check the project and job IDs (`PROJECT_ID/JOB_ID`).")
	// An API that does not serve the contract says nothing of the job.
	gone := mintlify.IsNotFound(err) && !mintlify.IsProjectExportNotServed(err)
	return startedJob{}, gone, false, diag.Diagnostics{projectCallDiagnostic(op, err, client.Clock().Now())}
}

// importTarget reads an import ID: `JOB_ID` for today's contract,
// `PROJECT_ID/JOB_ID` for a project-scoped job.
func importTarget(id string) (projectID, jobID string, ok bool) {
	for i := range len(id) {
		if id[i] == '/' {
			projectID, jobID = id[:i], id[i+1:]
			return projectID, jobID, projectID != "" && jobID != ""
		}
	}
	return "", id, id != ""
}

// importID is what imports the model's job: `PROJECT_ID/JOB_ID` for a
// project-scoped job, its id otherwise.
func (m *staticExportBundleModel) importID() string {
	if m.projectScoped() && known(m.ProjectID) {
		return m.ProjectID.ValueString() + "/" + m.JobID.ValueString()
	}
	return m.JobID.ValueString()
}
