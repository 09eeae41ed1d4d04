terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
    helm = {
      source  = "hashicorp/helm"
      version = ">= 3.0"
    }
  }
}

variable "docs_commit" {
  type        = string
  description = "The commit of the docs repository to export."
}

variable "chart_repository" {
  description = "Where the Mintlify Enterprise Helm chart is published, as Mintlify gives it to you with your Enterprise plan."
  type        = string
}

# Deploy the docs commit and wait for it: the export below starts only once
# the deployment has succeeded, and exports what it put live.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

resource "mintlify_static_export_bundle" "docs" {
  domain   = "docs.example.com"
  version  = mintlify_deployment.docs.commit_sha
  triggers = { deployment = mintlify_deployment.docs.id }
}

# Render the chart offline, with no cluster, to check what a rollout will
# receive: with the link through `set_sensitive`...
data "helm_template" "set_sensitive" {
  name       = "mintlify"
  repository = var.chart_repository
  chart      = "mintlify"

  values = [yamlencode({
    staticExport = {
      enabled = true
      version = mintlify_static_export_bundle.docs.version
    }
  })]
  set_sensitive = [
    {
      name  = "staticExport.bundleUrl"
      value = mintlify_static_export_bundle.docs.bundle_url
      type  = "string"
    },
  ]
}

# ...or through `helm_values`.
data "helm_template" "values" {
  name       = "mintlify"
  repository = var.chart_repository
  chart      = "mintlify"
  values     = [mintlify_static_export_bundle.docs.helm_values]
}
