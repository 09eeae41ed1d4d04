terraform {
  # Actions need Terraform 1.14 or later; OpenTofu has none.
  required_version = ">= 1.14"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
    helm = {
      source = "hashicorp/helm"
    }
  }
}

variable "app_version" {
  description = "The release of the product to deploy and document."
  type        = string
}

# Every time the release is installed or upgraded, run the documentation agent
# once, and show its progress and pull request in the apply's output.
resource "helm_release" "app" {
  name       = "app"
  repository = "oci://registry.example.com/charts"
  chart      = "app"
  version    = var.app_version

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.mintlify_agent_job.release_docs]
    }
  }
}

action "mintlify_agent_job" "release_docs" {
  config {
    prompt  = "Document the changes of release ${var.app_version} in the changelog and the affected guides."
    timeout = "45m"
  }
}
