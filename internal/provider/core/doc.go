// Package core is what the provider's families share, and imports none of
// them. It exports only what two families or more use (TestCoreSurface
// checks it); a name that one family uses lives in that family. Its parts,
// in the order a reader of a family meets them:
//
//   - The provider and its data (provider.go): Provider, its schema and
//     Configure, which hands every type a ProviderData (the client, the
//     provider's project, state a family keeps for one apply:
//     FamilyState); Family, what each family registers; Env, the
//     environment variables; ConfiguredResource, ConfiguredDataSource and
//     ProjectAction, embedded to receive the ProviderData.
//   - How an operation begins (call.go, project_plan.go, project_action.go,
//     operations.go): BeginCreate, BeginRead, BeginResume, BeginUpdate,
//     BeginInvoke and BeginDataRead each return one Call (the plan or state,
//     the project, the context bounded by the operation's timeout and the
//     WaitBudget that names it; defer Cancel) and ok. ConfiguredModel reads
//     a configuration.
//   - The plan->apply contract and private state (plan_contract.go,
//     plan_import.go, plan_modifiers.go, project_plan.go): PrivateState, the
//     one versioned private state of every resource; PlannedAction, decided
//     by the plan and taken by the apply (ActionResume, PlanResume with its
//     Resume); PlanProjectID, PlanImportUnchanged, ReplaceUnlessImported,
//     KeepString.
//   - Tracked jobs and their waits (tracked_job.go, waits.go, handoffs.go):
//     TrackedJob, JobIdentitySchema, JobKind and JobWait (the wait and what
//     to say when it ends early), WaitedJob, KeepsRunning, and Handoffs, the
//     jobs a destroyed resource leaves to its replacement.
//   - Timeouts and validators (timeouts.go, validators*.go, names.go):
//     Timeouts (the `timeouts` attribute of each schema kind), Durations,
//     DefaultReadTimeout, FormatDuration, StringCheck, ProblemCheck,
//     NotBlank, PathSegmentID, PathProjectID and ProjectIDValidators.
//   - The diagnostics vocabulary (diagnostics.go, diagnostic_calls.go,
//     diagnostic_refusals.go, untrusted_diagnostics.go, advice.go): each
//     API call declared once (APICall with its CallText, CallOfProject),
//     made into an APIOperation whose Diagnostic reads the error's one
//     classification (mintlify.Classify); Refusals and RefusalCause
//     (WriteRefused, NotOnPlan) for 401 and 403; WaitBudget and Budget for
//     timeouts; APIMessage, UndocumentedStatus, NotConfiguredDiagnostic,
//     Capitalized and BacktickList for the words.
//   - Actions (project_action.go): WithProgress, what an Invoke reports as it
//     works.
//   - Logging (logging.go): the client's log through tflog, secrets masked.
package core
