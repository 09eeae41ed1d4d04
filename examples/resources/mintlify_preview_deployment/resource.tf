terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "branch" {
  # In GitHub Actions, on a pull request: TF_VAR_branch: ${{ github.head_ref }}
  # (github.ref is refs/pull/N/merge there, which is refused at plan).
  description = "The branch of the docs repository to preview: the pull request's head branch."
  type        = string
}

variable "head_sha" {
  description = "The branch's head commit: each new commit deploys the preview again."
  type        = string
}

# Deploy a preview of the branch and wait until it is up. A new head commit
# redeploys the same preview, at the same address; a new branch replaces it.
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
