package staticexport

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// A job imported by its id alone (`JOB_ID`) is a domain-scoped export whose
// `domain`, `version` and `paths` the API never returns: its state has
// `domain` and `project_id` both null, and so has the configuration that
// `terraform plan -generate-config-out` writes for it. Such a bundle keeps
// its contract: the link is renewed through the job, which needs no domain,
// and the plan never reads the missing `domain` as a move to the
// project-scoped contract. Only a new export needs the domain, and a plan
// that would start one without it is refused, naming `domain`.
//
// Right after an import, the configuration describes the job it adopts: a
// configuration of the other contract is refused at plan, naming the
// argument to add, instead of adopting the job under a contract that does
// not know it (which the apply would report as a job gone).

// The refresh that follows an import adopts a completed job at once: it
// takes the job's link (a POST for a domain-scoped job, the job's status for
// a project-scoped one) and the default `store_link`, so that the
// configuration `terraform plan -generate-config-out` writes for the job
// plans no change. Where the link cannot be had there (a read-only key, a
// job still running), the apply adopts the job, and the plan shows its
// link as known after apply.

// adoptAtImport gives the job just imported in m, read by the refresh as
// read, its link and the default `store_link`, when the job completed; it
// changes nothing when the link cannot be had.
func (r *staticExportBundleResource) adoptAtImport(ctx context.Context, m *staticExportBundleModel, read startedJob, priv *core.PrivateState[bundleFacts], budget core.WaitBudget) {
	if m.Status.ValueString() != mintlify.StatusCompleted {
		return
	}
	adopted := *m
	if diags := r.completeExport(ctx, &adopted, read, 0, priv, bundleWait{budget: budget}); diags.HasError() {
		tflog.Info(ctx, "The import's refresh got no link for the job; the apply adopts it", map[string]any{
			LogFieldJobID: m.JobID.ValueString(), "reason": diags[0].Summary()})
		return
	}
	adopted.StoreLink = types.BoolValue(true)
	*m = adopted
	priv.Facts.AdoptedAtImport = true
}

// privateState is the framework's private state of a plan modifier's
// request, which justImported reads.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// justImported reports a plan of an imported job that no apply has changed
// yet: the state has no `store_link` (the apply adopts the job), or the
// import's refresh adopted the job with its link. Either way the
// configuration describes the job it adopts: `triggers` and `base_path`
// replace nothing yet.
func justImported(ctx context.Context, storeLink types.Bool, private privateState) bool {
	if storeLink.IsNull() {
		return true
	}
	if private == nil {
		return false
	}
	var priv core.PrivateState[bundleFacts]
	if priv.Read(ctx, private).HasError() {
		return false
	}
	return priv.Facts.AdoptedAtImport
}

// domainUntold reports a model of a domain-scoped job whose domain the API
// never told: imported by `JOB_ID`, so neither `domain` nor `project_id`.
func (m *staticExportBundleModel) domainUntold() bool {
	return known(m.JobID) && m.Domain.IsNull() && m.ProjectID.IsNull()
}

// followsUntoldDomain reports a plan that keeps the domain-scoped contract
// of a job in state whose domain is untold: the configuration names no
// contract (no `domain`, `project_id` or `base_path`).
func followsUntoldDomain(state, plan *staticExportBundleModel, configuredProject types.String) bool {
	return state != nil && state.domainUntold() && plan.Domain.IsNull() && configuredProject.IsNull() &&
		plan.BasePath.IsNull()
}

// refuseOtherContract refuses, on the first plan after an import, a
// configuration whose contract is not the imported job's.
func refuseOtherContract(state, plan *staticExportBundleModel, configuredProject types.String, resp *resource.ModifyPlanResponse) {
	jobID := state.JobID.ValueString()
	if state.ProjectID.IsNull() { // imported by `JOB_ID`: domain-scoped
		for _, a := range []struct {
			name  string
			value types.String
		}{{"project_id", configuredProject}, {"base_path", plan.BasePath}} {
			if a.value.IsNull() || !plan.Domain.IsNull() {
				continue
			}
			resp.Diagnostics.AddAttributeError(path.Root(a.name), "Imported Job Is Domain-Scoped",
				fmt.Sprintf("The static export job %s was imported by its id alone, so it is a job of today's "+
					"domain-scoped contract, but `%s` selects the project-scoped one, which does not know the job. "+
					"Add `domain` with the hostname the job exported and remove `%[2]s`, or remove `%[2]s` alone to "+
					"keep the job as imported. If the job is project-scoped, import it as `PROJECT_ID/%[1]s` instead.",
					jobID, a.name))
		}
		return
	}
	projectID := state.ProjectID.ValueString()
	if known(plan.Domain) {
		resp.Diagnostics.AddAttributeError(pathDomain, "Imported Job Is Project-Scoped",
			fmt.Sprintf("The static export job %s was imported as a job of project %q, of the project-scoped "+
				"contract, but `domain` selects today's domain-scoped one, which does not know the job. Remove "+
				"`domain`, `version` and `paths`, and add `project_id = %q` unless it is the provider's.",
				jobID, projectID, projectID))
		return
	}
	if known(plan.ProjectID) && plan.ProjectID.ValueString() != projectID {
		resp.Diagnostics.AddAttributeError(pathProjectID, "Imported Job Of Another Project",
			fmt.Sprintf("The static export job %s was imported as a job of project %q, but this configuration "+
				"exports project %q. Add `project_id = %q` to adopt the imported job.",
				jobID, projectID, plan.ProjectID.ValueString(), projectID))
	}
}

// refuseExportWithoutDomain refuses a plan that replaces a job whose domain
// is untold while the configuration still names no contract: the new
// export would need the domain. The replacement is this plan's (a job gone
// or failed) or that of `triggers`, whose plan modifier the framework does
// not report to ModifyPlan.
func refuseExportWithoutDomain(state, plan *staticExportBundleModel, imported bool, resp *resource.ModifyPlanResponse) {
	replaces := len(resp.RequiresReplace) > 0 || !imported && !plan.Triggers.Equal(state.Triggers)
	if !replaces || !plan.Domain.IsNull() || !plan.ProjectID.IsNull() {
		return
	}
	resp.Diagnostics.AddAttributeError(pathDomain, "Missing Static Export Domain",
		fmt.Sprintf("This plan starts a new export in place of the imported job %s, a domain-scoped job whose "+
			"domain the API does not return. Add `domain` with the hostname of the deployment to export, or "+
			"%s.", state.JobID.ValueString(), moveToProject))
}

// ImportState adopts an existing export job by its id, `JOB_ID` for
// today's contract or `PROJECT_ID/JOB_ID` for a project-scoped job, or by
// the identity's `job_id` and `project_id`. The API does not return
// `domain`, `version`, `paths` or `base_path`: the first plan after the
// import takes them from configuration. The refresh that follows takes the
// link of a completed job (adoptAtImport); the apply takes it otherwise.
func (r *staticExportBundleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	projectID, jobID, ok := importTarget(req.ID)
	if req.ID == "" && req.Identity != nil {
		var identity staticExportBundleIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		projectID, jobID = identity.ProjectID.ValueString(), identity.JobID.ValueString()
		ok = jobID != ""
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !ok {
		resp.Diagnostics.AddError("Missing Job ID",
			"Import a static export bundle by the id of its export job, for example "+
				"`terraform import mintlify_static_export_bundle.docs se_3f9a2c1b8e7d4a06`, and a project-scoped "+
				"export by its project and job, `PROJECT_ID/JOB_ID`, for example "+
				"`terraform import mintlify_static_export_bundle.docs my-project/6520f3a1c9b1a20012ab34cd`.")
		return
	}
	m := staticExportBundleModel{JobID: types.StringValue(jobID), ProjectID: types.StringNull()}
	if projectID != "" {
		m.ProjectID = types.StringValue(projectID)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), jobID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("job_id"), jobID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathProjectID, m.ProjectID)...)
	resp.Diagnostics.Append(setBundleIdentity(ctx, resp.Identity, &m)...)
	importing := core.PrivateState[bundleFacts]{Facts: bundleFacts{Importing: true}}
	resp.Diagnostics.Append(importing.Write(ctx, resp.Private)...)
}
