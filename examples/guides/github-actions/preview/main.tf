terraform {
  # use_lockfile of the s3 backend needs Terraform 1.10 or later (any OpenTofu).
  required_version = ">= 1.10"
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }

  # One state per pull request: the workflow selects the workspace pr-<number>,
  # stored under env:/pr-<number>/docs/preview.tfstate.
  backend "s3" {
    bucket       = "acme-terraform-state"
    key          = "docs/preview.tfstate"
    region       = "us-east-1"
    use_lockfile = true
  }
}

# MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID come from the workflow's environment.
provider "mintlify" {}

variable "branch" {
  description = "The pull request's head branch: github.head_ref (never github.ref, which is refs/pull/N/merge)."
  type        = string
}

variable "head_sha" {
  description = "The head commit of the pull request: each new commit deploys the preview again."
  type        = string
}

resource "mintlify_preview_deployment" "docs" {
  branch = var.branch

  triggers = {
    commit = var.head_sha
  }

  timeouts = {
    create = "20m"
    update = "20m"
  }
}

output "preview_url" {
  value = mintlify_preview_deployment.docs.preview_url
}
