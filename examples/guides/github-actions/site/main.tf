terraform {
  # use_lockfile of the s3 backend needs Terraform 1.10 or later (any OpenTofu).
  required_version = ">= 1.10"
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }

  # The state outlives the runner, and the lock file keeps two runs from
  # writing it at once.
  backend "s3" {
    bucket       = "acme-terraform-state"
    key          = "docs/site.tfstate"
    region       = "us-east-1"
    use_lockfile = true
  }
}

# MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID come from the workflow's environment.
provider "mintlify" {}

variable "docs_commit" {
  description = "The commit pushed to the default branch: github.sha."
  type        = string
}

# Deploy the docs site once per commit of the default branch.
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
