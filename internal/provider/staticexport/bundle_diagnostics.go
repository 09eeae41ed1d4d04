package staticexport

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// The bundle's own diagnostics: a wait or a link cut short, a replacement
// the plan decided, a link that outlives the resource. Failures of single
// API calls are core.APIOperation's (core/diagnostics.go).

// resumeAdvice says how to pick the job up again after the operation ended
// early: after a create, the next apply's replacement takes the job over
// (bundle_handoff.go); after an update, the job stays in state. toDo is
// "resume this same job" or "generate the link of this same job".
func (w bundleWait) resumeAdvice(toDo, afterUpdate string) string {
	if w.creating {
		return "The resource is tainted but keeps the job. Run `terraform apply` again to " + toDo + ": the plan " +
			"shows the resource replaced, and the replacement waits for this job instead of starting another " +
			"export, as long as `domain`, `version`, `paths`, `project_id`, `base_path` and `triggers` stay the " +
			"same (and without `create_before_destroy`, which starts a new export first)."
	}
	return afterUpdate
}

// goneAdvice says what follows when the job turns out to be gone during
// the operation.
func (w bundleWait) goneAdvice() string {
	if w.creating {
		return "The resource is tainted, so the next apply starts a new export."
	}
	return "Apply again: the refresh will find the job gone, and the plan replaces the resource with a new export."
}

// exportWaitDiagnostic explains why waiting for a job ended early, and how
// to pick the same job up again. last is the job as last seen, nil if it
// was never read.
func exportWaitDiagnostic(err error, jobID string, last *mintlify.StaticExportJob, w bundleWait) diag.Diagnostic {
	reached := "before its first status was read"
	if last != nil {
		reached = fmt.Sprintf("`%s` at %s%% with %d pages exported", last.Status,
			mintlify.FormatProgress(last.Progress), last.PageCount)
	}
	if d, ok := waitCutShort(err, jobID, reached, w); ok {
		return d
	}
	resume := w.resumeAdvice("resume this same job", "Apply again to resume waiting for the same job; no new export starts.")
	if unknown := (*mintlify.UnknownStatusError)(nil); errors.As(err, &unknown) && w.creating {
		resume = "The resource is tainted and keeps the job id: the next apply replaces it with a new export, " +
			"since a job in a status nobody knows cannot be resumed. To keep this job in state instead, run " +
			"`terraform untaint` with the resource's address, shown above after `with`."
	}
	op := GetStaticExportJobOp(jobID).Within(w.budget).
		While(fmt.Sprintf("waiting for static export job %s (%s)", jobID, reached))
	d := op.Advise(http.StatusNotFound, w.goneAdvice()).Diagnostic(err)
	if mintlify.IsNotFound(err) {
		return d
	}
	return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+resume)
}

// waitCutShort explains a wait for either contract's job that ended with
// the job failed, the timeout or an interrupt; false for any other error.
// reached says where the job was when last seen.
func waitCutShort(err error, jobID, reached string, w bundleWait) (diag.Diagnostic, bool) {
	resume := w.resumeAdvice("resume this same job", "Apply again to resume waiting for the same job; no new export starts.")
	var failed *mintlify.JobFailedError[mintlify.StaticExportJob]
	var failedProject *mintlify.JobFailedError[mintlify.ProjectExportJob]
	switch {
	case errors.As(err, &failed):
		return diag.NewErrorDiagnostic("Static Export Job Failed",
			fmt.Sprintf("The Mintlify static export job %s failed at %s%% (%d pages exported): %s.\n\n"+
				"Fix the cause the message names (for example the `domain` or `paths`), then apply again: a "+
				"failed job cannot be resumed, so the next apply starts a new export.",
				jobID, mintlify.FormatProgress(failed.Job.Progress), failed.Job.PageCount, failureReason(failed.Job.Error))), true
	case errors.As(err, &failedProject):
		return diag.NewErrorDiagnostic("Static Export Job Failed",
			fmt.Sprintf("The Mintlify static export job %s of project %s failed: %s.\n\nFix the cause the message "+
				"names, then apply again: a failed job cannot be resumed, so the next apply starts a new export.",
				jobID, failedProject.Job.ProjectID, failureReason(failedProject.Job.Error))), true
	case errors.Is(err, context.DeadlineExceeded) && !mintlify.IsRetryDeadline(err):
		return w.budget.Pointed(diag.NewErrorDiagnostic("Static Export Timed Out",
			fmt.Sprintf("The Mintlify static export job %s did not complete within %s; it was %s. %s\n\n%s If "+
				"exports usually take this long, %s.", jobID, w.budget, reached, core.KeepsRunning, resume, w.budget.Raise()))), true
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic("Static Export Interrupted",
			fmt.Sprintf("Terraform was interrupted while waiting for the Mintlify static export job %s; it was %s. "+
				"%s\n\n%s", jobID, reached, core.KeepsRunning, resume)), true
	}
	return nil, false
}

// linkCutShort explains a timeout or an interrupt while the link of a
// completed job was being generated, and how to get it without a new export.
func linkCutShort(err error, jobID string, w bundleWait) diag.Diagnostic {
	next := w.resumeAdvice("generate the link of this same job", "Apply again to generate the link; no new export starts.")
	if errors.Is(err, context.DeadlineExceeded) {
		return w.budget.Pointed(diag.NewErrorDiagnostic("Static Export Timed Out",
			fmt.Sprintf("The static export job %s completed, but %s ran out while its bundle link was being "+
				"generated.\n\n%s", jobID, w.budget, next)))
	}
	return diag.NewErrorDiagnostic("Static Export Interrupted",
		fmt.Sprintf("Terraform was interrupted while generating the bundle link of the completed static export "+
			"job %s.\n\n%s", jobID, next))
}

// replacementWarning says why the plan replaces the bundle, which starts a
// new export.
func replacementWarning(action core.PlannedAction, reason string) diag.Diagnostic {
	summary := "Static Export Job No Longer Exists"
	if action == actionReplaceFailed {
		summary = "Static Export Job Failed"
	}
	detail := core.Capitalized(reason) + ". The plan replaces the resource: the apply starts a new export."
	if action == actionReplaceGone {
		detail += " If the 404 came from a wrong API key or `base_url`, fix that first: once a refresh finds " +
			"the job again, the replacement is no longer planned."
	}
	return diag.NewWarningDiagnostic(summary, detail)
}

// renewalWarning says, in the plan, why the link is renewed: the plan itself
// shows only new values known after apply.
func renewalWarning(jobID, reason string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Bundle Link Renewal Planned",
		fmt.Sprintf("%s. The apply generates a new link for the static export job %s, without exporting again; "+
			"the current link keeps working until it expires.", core.Capitalized(reason), jobID))
}

// linkStillWorksWarning tells, on destroy, that the API cannot revoke the
// link in the former state.
func linkStillWorksWarning(jobID, expiresAt string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Bundle Link Still Works Until It Expires",
		fmt.Sprintf("Terraform forgot the static export job %s, but the Mintlify API cannot delete an export or "+
			"revoke its link: the bundle link in the former state keeps working until %s, for anyone who holds "+
			"it. Nothing else needs to be done; pods that still use the link can download the bundle until then.",
			jobID, expiresAt))
}

// unexpectedActionDiagnostic reports a planned action an update cannot do:
// a bug, since the plan that chose it should have replaced the resource.
func unexpectedActionDiagnostic(action core.PlannedAction) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Unexpected Planned Action",
		fmt.Sprintf("The plan asked to update the bundle in place with the action %q, which replaces it. This is "+
			"a bug in the mintlify provider: please report it. Running `terraform apply` again plans afresh.", action))
}
