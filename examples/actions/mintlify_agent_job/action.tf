terraform {
  # Actions need Terraform 1.14 or later; OpenTofu has none.
  required_version = ">= 1.14"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Run the documentation agent on demand:
#   terraform apply -invoke=action.mintlify_agent_job.docs
# The apply prints the job's progress and its pull request link.
action "mintlify_agent_job" "docs" {
  config {
    prompt  = "Document the --dry-run flag that the CLI gained in release 2.3."
    timeout = "45m"
  }
}

# Or send a follow-up to a job the agent already worked on: it goes on in the
# same branch and pull request.
action "mintlify_agent_job" "docs_follow_up" {
  config {
    prompt = "Also add an example with --dry-run to the quickstart."
    job_id = "aj_3f9a2c1b8e7d4a06"
  }
}
