terraform {
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

variable "docs_commit" {
  description = "The commit of the docs repository to publish."
  type        = string
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

# Without renew_before, the link is renewed once less than a quarter of its
# lifetime is left, whatever that lifetime is.
resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = mintlify_deployment.docs.commit_sha

  triggers = {
    deployment = mintlify_deployment.docs.id
  }
}

resource "helm_release" "mintlify" {
  name       = "mintlify"
  namespace  = "docs"
  repository = var.chart_repository
  chart      = "mintlify"

  # staticExport.enabled, staticExport.bundleUrl and staticExport.version.
  # helm_values is sensitive, but a plan that upgrades the release shows the
  # link in the release's metadata (hashicorp/terraform-provider-helm#1287):
  # prefer set_sensitive for the link.
  values = [mintlify_static_export_bundle.docs.helm_values]
}
