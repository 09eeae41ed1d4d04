package core

import (
	"context"
	"time"
)

// Call is what an operation starts from, as a Begin helper (BeginCreate,
// BeginRead, BeginResume, BeginUpdate, BeginInvoke) reads it: the model,
// the project it acts in, and its context, bounded by the operation's
// timeout. The caller defers Cancel as soon as it has the call, whether or
// not the helper succeeded.
type Call[M any] struct {
	bounded
	// Plan is the plan of a create or an update, or the configuration of
	// an action's invoke; State is the prior state of an update, or the
	// state of a refresh.
	Plan, State M
	// ProjectID is the project the operation acts in, once settled.
	ProjectID string
}

// bounded is a context bounded by an operation's timeout: Budget names the
// setting and its value, for diagnostics, and Cancel releases the context.
// Without a timeout (a helper that failed, or an update that bounds
// nothing), Ctx is the operation's own context and Cancel does nothing.
type bounded struct {
	Ctx    context.Context
	Budget WaitBudget
	cancel context.CancelFunc
}

// Cancel releases the bounded context.
func (b bounded) Cancel() {
	if b.cancel != nil {
		b.cancel()
	}
}

// bound bounds ctx by timeout on the provider's clock; limit is the
// setting that holds it (`timeouts.create`, `timeout`).
func bound(ctx context.Context, data *ProviderData, limit string, timeout time.Duration) bounded {
	ctx, cancel := data.Client.Clock().WithTimeout(ctx, timeout)
	return bounded{Ctx: ctx, Budget: Budget(limit, timeout), cancel: cancel}
}
