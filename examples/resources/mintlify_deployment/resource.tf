terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "docs_commit" {
  description = "The commit of the docs repository that should go live, such as the CI job's commit SHA."
  type        = string
}

# Deploy the docs site once per docs commit, and wait for it: a failed
# deployment fails the apply and shows the deployment's last log lines.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }

  timeouts = {
    create = "20m"
  }
}

output "deployed_commit" {
  value = mintlify_deployment.docs.commit_sha
}
