package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// What every wait for a tracked job (an agent job, a deployment, a preview)
// has in common: each family polls its job through the client, telling
// JobWait.Heard of each change; a JobKind says how to name a kind of job;
// each caller says, in a JobWait, what bounds its wait and what the person
// at the terminal should do next when it ends early; and JobWait.Ended
// explains an early end, or a failed job, in the same words for every kind.

// JobKind is what a wait knows of a kind of job of type T.
type JobKind[T any] struct {
	// Status is the job's status; Failure is the status of a failed job.
	Status  func(job *T) string
	Failure string
	// Read is the operation that reads the job.
	Read func(projectID, jobID string) APIOperation
	// Describe names the job that op reads, for the diagnostic of a wait
	// that ended early.
	Describe func(op APIOperation) WaitedJob
	// Failed reports a job that failed; next says what to do about it.
	Failed func(projectID string, job *T, next string) diag.Diagnostic
}

// Heard is what hears of each change of the job during the wait:
// w.OnChange, or log (the family's INFO log of each change) when the
// caller hears of none itself.
func (w JobWait[T]) Heard(log func(T)) func(T) {
	if w.OnChange != nil {
		return w.OnChange
	}
	return log
}

// Ended explains how a wait for a job of kind ended, from what the poll
// returned (job as last seen, nil if never read, and its error): nothing
// for a job that ended, an error diagnostic for a wait that ended before
// the job did, or for a job that failed when w says what to do about one.
func (w JobWait[T]) Ended(kind JobKind[T], projectID, jobID string, job *T, err error) diag.Diagnostics {
	if mintlify.IsJobFailed(err) {
		err = nil // the job's status says it
	}
	switch {
	case err != nil:
		status := ""
		if job != nil {
			status = kind.Status(job)
		}
		op := kind.Read(projectID, jobID).At(w.Attr)
		return diag.Diagnostics{w.EndedEarly(err, op, kind.Describe(op), status)}
	case kind.Status(job) == kind.Failure && w.Failed != "":
		return diag.Diagnostics{kind.Failed(projectID, job, w.Failed)}
	}
	return nil
}

// JobWait is one caller's wait for a job of type T: what bounds it, where a
// diagnostic about the job points, and what to do next in each way the wait
// can end other than with the job done.
type JobWait[T any] struct {
	Budget WaitBudget
	// Attr is the attribute that names the job, which a diagnostic about
	// the job (404) points at; empty for none.
	Attr path.Path
	// Resume is what to do when the wait ends before the job does: a
	// timeout or an interruption.
	Resume string
	// Longer follows Resume after a timeout only, never after an
	// interruption: "If the agent usually takes this long, raise ...".
	Longer string
	// Retry is what to do after a status request failed, beside the
	// request's own advice; empty for none.
	Retry string
	// Unknown is what to do about a job in a status nobody knows.
	Unknown string
	// Failed is what to do about a job that failed; empty when a failed
	// job is read like any other, without a diagnostic.
	Failed string
	// OnChange hears of each change of the job; nil logs it at INFO.
	OnChange func(T)
}

// WaitedJob names the job of a wait in its diagnostics.
type WaitedJob struct {
	// Name follows "The Mintlify ": "agent job aj_1 in project docs".
	Name string
	// StillRunning and interrupted are the summaries of a wait that ran
	// out of time, and of one Terraform interrupted.
	StillRunning, Interrupted string
	// GoesOn says that the job goes on without Terraform.
	GoesOn string
}

// EndedEarly explains why waiting for a job ended before the job did: the
// timeout, an interruption, or a request that failed. op reads the job;
// status is the job's status as last seen, "" if it was never read.
func (w JobWait[T]) EndedEarly(err error, op APIOperation, job WaitedJob, status string) diag.Diagnostic {
	seen := "before its status was read"
	if status != "" {
		seen = fmt.Sprintf("`%s`", status)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) && !mintlify.IsRetryDeadline(err):
		return w.Budget.Pointed(diag.NewErrorDiagnostic(job.StillRunning, fmt.Sprintf("The Mintlify %s did not "+
			"finish within %s; it was %s. %s\n\n%s", job.Name, w.Budget, seen, job.GoesOn,
			strings.TrimSpace(w.Resume+" "+w.Longer))))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic(job.Interrupted, fmt.Sprintf("Terraform was interrupted while waiting for "+
			"the Mintlify %s; it was %s. %s\n\n%s", job.Name, seen, job.GoesOn, w.Resume))
	}
	d := op.Within(w.Budget).Diagnostic(err)
	next := w.Retry
	if unknown := (*mintlify.UnknownStatusError)(nil); errors.As(err, &unknown) {
		next = w.Unknown
	}
	if next == "" {
		return d
	}
	withNext := diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\n"+next)
	if pointed, ok := d.(diag.DiagnosticWithPath); ok {
		return diag.WithPath(pointed.Path(), withNext)
	}
	return withNext
}
