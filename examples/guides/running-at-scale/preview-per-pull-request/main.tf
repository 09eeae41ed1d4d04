terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# One provider block for the organization, its settings from the
# environment (MINTLIFY_API_KEY, MINTLIFY_PROJECT_ID). Every workspace of the
# organization shares Mintlify's limits, whichever key it uses.
provider "mintlify" {}

variable "branch" {
  description = "The pull request's head branch: one workspace per pull request."
  type        = string
}

variable "head_sha" {
  description = "The branch's head commit: each new commit deploys the preview again."
  type        = string
}

# Previews are limited to 5 a minute for the whole organization. When other
# workspaces hold the limit, the provider waits its turn until
# timeouts.create ends: give it room for the turns of the pull requests that
# may be deploying at once (about one minute for every 5 of them), plus the
# deployment itself.
resource "mintlify_preview_deployment" "docs" {
  branch = var.branch

  triggers = {
    commit = var.head_sha
  }

  timeouts = {
    create = "30m"
    update = "30m"
  }
}

output "preview_url" {
  value = mintlify_preview_deployment.docs.preview_url
}
