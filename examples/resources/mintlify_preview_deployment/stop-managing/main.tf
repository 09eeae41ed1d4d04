# The registry example once the preview has left the configuration: the
# removed block has Terraform forget the preview without a destroy. The
# preview stays online either way, since the API cannot delete one
# (Terraform 1.7 or later, OpenTofu 1.12 or later).

terraform {
  required_version = ">= 1.7"
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

removed {
  from = mintlify_preview_deployment.docs

  lifecycle {
    destroy = false
  }
}
