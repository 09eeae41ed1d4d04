terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "deployment_status_id" {
  description = "The status ID of a deployment triggered elsewhere, such as by a CI job."
  type        = string
}

# Wait for a deployment that something else triggered, and stop the apply
# unless it succeeded.
data "mintlify_deployment" "docs" {
  id                  = var.deployment_status_id
  wait_for_completion = true

  timeouts = {
    read = "20m"
  }

  lifecycle {
    postcondition {
      condition     = self.status == "success"
      error_message = "The docs deployment ${self.id} ended ${self.status}: ${coalesce(self.summary, "no summary")}."
    }
  }
}

output "deployed_commit" {
  value = data.mintlify_deployment.docs.commit_sha
}
