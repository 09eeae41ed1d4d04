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
  description = "The commit of the docs repository to publish."
  type        = string
}

resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = "2024-06-01"

  # A new docs commit means a new export.
  triggers = {
    docs_commit = var.docs_commit
  }

  timeouts = {
    create = "45m"
  }
}

# Feed the link to the self-hosted Mintlify Enterprise chart. Through
# set_sensitive, plans show it as (sensitive value), also when they upgrade
# the release.
resource "helm_release" "mintlify" {
  name       = "mintlify"
  repository = "oci://registry.example.com/charts"
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
    }
  ]
}
