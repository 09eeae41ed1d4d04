package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// What every wait for a job (an agent job, a deployment) has in common:
// each caller says, in a jobWait, what bounds its wait and what the person
// at the terminal should do next when it ends early, and every wait
// explains an early end in the same words.

// jobWait is one caller's wait for a job of type T: what bounds it, where a
// diagnostic about the job points, and what to do next in each way the wait
// can end other than with the job done.
type jobWait[T any] struct {
	budget waitBudget
	// attr is the attribute that names the job, which a diagnostic about
	// the job (404) points at; empty for none.
	attr path.Path
	// resume is what to do when the wait ends before the job does: a
	// timeout or an interruption.
	resume string
	// retry is what to do after a status request failed, beside the
	// request's own advice; empty for none.
	retry string
	// unknown is what to do about a job in a status nobody knows.
	unknown string
	// failed is what to do about a job that failed; empty when a failed
	// job is read like any other, without a diagnostic.
	failed string
	// onChange hears of each change of the job; nil logs it at INFO.
	onChange func(T)
}

// waitedJob names the job of a wait in its diagnostics.
type waitedJob struct {
	// name follows "The Mintlify ": "agent job aj_1 in project docs".
	name string
	// stillRunning and interrupted are the summaries of a wait that ran
	// out of time, and of one Terraform interrupted.
	stillRunning, interrupted string
	// goesOn says that the job goes on without Terraform.
	goesOn string
}

// endedEarly explains why waiting for a job ended before the job did: the
// timeout, an interruption, or a request that failed. op reads the job;
// status is the job's status as last seen, "" if it was never read.
func (w jobWait[T]) endedEarly(err error, op apiOperation, job waitedJob, status string) diag.Diagnostic {
	seen := "before its status was read"
	if status != "" {
		seen = fmt.Sprintf("`%s`", status)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) && !isRetryDeadline(err):
		return diag.NewErrorDiagnostic(job.stillRunning, fmt.Sprintf("The Mintlify %s did not finish within %s; "+
			"it was %s. %s\n\n%s", job.name, w.budget, seen, job.goesOn, w.resume))
	case errors.Is(err, context.Canceled):
		return diag.NewErrorDiagnostic(job.interrupted, fmt.Sprintf("Terraform was interrupted while waiting for "+
			"the Mintlify %s; it was %s. %s\n\n%s", job.name, seen, job.goesOn, w.resume))
	}
	d := op.within(w.budget).diagnostic(err)
	next := w.retry
	if unknown := (*mintlify.UnknownStatusError)(nil); errors.As(err, &unknown) {
		next = w.unknown
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
