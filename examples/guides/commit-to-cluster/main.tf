terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1"
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

# 1. Deploy the docs commit and wait for it. A failed deployment fails the
#    apply here, with its last log lines: nothing below runs.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

# 2. Export exactly what was deployed: a new deployment starts a new export,
#    which starts only once the deployment has succeeded, and the export is
#    tagged with the deployed commit.
resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = mintlify_deployment.docs.commit_sha

  triggers = {
    deployment = mintlify_deployment.docs.id
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

output "deployed_commit" {
  value = mintlify_deployment.docs.commit_sha
}
