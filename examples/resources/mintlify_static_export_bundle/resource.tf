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

# Deploy the docs commit and wait for it: the export below starts only once
# the deployment has succeeded, and exports what it put live.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = mintlify_deployment.docs.commit_sha

  # A new deployment, and only that, means a new export.
  triggers = {
    deployment = mintlify_deployment.docs.id
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
