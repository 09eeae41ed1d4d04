terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "app_version" {
  description = "The release of the product that the docs should follow."
  type        = string
}

# Ask the documentation agent to document each release, once: a new
# app_version starts a new agent job, and the apply waits for its pull request.
resource "mintlify_agent_job" "release_docs" {
  prompt = "Document the changes of release ${var.app_version} in the changelog and the affected guides."

  triggers = {
    release = var.app_version
  }

  timeouts = {
    create = "45m"
  }
}

output "docs_pull_request" {
  value = mintlify_agent_job.release_docs.pr_link
}
