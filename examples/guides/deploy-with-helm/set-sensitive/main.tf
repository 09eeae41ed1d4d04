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

resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = "2024-06-01"
}

resource "helm_release" "mintlify" {
  name       = "mintlify"
  namespace  = "docs"
  repository = "oci://registry.example.com/charts"
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
