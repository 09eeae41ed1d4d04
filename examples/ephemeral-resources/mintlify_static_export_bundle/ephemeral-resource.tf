terraform {
  # Ephemeral resources need Terraform 1.10, write-only arguments 1.11.
  required_version = ">= 1.11"
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
  domain = "docs.example.com"

  # The link reaches the release write-only, below: keep none in state.
  # bundle_url and helm_values are null; expires_at and link_revision are
  # still tracked, so the link is renewed as usual.
  store_link = false
}

# A fresh link at every run, never stored in state or plan files.
ephemeral "mintlify_static_export_bundle" "link" {
  job_id = mintlify_static_export_bundle.docs.job_id
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
    }
  ]
  set_wo = [
    {
      name  = "staticExport.bundleUrl"
      value = ephemeral.mintlify_static_export_bundle.link.bundle_url
    }
  ]
  # Re-send the write-only value exactly when the managed resource has
  # generated a new link (create, renewal, resume).
  set_wo_revision = mintlify_static_export_bundle.docs.link_revision
}
