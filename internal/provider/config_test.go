package provider

import (
	"fmt"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// The HCL the tests apply, built by small functions (values with %q), each
// block named as its address constant says. A configuration is the provider
// block (env.Config, from acctest.Env) followed by the blocks under test, as
// a user writes it.

// The provider block, pointed at the test's fake API.

// configWithProvider prepends a provider block pointed at the fake, with
// the default key, no project and the given extra arguments (HCL lines).
func configWithProvider(env *acctest.Env, args, body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key  = %[1]q
  base_url = %[2]q
  %[3]s
}
%[4]s`, fakeapi.DefaultAPIKey, env.URL, args, body)
}

// noRetries prepends a provider block pointed at the fake with retries
// disabled, so that a wait handles a 429 itself.
func noRetries(env *acctest.Env, body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key     = %[1]q
  base_url    = %[2]q
  project_id  = %[3]q
  max_retries = 0
}
%[4]s`, fakeapi.DefaultAPIKey, env.URL, acctest.ProjectID, body)
}

// unknownKeyProvider configures the provider with a key that another
// resource produces, so it is unknown until that resource is applied.
func unknownKeyProvider(env *acctest.Env) string {
	return fmt.Sprintf(`
resource "terraform_data" "key" {
  input = %[1]q
}

provider "mintlify" {
  api_key  = terraform_data.key.output
  base_url = %[2]q
}
`, fakeapi.DefaultAPIKey, env.URL)
}

// slowRequests lets one request run past the default read timeout, so that
// only the operation's deadline stops it.
const slowRequests = `request_timeout = "10m"`

// mintlify_static_export_bundle, the static export job data source and the
// ephemeral link.

const bundleAddr = "mintlify_static_export_bundle.docs"

// bundleConfig is a bundle resource named "docs" with extra arguments.
func bundleConfig(domain, extra string) string {
	return fmt.Sprintf(`
resource "mintlify_static_export_bundle" "docs" {
  domain = %[1]q
  %[2]s
}
`, domain, extra)
}

// storeLinkConfig is the bundle with `store_link` set, and a stand-in for a
// release that would take `link_revision` as `set_wo_revision`.
func storeLinkConfig(env *acctest.Env, store bool) string {
	return env.Config(bundleConfig("docs.example.com", fmt.Sprintf("store_link = %t", store)) + `
resource "terraform_data" "release" {
  input = mintlify_static_export_bundle.docs.link_revision
}
`)
}

const ephemeralConfig = `
ephemeral "mintlify_static_export_bundle" "link" {
  job_id = mintlify_static_export_bundle.docs.job_id
}
`

const jobAddr = "data.mintlify_static_export_job.this"

// mintlify_static_export_archive.

const archiveAddr = "mintlify_static_export_archive.docs"

// archiveConfig is an archive resource named "docs" for the job jobID (an
// expression) at outputPath.
func archiveConfig(jobID, outputPath string) string {
	return fmt.Sprintf(`
resource "mintlify_static_export_archive" "docs" {
  job_id      = %[1]s
  output_path = %[2]q
}
`, jobID, outputPath)
}

// archiveWith is archiveConfig with extra arguments (HCL lines).
func archiveWith(jobID, outputPath, extra string) string {
	return strings.Replace(archiveConfig(jobID, outputPath), "\n}\n", "\n"+extra+"\n}\n", 1)
}

const pinAddr = "terraform_data.pin"

// pinConfig is a resource that Terraform replaces whenever the archive's
// sha256 changes, as a helm_release pinned to the hash would be updated.
const pinConfig = `
resource "terraform_data" "pin" {
  triggers_replace = mintlify_static_export_archive.docs.sha256
}
`

// mintlify_agent_job: the resource, the data source and the action.

const agentJobAddr = "mintlify_agent_job.docs"

// agentJobResourceConfig is an agent job resource named "docs" with extra
// arguments.
func agentJobResourceConfig(prompt, extra string) string {
	return fmt.Sprintf(`
resource "mintlify_agent_job" "docs" {
  prompt = %[1]q
  %[2]s
}
`, prompt, extra)
}

const agentAddr = "data.mintlify_agent_job.this"

// agentJobConfig is the agent job data source named "this" for the job id,
// with extra arguments.
func agentJobConfig(id, extra string) string {
	return fmt.Sprintf(`
data "mintlify_agent_job" "this" {
  id = %[1]q
  %[2]s
}
`, id, extra)
}

// agentAction is an action "mintlify_agent_job" named name with config
// arguments.
func agentAction(name, args string) string {
	return fmt.Sprintf(`
action "mintlify_agent_job" %[1]q {
  config {
    %[2]s
  }
}
`, name, args)
}

// triggeredAction is a terraform_data for release that runs the agent
// action with args when it is created or its release changes.
func triggeredAction(release, args string) string {
	return fmt.Sprintf(`
resource "terraform_data" "release" {
  input = %q

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.mintlify_agent_job.docs]
    }
  }
}
`, release) + agentAction("docs", args)
}
