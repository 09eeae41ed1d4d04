terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
    aws = {
      source = "hashicorp/aws"
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

variable "bundle_bucket" {
  description = "The internal bucket the cluster fetches bundles from."
  type        = string
  default     = "docs-bundles"
}

variable "bundle_base_url" {
  description = "The bucket's URL as the pods reach it: a VPC endpoint, or a gateway inside the cluster."
  type        = string
  default     = "https://docs-bundles.s3.internal.example.com"
}

# Deploy the docs commit and wait for it: the export below starts only once
# the deployment has succeeded, and exports what it put live.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

# Terraform runs where both the Mintlify API and the internal storage are
# reachable; the cluster needs neither the internet nor the presigned link.
resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = mintlify_deployment.docs.commit_sha
  # The archive below gets a link of its own: nothing uses this one, so no
  # plan renews it.
  renew_link = false

  triggers = {
    deployment = mintlify_deployment.docs.id
  }
}

resource "mintlify_static_export_archive" "docs" {
  job_id = mintlify_static_export_bundle.docs.job_id
  # One file per export: the create_before_destroy of aws_s3_object below
  # makes Terraform write a new export's archive before it destroys the old
  # one, so they must not share a path. The old file is deleted afterwards.
  output_path = "${path.module}/build/docs-${mintlify_static_export_bundle.docs.job_id}.tar.gz"
}

locals {
  # The version is the archive's own hash: the same export always gives the
  # same version, a new one a new version.
  bundle_version = substr(mintlify_static_export_archive.docs.sha256, 0, 12)
}

resource "aws_s3_object" "bundle" {
  bucket = var.bundle_bucket
  # One object per export. The job id is known at plan time, even when the
  # local file has to be downloaded again, so the object is never replaced
  # then; source_hash uploads it again whenever the file's content differs.
  key          = "mintlify/docs-${mintlify_static_export_archive.docs.job_id}.tar.gz"
  source       = mintlify_static_export_archive.docs.output_path
  source_hash  = mintlify_static_export_archive.docs.sha256
  content_type = "application/gzip"

  # A new export's object is uploaded, and the release rolled onto it,
  # before the old one is deleted: pods still on the old version can restart.
  lifecycle {
    create_before_destroy = true
  }
}

resource "helm_release" "mintlify" {
  name       = "mintlify"
  namespace  = "docs"
  repository = "oci://registry.internal.example.com/charts"
  chart      = "mintlify"

  values = [yamlencode({
    staticExport = {
      enabled   = true
      bundleUrl = "${var.bundle_base_url}/${aws_s3_object.bundle.key}"
      version   = local.bundle_version
    }
  })]
}
