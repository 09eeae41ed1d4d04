terraform {
  # Ephemeral resources need Terraform 1.10, write-only arguments 1.11.
  required_version = ">= 1.11"
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

variable "chart_repository" {
  description = "Where the Mintlify Enterprise Helm chart is published, as Mintlify gives it to you with your Enterprise plan."
  type        = string
}

variable "chart_version" {
  description = "The version of the Mintlify Enterprise Helm chart to deploy."
  type        = string
  default     = "1.4.2"
}

locals {
  # Every input of the release other than the write-only link.
  release_set = [
    {
      name  = "staticExport.enabled"
      value = "true"
    }
  ]
}

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"

  # The link reaches the release write-only, below: keep none in state.
  # bundle_url and helm_values are null; expires_at and link_revision are
  # still tracked, so the link is renewed as usual.
  store_link = false

  # The helm provider sends set_wo only when set_wo_revision grows: any
  # other change of the release would upgrade it without the link. A new
  # link for each change of the release's other inputs grows link_revision
  # with them.
  renew_triggers = {
    chart_version = var.chart_version
    release_set   = sha256(jsonencode(local.release_set))
  }
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
  version    = var.chart_version

  set = local.release_set
  set_wo = [
    {
      name  = "staticExport.bundleUrl"
      value = ephemeral.mintlify_static_export_bundle.link.bundle_url
    }
  ]
  # Re-send the write-only value exactly when the managed resource has
  # generated a new link (create, renewal, resume, renew_triggers).
  set_wo_revision = mintlify_static_export_bundle.docs.link_revision
}
