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

variable "chart_repository" {
  description = "Where the Mintlify Enterprise Helm chart is published, as Mintlify gives it to you with your Enterprise plan."
  type        = string
}

# Without renew_before, the link is renewed once less than a quarter of its
# lifetime is left, whatever that lifetime is.
resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = "2024-06-01" # pin the exported version for reproducible rollouts

  triggers = {
    docs_commit = var.docs_commit
  }
}

resource "helm_release" "mintlify" {
  name       = "mintlify"
  namespace  = "docs"
  repository = var.chart_repository
  chart      = "mintlify"

  # What is not secret, readable in every plan.
  values = [yamlencode({
    staticExport = {
      enabled = true
      version = mintlify_static_export_bundle.docs.version
    }
  })]

  # The link: plans show `(sensitive value)` in its place, also in the
  # release's metadata when it is upgraded.
  set_sensitive = [
    {
      name  = "staticExport.bundleUrl"
      value = mintlify_static_export_bundle.docs.bundle_url
      type  = "string"
    }
  ]
}
