package core

import (
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The names that several resources share: the environment variables the
// provider reads, the paths of attributes that more than one resource has,
// and the advice that more than one schema gives.

// Environment variables read when the matching provider argument is not set.
const (
	EnvAPIKey    = "MINTLIFY_API_KEY"
	EnvBaseURL   = "MINTLIFY_BASE_URL"
	EnvProjectID = "MINTLIFY_PROJECT_ID"
)

var (
	// PathProjectID is `project_id`, of the provider and of every resource
	// that runs in a project.
	PathProjectID = path.Root("project_id")
	// PathWaitForCompletion is `wait_for_completion` of every resource that
	// waits for its job (planResume).
	PathWaitForCompletion = path.Root("wait_for_completion")
)

// ProjectIDValidators check the optional `project_id` of every resource,
// data source and action that acts in one project.
var ProjectIDValidators = projectIDValidators("Set it to the project ID from the API keys page of the " +
	"Mintlify dashboard, or remove it to use the provider's `project_id`.")
