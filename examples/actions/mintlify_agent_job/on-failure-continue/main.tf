terraform {
  # `on_failure` in an action_trigger needs Terraform 1.16 or later.
  required_version = ">= 1.16"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "app_version" {
  description = "The release of the product to document."
  type        = string
}

# Run the documentation agent after each new release, without letting it
# stop the apply: with `on_failure = continue`, a failed agent job, or one
# still running when `timeout` ends, is reported as a warning, the release is
# kept in state and not tainted, and the apply carries on.
resource "terraform_data" "release" {
  input = var.app_version

  lifecycle {
    action_trigger {
      events     = [after_create, after_update]
      actions    = [action.mintlify_agent_job.release_docs]
      on_failure = continue
    }
  }
}

action "mintlify_agent_job" "release_docs" {
  config {
    prompt  = "Document the changes of release ${var.app_version} in the changelog."
    timeout = "45m"
  }
}
