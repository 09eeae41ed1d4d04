# Quickstart: deploy the docs commit, export exactly what was deployed, feed
# the bundle link into the Helm release of the self-hosted Mintlify chart, and
# read what the documentation agent did.
#
# Credentials come from the environment: MINTLIFY_API_KEY (an admin key) and
# MINTLIFY_PROJECT_ID. In a checkout of the provider's repository, `make demo`
# runs it against a local stand-in of the Mintlify API.

terraform {
  required_version = ">= 1.5"
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

provider "mintlify" {}

variable "domain" {
  description = "The bare hostname of the docs deployment to export."
  type        = string
  default     = "docs.example.com"
}

variable "docs_commit" {
  description = "The docs commit to publish; a new commit means a new deployment, then a new export."
  type        = string
  default     = "4f1c2e9"
}

variable "agent_job_id" {
  description = "Optional: an agent job of the project, from the Mintlify dashboard or the API, to read what the documentation agent did."
  type        = string
  default     = null
}

# Deploy the docs and wait for Mintlify to report success: a failed
# deployment stops the apply here, with its last log lines.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

# Export what was deployed: the export starts once the deployment succeeded,
# and is tagged with the deployed commit.
resource "mintlify_static_export_bundle" "docs" {
  domain  = var.domain
  version = mintlify_deployment.docs.commit_sha

  triggers = {
    deployment = mintlify_deployment.docs.id
  }
}

# Stands in for a helm_release of the Mintlify Enterprise chart, which takes
# the link through set_sensitive, so that no plan shows it, and the rest
# through values:
#
#   resource "helm_release" "mintlify" {
#     name   = "mintlify"
#     chart  = "mintlify"
#     values = [local.chart_values]
#     set_sensitive = [
#       {
#         name  = "staticExport.bundleUrl"
#         value = mintlify_static_export_bundle.docs.bundle_url
#         type  = "string"
#       }
#     ]
#   }
locals {
  chart_values = yamlencode({
    staticExport = {
      enabled = true
      version = mintlify_static_export_bundle.docs.version
    }
  })
}

resource "terraform_data" "helm_release" {
  input = {
    chart  = "mintlify"
    values = [local.chart_values]
    set_sensitive = [
      {
        name  = "staticExport.bundleUrl"
        value = mintlify_static_export_bundle.docs.bundle_url
        type  = "string"
      }
    ]
  }
}

data "mintlify_agent_job" "latest" {
  count               = var.agent_job_id == null ? 0 : 1
  id                  = var.agent_job_id
  wait_for_completion = true
}

output "deployment_status" {
  value = mintlify_deployment.docs.status
}

output "deployed_commit" {
  value = mintlify_deployment.docs.commit_sha
}

output "bundle_url" {
  description = "The presigned link the chart downloads at pod start."
  value       = mintlify_static_export_bundle.docs.bundle_url
  sensitive   = true
}

output "expires_at" {
  value = mintlify_static_export_bundle.docs.expires_at
}

output "page_count" {
  value = mintlify_static_export_bundle.docs.page_count
}

output "agent_job_status" {
  value = one(data.mintlify_agent_job.latest[*].status)
}

output "agent_pr_link" {
  value = one(data.mintlify_agent_job.latest[*].pr_link)
}
