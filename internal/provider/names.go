package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// The names that several resources share: the environment variables the
// provider reads, the paths of attributes that more than one resource has,
// and the advice that more than one schema gives.

// Environment variables read when the matching provider argument is not set.
const (
	envAPIKey    = "MINTLIFY_API_KEY"
	envBaseURL   = "MINTLIFY_BASE_URL"
	envProjectID = "MINTLIFY_PROJECT_ID"
)

var (
	// pathProjectID is `project_id`, of the provider and of every resource
	// that runs in a project.
	pathProjectID = path.Root("project_id")
	// pathPrompt is the agent job's `prompt`, which replaceUnlessImported
	// reads as its marker of a fresh import.
	pathPrompt = path.Root("prompt")
	// pathWaitForCompletion is `wait_for_completion` of every resource that
	// waits for its job (planResume).
	pathWaitForCompletion = path.Root("wait_for_completion")
)

// projectIDValidators check the optional `project_id` of every resource,
// data source and action that acts in one project.
var projectIDValidators = []validator.String{notBlank("Set it to the project ID from the API keys page of the " +
	"Mintlify dashboard, or remove it to use the provider's `project_id`.")}

// jobIDFix is what to do about a `job_id` that names no static export job,
// for the archive and the ephemeral bundle alike.
const jobIDFix = "Set it to the ID of a completed static export job, usually " +
	"`mintlify_static_export_bundle.<name>.job_id`."
