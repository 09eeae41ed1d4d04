terraform {
  required_version = ">= 1.12"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Adopt a preview by its identity: the status id of its latest deployment,
# and optionally its project (by default the one the API names for it).
import {
  to = mintlify_preview_deployment.docs
  identity = {
    project_id = "proj_0123456789"
    status_id  = "6650f1c2a0b1c2d3e4f50617"
  }
}

resource "mintlify_preview_deployment" "docs" {
  branch = "feature/new-api"
}
