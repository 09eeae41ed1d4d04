# A module that publishes one release of the docs: it deploys the docs
# commit, exports exactly what was deployed for the self-hosted Enterprise
# chart, deploys a preview of a branch when asked, and reads the pull
# request of the documentation agent's job when given one. Its callers pass
# `chart_values` to the `values` of their `helm_release`, and `bundle_url` to
# its `set_sensitive` as `staticExport.bundleUrl`.
#
# tests/docs_release.tftest.hcl tests it without credentials or network,
# with `mock_provider "mintlify"`.

terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "domain" {
  description = "The bare hostname of the docs deployment to export."
  type        = string
}

variable "docs_commit" {
  description = "The commit of the docs repository to publish; a new commit means a new deployment, then a new export."
  type        = string
}

variable "preview_branch" {
  description = "A branch to deploy a preview of, such as the next release's branch; null for none."
  type        = string
  default     = null
}

variable "agent_job_id" {
  description = "The documentation agent's job for this release, whose pull request to output; null for none."
  type        = string
  default     = null
}

resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

resource "mintlify_static_export_bundle" "docs" {
  domain  = var.domain
  version = mintlify_deployment.docs.commit_sha

  triggers = {
    deployment = mintlify_deployment.docs.id
  }
}

resource "mintlify_preview_deployment" "branch" {
  count  = var.preview_branch == null ? 0 : 1
  branch = var.preview_branch
}

data "mintlify_agent_job" "release" {
  count = var.agent_job_id == null ? 0 : 1
  id    = var.agent_job_id
}

output "deployment_id" {
  description = "The deployment's status ID."
  value       = mintlify_deployment.docs.id
}

output "deployed_commit" {
  value = mintlify_deployment.docs.commit_sha
}

output "export_job_id" {
  value = mintlify_static_export_bundle.docs.job_id
}

output "chart_values" {
  description = "The Mintlify Enterprise chart's values but the link: pass them to helm_release.values, and bundle_url to set_sensitive."
  value = yamlencode({
    staticExport = {
      enabled = true
      version = mintlify_static_export_bundle.docs.version
    }
  })
}

output "helm_values" {
  description = "The chart's values with the link. A plan that upgrades a helm_release given them in values shows the link: prefer chart_values and set_sensitive."
  value       = mintlify_static_export_bundle.docs.helm_values
  sensitive   = true
}

output "bundle_url" {
  value     = mintlify_static_export_bundle.docs.bundle_url
  sensitive = true
}

output "expires_at" {
  value = mintlify_static_export_bundle.docs.expires_at
}

output "preview_url" {
  value = one(mintlify_preview_deployment.branch[*].preview_url)
}

output "release_pull_request" {
  value = one(data.mintlify_agent_job.release[*].pr_link)
}
