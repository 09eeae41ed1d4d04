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

variable "chart_repository" {
  description = "Where the Mintlify Enterprise Helm chart is published, as Mintlify gives it to you with your Enterprise plan."
  type        = string
}

resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = "2024-06-01"
}

resource "helm_release" "mintlify" {
  name       = "mintlify"
  namespace  = "docs"
  repository = var.chart_repository
  chart      = "mintlify"

  set = [
    {
      name  = "staticExport.enabled"
      value = "true"
    },
    {
      name  = "staticExport.version"
      value = mintlify_static_export_bundle.docs.version
    }
  ]

  # Kept out of `terraform plan` output, but stored in state.
  set_sensitive = [
    {
      name  = "staticExport.bundleUrl"
      value = mintlify_static_export_bundle.docs.bundle_url
    }
  ]
}
