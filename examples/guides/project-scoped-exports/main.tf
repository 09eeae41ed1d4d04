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

variable "docs_commit" {
  description = "The commit of the docs repository that should go live, such as the CI job's commit SHA."
  type        = string
}

variable "chart_repository" {
  description = "Where the Mintlify Enterprise Helm chart is published, as Mintlify gives it to you with your Enterprise plan."
  type        = string
}

# The chain guide's configuration after the move. The deployment already
# names the project (the provider's project_id, or MINTLIFY_PROJECT_ID).
resource "mintlify_deployment" "docs" {
  on_failure = "record"

  triggers = {
    docs_commit = var.docs_commit
  }
}

# Without domain, version and paths: the project-scoped export of the same
# project. Add base_path = "/docs" if the site is served under /docs.
resource "mintlify_static_export_bundle" "docs" {
  triggers = {
    deployment = mintlify_deployment.docs.last_success.id
  }

  lifecycle {
    create_before_destroy = true

    precondition {
      condition     = mintlify_deployment.docs.last_success != null
      error_message = "No deployment of the docs has succeeded yet, so there is nothing to export. Fix the docs, then apply with the new commit."
    }
  }
}

resource "helm_release" "mintlify" {
  name       = "mintlify"
  namespace  = "docs"
  repository = var.chart_repository
  chart      = "mintlify"

  values = [yamlencode({
    staticExport = {
      enabled = true
      # The bundle's version is null without domain: tag the release with
      # the deployed commit instead.
      version = mintlify_deployment.docs.last_success.commit_sha
    }
  })]

  # The link now points at export.zip: the chart's version must take a ZIP.
  set_sensitive = [
    {
      name  = "staticExport.bundleUrl"
      value = mintlify_static_export_bundle.docs.bundle_url
      type  = "string"
    }
  ]
}

output "deployed_commit" {
  value = mintlify_deployment.docs.last_success.commit_sha

  precondition {
    condition     = timestamp() == "" || mintlify_deployment.docs.status == "success"
    error_message = "The deployment of the docs commit failed: its log is in the \"Deployment Failed\" warning of the apply that deployed it. The cluster keeps the export of the last deployment that succeeded."
  }
}
