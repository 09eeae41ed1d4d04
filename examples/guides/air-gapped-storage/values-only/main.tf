terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "bundle_base_url" {
  description = "The bucket's URL as the pods reach it."
  type        = string
  default     = "https://docs-bundles.s3.internal.example.com"
}

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
  # The archive gets a link of its own: no plan renews this one.
  renew_link = false
}

resource "mintlify_static_export_archive" "docs" {
  job_id      = mintlify_static_export_bundle.docs.job_id
  output_path = "${path.module}/build/docs-bundle.tar.gz"
}

locals {
  bundle_version = substr(mintlify_static_export_archive.docs.sha256, 0, 12)
  bundle_key     = "mintlify/docs-${mintlify_static_export_archive.docs.job_id}.tar.gz"
}

# The chart's values, once the archive is in the bucket under bundle_key.
resource "terraform_data" "helm_values" {
  input = yamlencode({
    staticExport = {
      enabled   = true
      bundleUrl = "${var.bundle_base_url}/${local.bundle_key}"
      version   = local.bundle_version
    }
  })
}

output "upload" {
  description = "What to copy where, and the MD5 the storage will report as the object's ETag."
  value = {
    file = mintlify_static_export_archive.docs.output_path
    key  = local.bundle_key
    md5  = mintlify_static_export_archive.docs.md5
  }
}
