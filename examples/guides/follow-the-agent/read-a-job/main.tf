terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "agent_job_id" {
  description = "The agent job to follow, as returned when the job was created."
  type        = string
}

data "mintlify_agent_job" "docs_update" {
  id                  = var.agent_job_id
  wait_for_completion = true

  timeouts = {
    read = "20m"
  }
}

# Stop the run when the agent failed, instead of passing on a missing link.
resource "terraform_data" "docs_review" {
  input = {
    pull_request = data.mintlify_agent_job.docs_update.pr_link
    branch       = data.mintlify_agent_job.docs_update.source.ref
  }

  lifecycle {
    precondition {
      condition     = data.mintlify_agent_job.docs_update.status != "failed"
      error_message = "The documentation agent job ${var.agent_job_id} failed."
    }
  }
}

# Report, without failing the run, when the agent changed nothing.
check "agent_opened_a_pull_request" {
  assert {
    condition     = data.mintlify_agent_job.docs_update.pr_link != null
    error_message = "The documentation agent finished without opening a pull request: no file changed."
  }
}

output "docs_pull_request" {
  value = data.mintlify_agent_job.docs_update.pr_link
}
