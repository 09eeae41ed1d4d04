package core

import (
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The names that several resources share: the environment variables the
// provider reads, the paths of attributes that more than one resource has,
// and the advice that more than one schema gives.

// Env names the environment variables read when the matching provider
// argument is not set.
var Env = struct{ APIKey, BaseURL, ProjectID string }{
	APIKey:    "MINTLIFY_API_KEY",
	BaseURL:   "MINTLIFY_BASE_URL",
	ProjectID: "MINTLIFY_PROJECT_ID",
}

var (
	// PathProjectID is `project_id`, of the provider and of every resource
	// that runs in a project.
	PathProjectID = path.Root("project_id")
	// pathWaitForCompletion is `wait_for_completion` of every resource that
	// waits for its job (PlanImportUnchanged).
	pathWaitForCompletion = path.Root("wait_for_completion")
)

// ProjectIDValidators check the optional `project_id` of every resource,
// data source and action that acts in one project.
var ProjectIDValidators = projectIDValidators("Set it to the project ID from the API keys page of the " +
	"Mintlify dashboard, or remove it to use the provider's `project_id`.")
