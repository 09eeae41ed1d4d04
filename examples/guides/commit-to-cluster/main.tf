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

# 1. Deploy the docs commit and wait for it. A failed deployment is recorded,
#    not retried: last_success keeps naming the deployment the site serves.
resource "mintlify_deployment" "docs" {
  on_failure = "record"

  triggers = {
    docs_commit = var.docs_commit
  }
}

# 2. Export what was deployed, once the deployment has succeeded, tagged with
#    its commit. A failed deployment leaves the export and its renewal as is.
resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = mintlify_deployment.docs.last_success.commit_sha

  triggers = {
    deployment = mintlify_deployment.docs.last_success.id
  }

  lifecycle {
    # A new docs commit replaces the export: keep the current one until the
    # new one exists.
    create_before_destroy = true

    precondition {
      condition     = mintlify_deployment.docs.last_success != null
      error_message = "No deployment of the docs has succeeded yet, so there is nothing to export. Fix the docs, then apply with the new commit."
    }
  }
}

# 3. Roll the self-hosted chart onto that export.
resource "helm_release" "mintlify" {
  name       = "mintlify"
  namespace  = "docs"
  repository = var.chart_repository
  chart      = "mintlify"

  values = [yamlencode({
    staticExport = {
      enabled = true
      version = mintlify_static_export_bundle.docs.version
    }
  })]

  # The link: plans show `(sensitive value)` in its place.
  set_sensitive = [
    {
      name  = "staticExport.bundleUrl"
      value = mintlify_static_export_bundle.docs.bundle_url
      type  = "string"
    }
  ]
}

# The commit the site, and the cluster, serve. A failed deployment fails the
# apply here (exit code 1), once everything else is applied: timestamp() is
# unknown until the apply, so the check never stops a plan, nor the renewal
# of the link.
output "deployed_commit" {
  value = mintlify_deployment.docs.last_success.commit_sha

  precondition {
    condition     = timestamp() == "" || mintlify_deployment.docs.status == "success"
    error_message = "The deployment of the docs commit failed. Its log is in the \"Deployment Failed\" warning of the apply that deployed this commit, and in the Mintlify dashboard. The cluster serves an export of the last deployment that succeeded, and its link is still renewed. Fix the docs, then apply with the new commit."
  }
}
