terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "agent_job_id" {
  description = "The documentation agent job to follow, as returned when it was created."
  type        = string
}

# Wait for the documentation agent to finish and expose its pull request.
data "mintlify_agent_job" "release_notes" {
  id                  = var.agent_job_id
  wait_for_completion = true

  timeouts = {
    read = "20m"
  }
}

output "release_notes_pr" {
  value = data.mintlify_agent_job.release_notes.pr_link
}
