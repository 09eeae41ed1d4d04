package providertest

import (
	"fmt"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// The HCL the tests apply, built by small functions (values with %q), each
// block named as its address constant says. A configuration is the provider
// block (env.Config, from Env) followed by the blocks under test, as
// a user writes it.

// The provider block, pointed at the test's fake API.

// ConfigWithProvider prepends a provider block pointed at the fake, with
// the default key, no project and the given extra arguments (HCL lines).
func ConfigWithProvider(env *Env, args, body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key  = %[1]q
  base_url = %[2]q
  %[3]s
}
%[4]s`, fakeapi.DefaultAPIKey, env.URL, args, body)
}

// NoRetries prepends a provider block pointed at the fake with retries
// disabled, so that a wait handles a 429 itself.
func NoRetries(env *Env, body string) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key     = %[1]q
  base_url    = %[2]q
  project_id  = %[3]q
  max_retries = 0
}
%[4]s`, fakeapi.DefaultAPIKey, env.URL, ProjectID, body)
}

// UnknownKeyProvider configures the provider with a key that another
// resource produces, so it is unknown until that resource is applied.
func UnknownKeyProvider(env *Env) string {
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

// SlowRequests lets one request run past the default read timeout, so that
// only the operation's deadline stops it.
const SlowRequests = `request_timeout = "10m"`

// mintlify_static_export_bundle, the static export job data source and the
// ephemeral link.

const BundleAddr = "mintlify_static_export_bundle.docs"

// BundleConfig is a bundle resource named "docs" with extra arguments.
func BundleConfig(domain, extra string) string {
	return fmt.Sprintf(`
resource "mintlify_static_export_bundle" "docs" {
  domain = %[1]q
  %[2]s
}
`, domain, extra)
}

// StoreLinkConfig is the bundle with `store_link` set, and a stand-in for a
// release that would take `link_revision` as `set_wo_revision`.
func StoreLinkConfig(env *Env, store bool) string {
	return env.Config(BundleConfig("docs.example.com", fmt.Sprintf("store_link = %t", store)) + `
resource "terraform_data" "release" {
  input = mintlify_static_export_bundle.docs.link_revision
}
`)
}

const EphemeralConfig = `
ephemeral "mintlify_static_export_bundle" "link" {
  job_id = mintlify_static_export_bundle.docs.job_id
}
`

const JobAddr = "data.mintlify_static_export_job.this"

// mintlify_static_export_archive.

const ArchiveAddr = "mintlify_static_export_archive.docs"

// ArchiveConfig is an archive resource named "docs" for the job jobID (an
// expression) at outputPath.
func ArchiveConfig(jobID, outputPath string) string {
	return fmt.Sprintf(`
resource "mintlify_static_export_archive" "docs" {
  job_id      = %[1]s
  output_path = %[2]q
}
`, jobID, outputPath)
}

// ArchiveWith is ArchiveConfig with extra arguments (HCL lines).
func ArchiveWith(jobID, outputPath, extra string) string {
	return strings.Replace(ArchiveConfig(jobID, outputPath), "\n}\n", "\n"+extra+"\n}\n", 1)
}

const PinAddr = "terraform_data.pin"

// PinConfig is a resource that Terraform replaces whenever the archive's
// sha256 changes, as a helm_release pinned to the hash would be updated.
const PinConfig = `
resource "terraform_data" "pin" {
  triggers_replace = mintlify_static_export_archive.docs.sha256
}
`

// mintlify_agent_job: the resource, the data source and the action.

const AgentJobAddr = "mintlify_agent_job.docs"

// AgentJobResourceConfig is an agent job resource named "docs" with extra
// arguments.
func AgentJobResourceConfig(prompt, extra string) string {
	return fmt.Sprintf(`
resource "mintlify_agent_job" "docs" {
  prompt = %[1]q
  %[2]s
}
`, prompt, extra)
}

const AgentAddr = "data.mintlify_agent_job.this"

// AgentJobConfig is the agent job data source named "this" for the job id,
// with extra arguments.
func AgentJobConfig(id, extra string) string {
	return fmt.Sprintf(`
data "mintlify_agent_job" "this" {
  id = %[1]q
  %[2]s
}
`, id, extra)
}

// AgentAction is an action "mintlify_agent_job" named name with config
// arguments.
func AgentAction(name, args string) string {
	return fmt.Sprintf(`
action "mintlify_agent_job" %[1]q {
  config {
    %[2]s
  }
}
`, name, args)
}

// TriggeredAction is a terraform_data for release that runs the agent
// action with args when it is created or its release changes.
func TriggeredAction(release, args string) string {
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
`, release) + AgentAction("docs", args)
}
