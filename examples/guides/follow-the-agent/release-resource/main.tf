terraform {
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

resource "helm_release" "app" {
  name       = "app"
  repository = "oci://registry.example.com/charts"
  chart      = "app"
  version    = var.app_version
}

# One agent job per release, started once the release is deployed. The job is
# kept in state: its pull request is an attribute, and a plan that changes
# nothing starts nothing.
resource "mintlify_agent_job" "release_docs" {
  prompt = "Document the changes of release ${var.app_version} in the changelog and the affected guides."

  triggers = {
    release = var.app_version
  }

  depends_on = [helm_release.app]
}

output "docs_pull_request" {
  value = mintlify_agent_job.release_docs.pr_link
}
